package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// What an owner may change keeps no state of its own: the owner of a
// relation, and the roles that hold its privileges, may ALTER it, index
// it and comment on it without being superusers, as in PostgreSQL, with
// PostgreSQL's further checks: a name given to the relation (RENAME TO,
// SET SCHEMA) or an index made needs CREATE on the schema that gets it
// (public's belongs to the superuser, as in PostgreSQL 15), and a
// FOREIGN KEY added needs REFERENCES on the columns it references, or
// the referenced table's ownership. The caller holds the engine's lock.

// mustOwnRel returns 42501 `must be owner of <kind> name` unless the
// session's role holds the privileges of the owner of the relation keyed
// key (superusers do); a key that names no relation is let through, for
// the statement to report. what overrides the word for its kind.
func (s *Session) mustOwnRel(key, what string) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	e := s.e
	if _, ok := e.kindOf(key); !ok && e.seqs[key] == nil && e.indexes[key] == nil {
		return nil
	}
	if err := s.schemaAllowed(key); err != nil {
		return err
	}
	if e.hasPrivsOf(s.role, e.relOwner(key)) {
		return nil
	}
	if what == "" {
		what = e.relWhat(key)
		if what == "" && e.seqs[key] != nil {
			what = "sequence"
		} else if what == "" {
			what = "index"
		}
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", what, e.bareName(key))
}

// mayCreateIn returns 42501 unless the session's role may make objects
// in the schema of key: it owns the schema, or holds CREATE on it.
func (s *Session) mayCreateIn(key string) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	return s.e.mayCreateAs(s.role, key)
}

// mayCreateAs returns 42501 unless role may make objects in the schema
// of key: it owns the schema, or holds CREATE on it.
func (e *Engine) mayCreateAs(role, key string) error {
	if r := e.roles[role]; role == SuperuserName || r != nil && r.superuser {
		return nil
	}
	name, _ := e.splitKey(key)
	if name == "" {
		name = "public"
	}
	if sc := e.schemaNamed(name); sc != nil {
		held := sc.heldGrants()
		if held[""]&sql.PrivCreate != 0 {
			return nil
		}
		for _, h := range e.heldRoles(role) {
			if sc.ownerHolds(h) || held[h]&sql.PrivCreate != 0 {
				return nil
			}
		}
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", name)
}

// mayAlterTable checks ALTER TABLE a: the table's owner may, with CREATE
// on the schema of a new name and REFERENCES for a foreign key added.
func (s *Session) mayAlterTable(a *sql.AlterTable) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	if err := s.mustOwnRel(a.Table, ""); err != nil {
		return err
	}
	if a.New == nil {
		return nil
	}
	if a.New.Name != a.Table {
		if err := s.mayCreateIn(a.New.Name); err != nil {
			return err
		}
	}
	if err := s.mayUseColumnTypes(a.New.Cols, func(i int) bool {
		return i >= len(a.Map) || a.Map[i] < 0 || i < len(a.Cast) && a.Cast[i] != nil
	}); err != nil {
		return err
	}
	e := s.e
	var old []sql.ForeignKey
	if t := e.tables[a.Table]; t != nil && t.def != nil {
		old = t.def.ForeignKeys
	}
	for _, fk := range a.New.ForeignKeys {
		if slices.ContainsFunc(old, func(o sql.ForeignKey) bool { return o.Name == fk.Name }) {
			continue
		}
		if err := s.mayReference(fk); err != nil {
			return err
		}
	}
	return nil
}

// mayReference checks that the role may reference the columns fk
// references: it holds the privileges of their table's owner, REFERENCES
// on the table, or REFERENCES on each of them.
func (s *Session) mayReference(fk sql.ForeignKey) error {
	e := s.e
	if e.hasPrivsOf(s.role, e.relOwner(fk.RefTable)) && e.ownerHoldsAll(fk.RefTable) {
		return nil
	}
	held := e.heldRoles(s.role)
	for _, h := range append([]string{""}, held...) {
		if e.relGrants(fk.RefTable)[h]&sql.PrivReferences != 0 {
			return nil // REFERENCES on the whole table
		}
	}
	a := e.colGrants[fk.RefTable]
	for _, name := range fk.RefNames {
		if a.held(name, held)&sql.PrivReferences == 0 {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for table %s", e.bareName(fk.RefTable))
		}
	}
	return nil
}

// mayAlterRoutine checks ALTER FUNCTION | PROCEDURE | AGGREGATE a: the
// routine's owner, and the roles holding its privileges, may, with
// CREATE on its schema for RENAME TO and, for OWNER TO, the new owner's
// privileges. A routine that does not exist is let through, for the
// statement to report.
func (s *Session) mayAlterRoutine(a *sql.AlterFunction) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	e := s.e
	// PostgreSQL names an aggregate a function here.
	aggOwner := func() error {
		if ag := e.aggregateNamed(a.Ref); ag != nil {
			return s.mayAlterAggregate(ag, a)
		}
		return nil
	}
	if a.Kind == "aggregate" {
		return aggOwner()
	}
	f, err := e.lookupRoutine(a.Ref, a.Kind == "procedure")
	if err != nil {
		if a.Kind == "function" {
			return aggOwner()
		}
		return nil
	}
	if err := s.mayMoveTo(a); err != nil {
		return err
	}
	if !e.hasPrivsOf(s.role, routineOwnerName(f)) {
		what := "function"
		if f.Procedure {
			what = "procedure"
		}
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", what, e.bareName(f.Name))
	}
	return s.mayRenameOrGive(f.Name, a)
}

// mayMoveTo checks that SET SCHEMA of a routine may make it in its new
// schema: PostgreSQL looks the schema up, with CREATE on it, before it
// checks the routine's ownership.
func (s *Session) mayMoveTo(a *sql.AlterFunction) error {
	if !a.Move {
		return nil
	}
	return s.mayCreateIn(a.Rename)
}

// mayRenameOrGive checks what ALTER of the routine name needs besides
// its ownership: CREATE on its schema for RENAME TO and OWNER TO, and
// the new owner's privileges for OWNER TO.
func (s *Session) mayRenameOrGive(name string, a *sql.AlterFunction) error {
	if a.Rename != "" && !a.Move {
		if err := s.mayCreateIn(name); err != nil {
			return err
		}
	}
	if a.NewOwner || a.Owner != "" {
		owner := a.Owner
		if owner == "" {
			owner = s.userName()
		}
		if !s.e.hasPrivsOf(s.role, owner) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", owner)
		}
		return s.mayCreateIn(name)
	}
	return nil
}
