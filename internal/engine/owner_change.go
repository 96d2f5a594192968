package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// What the owner of a relation (and the roles holding its privileges)
// may change besides ALTER TABLE (owner_alter.go): its triggers, rules,
// indexes (DROP INDEX, CLUSTER, REINDEX) and its owner, as PostgreSQL 15
// checks them; CREATE TRIGGER needs the TRIGGER privilege instead. This
// file keeps no state. A relation that does not exist is let through, for
// the statement to report.

// mayChangeOwned checks b, a statement that changes what a relation's
// owner may change, for the session's role, no superuser.
func (s *Session) mayChangeOwned(b sql.Bound) error {
	switch b := b.(type) {
	case *sql.CreateTrigger:
		return s.allowed(b.Table, sql.PrivTrigger)
	case *sql.DropTrigger:
		return s.mustOwnRel(b.Table, "relation")
	case *sql.AlterTriggers:
		return s.mustOwnRel(b.Table, "table")
	case *sql.RenameTrigger:
		return s.mustOwnRel(b.Table, "table")
	case *sql.CreateRule:
		return s.mustOwnRel(b.Table, "")
	case *sql.DropRule:
		return s.mustOwnRel(b.Table, "relation")
	case *sql.RenameRule:
		return s.mustOwnRel(b.Table, "")
	case *sql.AlterRules:
		return s.mustOwnRel(b.Table, "")
	case *sql.Cluster:
		if b.Table == "" {
			return nil // every clustered table: checked as it runs
		}
		return s.mustOwnRel(b.Table, "")
	case *sql.Reindex:
		switch b.Kind {
		case "TABLE":
			return s.mustOwnRel(b.Name, "")
		case "INDEX":
			return s.mustOwnIndex(b.Name)
		}
		return nil // checked as it runs
	case *sql.AlterRelOwner:
		return s.mayGiveRelation(b)
	}
	return s.mustBeSuperuser("run this statement")
}

// mustOwnIndex returns 42501 `must be owner of index i` unless the role
// holds the privileges of the owner of the table (or materialized view)
// of the index keyed key.
func (s *Session) mustOwnIndex(key string) error {
	e := s.e
	owner := ""
	if mi := e.matIndexes[key]; mi != nil {
		owner = e.relOwner(mi.view)
	} else if t := e.indexOwner(key); t != nil {
		owner = e.relOwner(t.name)
	}
	if owner == "" || e.hasPrivsOf(s.role, owner) {
		return nil
	}
	if err := s.schemaAllowed(key); err != nil {
		return err
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of index %s", e.bareName(key))
}

// mayGiveRelation checks ALTER … OWNER TO as PostgreSQL's
// ATExecChangeOwner: nothing when the owner does not change, else the
// relation's ownership, the new owner's privileges (42501 `must be member
// of role "r"`) and the new owner's CREATE on the relation's schema.
func (s *Session) mayGiveRelation(a *sql.AlterRelOwner) error {
	e := s.e
	role := a.Owner
	if role == "" {
		role = s.userName()
	}
	if role != SuperuserName && e.roles[role] == nil {
		return nil // the statement reports it
	}
	if e.indexes[a.Name] != nil || e.matIndexes[a.Name] != nil {
		return nil // an index keeps its table's owner: a WARNING
	}
	if _, ok := e.kindOf(a.Name); !ok && e.seqs[a.Name] == nil {
		return nil
	}
	if e.relOwner(a.Name) == role {
		return nil
	}
	if err := s.mustOwnRel(a.Name, ""); err != nil {
		return err
	}
	if !e.hasPrivsOf(s.role, role) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", role)
	}
	return e.mayCreateAs(role, a.Name)
}
