package engine

import (
	"maps"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Roles that are not superusers create relations as PostgreSQL 15 lets
// them, and own what they create. This file keeps no state: it checks
// what CREATE TABLE, CREATE TABLE AS, CREATE [MATERIALIZED] VIEW and
// CREATE SEQUENCE need (CREATE on the schema that gets the relation,
// TEMPORARY on the database for a temporary one, ownership of a
// partition's parent and of INHERITS' parents, SELECT on what LIKE copies
// and on what CREATE TABLE AS and a materialized view read, USAGE on the
// columns' types, REFERENCES for a foreign key) and, once a catalog
// change ran, gives what it created to the current role (owner.go,
// type_owner.go, routines, schemas) unless that is the built-in
// superuser, which owns what nobody else does.

// mayCreateRelation checks that the session's role, no superuser, may
// create the relation b creates; readAll checks SELECT on what the
// statement reads.
func (s *Session) mayCreateRelation(b sql.Bound, rec *recorder, readAll func(string) error) error {
	switch b := b.(type) {
	case *sql.CreateTable:
		return s.mayCreateTable(b, rec)
	case *sql.CreateTableAs:
		if err := s.mayCreateNamed(b.Table.Name, b.Table.Temp, -1); err != nil {
			return err
		}
		if err := s.mayUseColumnTypes(b.Table.Cols, func(int) bool { return true }); err != nil {
			return err
		}
		return readAll("")
	case *sql.CreateView:
		if err := s.mayCreateNamed(b.Name, b.Temp, -1); err != nil {
			return err
		}
		if b.Replace {
			kind := sql.DropView
			if b.Materialized {
				kind = sql.DropMatView
			}
			if err := s.mustOwnRelations([]string{b.Name}, kind, false); err != nil {
				return err
			}
		}
		if b.Materialized {
			return readAll("") // populated as its creator, as a query
		}
		return nil // a plain view's query is checked when read
	case *sql.CreateSequence:
		return s.mayCreateNamed(b.Name, b.Temp, -1)
	}
	return nil
}

// mayCreateTable checks CREATE TABLE b: CREATE on its schema (TEMPORARY
// on the database), ownership of the tables it inherits from or is a
// partition of, SELECT on those LIKE copies, USAGE on its columns' types
// and REFERENCES on what its foreign keys reference, in PostgreSQL's
// order.
func (s *Session) mayCreateTable(b *sql.CreateTable, rec *recorder) error {
	if err := s.mayCreateNamed(b.Name, b.Temp, b.NameLoc); err != nil {
		return err
	}
	owned := []string{b.Name}
	if b.PartitionOf != nil {
		if err := s.mustOwnRel(b.PartitionOf.Parent, "table"); err != nil {
			return err
		}
		owned = append(owned, b.PartitionOf.Parent)
	}
	for _, p := range b.Inherits {
		if err := s.mustOwnRel(p, "table"); err != nil {
			return err
		}
		owned = append(owned, p)
	}
	for _, fk := range b.ForeignKeys {
		owned = append(owned, fk.RefTable)
	}
	// What else the statement named is what LIKE copies.
	for _, name := range rec.direct {
		if slices.Contains(owned, name) {
			continue
		}
		if err := s.allowed(name, sql.PrivSelect); err != nil {
			return err
		}
	}
	if err := s.mayUseColumnTypes(b.Cols, func(int) bool { return true }); err != nil {
		return err
	}
	for _, fk := range b.ForeignKeys {
		if fk.RefTable == b.Name {
			continue // its own columns
		}
		if err := s.mayReference(fk); err != nil {
			return err
		}
	}
	return nil
}

// mayCreateNamed checks that the role may create a relation keyed key: a
// temporary one needs TEMPORARY on the database, another CREATE on its
// schema (42501 at loc, the offset of its name, when loc > 0).
func (s *Session) mayCreateNamed(key string, temp bool, loc int) error {
	if temp || isTemp(key) {
		return s.mayCreateTemp()
	}
	err := s.mayCreateIn(key)
	if pe, ok := err.(*pgerr.Error); ok && loc > 0 {
		return pe.At(s.ddlText, loc)
	}
	return err
}

// mayCreateTemp returns 42501 unless the role holds TEMPORARY on the
// database (PUBLIC does by default).
func (s *Session) mayCreateTemp() error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	e := s.e
	acl, _ := e.databaseACL()
	if e.databasePrivs(s.role, acl)&sql.PrivTemp != 0 {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied to create temporary tables in database %q", DatabaseName)
}

// creatorName is the role that owns what the session creates: its
// current role; "" for the built-in superuser, which owns what no other
// role does, and while a store's statements are run again (their owners
// are recorded apart).
func (s *Session) creatorName() string {
	if s.restoring || s.role == "" || s.role == SuperuserName {
		return ""
	}
	return s.role
}

// owningCreated runs fn, a catalog change, and gives the relations and
// types it created to the session's current role when the statement is
// one that creates them (a rename makes a new key, which keeps its
// owner). Run as the built-in superuser it costs nothing.
func (s *Session) owningCreated(fn func() (Result, error)) func() (Result, error) {
	role := s.creatorName()
	if role == "" || !createsOwned(s.stmt) {
		return fn
	}
	e := s.e
	return func() (Result, error) {
		before := e.takeDefACLSnapshot()
		res, err := fn()
		if err != nil {
			return res, err
		}
		return res, e.giveCreated(before, role)
	}
}

// createsOwned reports whether b creates relations or types that its
// creator owns.
func createsOwned(b sql.Bound) bool {
	switch b.(type) {
	case *sql.CreateTable, *sql.CreateTableAs, *sql.CreateView, *sql.CreateSequence,
		*sql.CreateEnum, *sql.CreateComposite, *sql.CreateRange, *sql.CreateDomain:
		return true
	}
	return false
}

// giveCreated makes role the owner of the relations and types created
// since before (routines, aggregates and schemas take their creator as
// they are made).
func (e *Engine) giveCreated(before defACLSnapshot, role string) error {
	after := e.takeDefACLSnapshot()
	for _, key := range slices.Sorted(maps.Keys(after.rels)) {
		if before.rels[key] || e.relOwner(key) == role {
			continue
		}
		if q := e.seqs[key]; q != nil && q.owner[0] != "" && !before.rels[q.owner[0]] {
			continue // its table's, which gives it along
		}
		if err := e.setRelOwner(key, role); err != nil {
			return err
		}
	}
	// Statistics objects LIKE … INCLUDING STATISTICS copied to a table
	// created, which its creator owns as the table.
	for _, name := range sortedKeys(e.stats) {
		if st := e.stats[name]; st.owner == "" && after.rels[st.table] && !before.rels[st.table] {
			next := *st
			next.owner = role
			if err := e.storeStats(st.name, &next); err != nil {
				return err
			}
			e.stats[name] = &next
		}
	}
	for _, name := range slices.Sorted(maps.Keys(after.types)) {
		if before.types[name] || e.typeOwner(name) == role {
			continue
		}
		if err := e.setTypeOwner(name, role); err != nil {
			return err
		}
	}
	return nil
}
