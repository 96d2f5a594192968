package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// relSetTablespace runs ALTER INDEX | MATERIALIZED VIEW … SET TABLESPACE
// pg_default: every relation is in pg_default already, so it checks that
// the relation exists and is of the statement's kind, as PostgreSQL's
// does before it moves anything.
func (s *Session) relSetTablespace(a *sql.RelSetTablespace) (Result, error) {
	e := s.e
	name := a.Name
	kind, isRel := e.kindOf(name)
	index := e.isIndex(name) || e.matIndexes[name] != nil
	if !isRel && !index && e.seqs[name] == nil {
		if a.MissingOk {
			return Result{Tag: a.Tag, Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	switch {
	case a.Kind == "index" && !index, a.Kind == "materialized view" && kind != sql.DropMatView:
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not %s", e.bareName(name), map[string]string{"index": "an index", "materialized view": "a materialized view"}[a.Kind])
	}
	return Result{Tag: a.Tag}, nil
}
