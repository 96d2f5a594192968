package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ownedByCheck checks OWNED BY table.column of the sequence keyed seq,
// owned by role, as PostgreSQL's process_owned_by does before it links
// them: the relation must be a table (42809 for another kind; a view,
// which PostgreSQL also takes, is refused), of the sequence's owner and
// of its schema (55000), in that order. The column is checked after, as
// the sequence takes it (setOwner). A store's statements run again
// unchecked: their owners are recorded apart.
func (s *Session) ownedByCheck(seq, role string, o *sql.SeqOptions) error {
	if o.OwnedBy == nil || s.restoring || isTemp(seq) {
		return nil // a temporary sequence's table: tempSeqOwner
	}
	e, name := s.e, o.OwnedBy[0]
	if _, temp := s.temps[name]; temp {
		return pgerr.New(pgerr.ObjectNotInPrereqState, "sequence must be in same schema as table it is linked to")
	}
	switch {
	case e.tables[name] != nil:
	case e.named[name] != nil:
		return pgerr.New(pgerr.FeatureNotSupported, "OWNED BY a column of view %q is not supported", e.bareName(name))
	default:
		what := e.otherRelKind(name)
		if what == "" {
			return pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
		}
		return pgerr.New(pgerr.WrongObjectType, "sequence cannot be owned by relation %q", e.bareName(name)).
			WithDetail("This operation is not supported for %s.", what)
	}
	if e.relOwner(name) != role {
		return pgerr.New(pgerr.ObjectNotInPrereqState, "sequence must have same owner as table it is linked to")
	}
	if ss, _ := e.splitKey(seq); ss != e.schemaOfKey(name) {
		return pgerr.New(pgerr.ObjectNotInPrereqState, "sequence must be in same schema as table it is linked to")
	}
	return nil
}

// schemaOfKey is the schema of the relation keyed key.
func (e *Engine) schemaOfKey(key string) string {
	s, _ := e.splitKey(key)
	return s
}
