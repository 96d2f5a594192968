package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Roles that are not superusers create schemas, routines and types as
// PostgreSQL 15 lets them: CREATE SCHEMA needs CREATE on the database
// (and, with AUTHORIZATION, the privileges of the role that gets it);
// a function, procedure, enum, composite, range type or domain needs
// CREATE on its schema, and CREATE OR REPLACE the ownership of the
// routine it replaces. The role owns what it creates (routines take
// their creator, owner_create.go gives the types). This file keeps no
// state.

// mayCreateSchema checks CREATE SCHEMA c for the session's role.
func (s *Session) mayCreateSchema(c *sql.CreateSchema) error {
	e := s.e
	acl, _ := e.databaseACL()
	if e.databasePrivs(s.role, acl)&sql.PrivCreate == 0 {
		return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", DatabaseName)
	}
	if c.Owner != "" && (c.Owner == SuperuserName || e.roles[c.Owner] != nil) && !e.hasPrivsOf(s.role, c.Owner) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", c.Owner)
	}
	return nil
}

// mayCreateRoutine checks CREATE [OR REPLACE] FUNCTION | PROCEDURE c.
func (s *Session) mayCreateRoutine(c *sql.CreateFunction) error {
	e, f := s.e, c.Func
	if err := s.mayCreateIn(f.Name); err != nil {
		return err
	}
	if old, _ := e.function(f.Signature(), f.Name); old != nil && c.Replace && !e.hasPrivsOf(s.role, routineOwnerName(old)) {
		what := "function"
		if old.Procedure {
			what = "procedure"
		}
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", what, e.bareName(f.Name))
	}
	return nil
}

// mayCreateType checks CREATE TYPE and CREATE DOMAIN b: CREATE on the
// schema that gets the type.
func (s *Session) mayCreateType(b sql.Bound) error {
	var name string
	switch b := b.(type) {
	case *sql.CreateEnum:
		name = b.Name
	case *sql.CreateComposite:
		name = b.Name
	case *sql.CreateRange:
		name = b.Name
	case *sql.CreateDomain:
		name = b.Def.Name
	}
	return s.mayCreateIn(name)
}

// mayDropObjects checks DROP FUNCTION | PROCEDURE, DROP TYPE and DROP
// DOMAIN b: the role must hold the privileges of each object's owner
// (42501 `must be owner of function f`, `… of type t`); what does not
// exist is left for the statement to report.
func (s *Session) mayDropObjects(b sql.Bound) error {
	e := s.e
	switch b := b.(type) {
	case *sql.DropFunction:
		for _, ref := range b.Funcs {
			f, err := e.lookupRoutine(ref, b.Procedure)
			if a := e.aggregateNamed(ref); err != nil && b.Routine && a != nil && !e.hasPrivsOf(s.role, aggOwnerName(a)) {
				return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of routine %s", s.visibleName(a.Name))
			}
			if err != nil || e.hasPrivsOf(s.role, routineOwnerName(f)) {
				continue
			}
			what := "function"
			switch {
			case b.Routine:
				what = "routine" // PostgreSQL names the object as DROP does
			case f.Procedure:
				what = "procedure"
			}
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", what, s.visibleName(f.Name))
		}
	case *sql.DropType:
		return s.mustOwnTypes(b.Names)
	case *sql.DropDomain:
		return s.mustOwnTypes(b.Names)
	}
	return nil
}

// mustOwnTypes returns 42501 unless the role holds the privileges of the
// owner of each type named that exists.
func (s *Session) mustOwnTypes(names []string) error {
	e := s.e
	for _, name := range names {
		_, isType := e.userTypes[name]
		if !isType && e.composites[name] == nil && e.domains.byName[name] == nil {
			continue
		}
		if !e.hasPrivsOf(s.role, e.typeOwner(name)) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of type %s", s.visibleName(name))
		}
	}
	return nil
}

// visibleName is the object keyed key as PostgreSQL's messages name it:
// bare when its schema is public or on the search path, else qualified.
func (s *Session) visibleName(key string) string {
	sc, n := s.e.splitKey(key)
	if sc == "public" || slices.Contains(s.searchPath(), sc) {
		return n
	}
	return key
}
