package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// What the owner of a type, a schema or a partitioned table may change
// keeps no state of its own: as in PostgreSQL 15, the owner of a type or
// domain, and the roles holding its privileges, may rename it, add and
// rename an enum's values, change a composite type's attributes and a
// domain's constraints and default, and give it to a role they are
// members of that may create in its schema; the owner of a schema may
// rename it or give it away with CREATE on the database (which no role
// but a superuser holds here); ATTACH PARTITION needs the ownership of
// both tables, DETACH of the partitioned one. Others get 42501 `must be
// owner of …`, worded as PostgreSQL words it. The caller holds the
// engine's lock.

// mayAlterOwned checks the ALTER statements b of types, schemas and
// partitions above; what does not exist is let through, for the
// statement to report.
func (s *Session) mayAlterOwned(b sql.Bound) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	switch b := b.(type) {
	case *sql.RenameType:
		if b.Move && s.e.userTypeExists(b.Name) {
			// SET SCHEMA: CREATE on the new schema, looked up first.
			if err := s.mayCreateIn(b.New); err != nil {
				return err
			}
		}
		return s.mustOwnType(b.Name, "type")
	case *sql.AlterEnum:
		return s.mustOwnType(b.Name, "type")
	case *sql.AlterDomain:
		if b.Move && s.e.userTypeExists(b.Name) {
			if err := s.mayCreateIn(b.Def.Name); err != nil {
				return err
			}
		}
		return s.mustOwnType(b.Name, "type")
	case *sql.AlterComposite:
		// PostgreSQL checks it as its relation's ALTER TABLE.
		if err := s.mustOwnType(b.Name, "table"); err != nil {
			return err
		}
		return s.mayUseAttrTypes(b)
	case *sql.AlterSchema:
		return s.mayAlterSchema(b)
	case *sql.AttachPartition:
		if err := s.mustOwnRel(b.Table.Name, "table"); err != nil {
			return err
		}
		return s.mustOwnRel(b.Partition.Name, "table")
	case *sql.DetachPartition:
		return s.mustOwnRel(b.Parent, "table")
	case *sql.AlterPartition:
		return s.mustOwnRel(b.Name, "")
	}
	return s.mustBeSuperuser("run this statement")
}

// mustOwnType returns 42501 `must be owner of <what> name` unless the
// session's role holds the privileges of the owner of the type or domain
// name; a composite type is named bare, as its relation.
func (s *Session) mustOwnType(name, what string) error {
	e := s.e
	if !e.userTypeExists(name) || e.hasPrivsOf(s.role, e.relOrTypeOwner(name)) {
		return nil
	}
	shown := name
	if what == "table" {
		shown = e.bareName(name)
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of %s %s", what, shown)
}

// mayGiveType checks ALTER TYPE | DOMAIN name OWNER TO role: the type's
// owner may give it to a role whose privileges it holds and that may
// create in the type's schema.
func (s *Session) mayGiveType(name, role string) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	if err := s.mustOwnType(name, "type"); err != nil {
		return err
	}
	if !s.e.hasPrivsOf(s.role, role) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", role)
	}
	return s.e.mayCreateAs(role, name)
}

// mayAlterSchema checks ALTER SCHEMA … RENAME TO | OWNER TO: the owner
// of the schema, with CREATE on the database, and for OWNER TO the new
// owner's privileges.
func (s *Session) mayAlterSchema(a *sql.AlterSchema) error {
	e := s.e
	sc := e.schemas[a.Name]
	if sc == nil {
		return nil
	}
	if !e.hasPrivsOf(s.role, sc.owner) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of schema %s", a.Name)
	}
	if a.NewName == "" {
		owner := a.NewOwner
		if owner == "" {
			owner = s.userName()
		}
		if e.roles[owner] != nil && !e.hasPrivsOf(s.role, owner) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", owner)
		}
	}
	// CREATE on the database: its owner's, a superuser's, or granted.
	if acl, _ := e.databaseACL(); e.databasePrivs(s.role, acl)&sql.PrivCreate != 0 {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %s", DatabaseName)
}
