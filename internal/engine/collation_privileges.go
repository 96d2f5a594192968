package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A role that is not a superuser creates a collation in a schema it holds
// CREATE on, and alters or drops the collations it owns (or whose owner's
// privileges it holds), as in PostgreSQL 15: a name qualified by a schema
// it holds no USAGE on is 42501 naming the schema, as the name's lookup
// checks it first; SET SCHEMA needs CREATE on the new schema before the
// ownership is looked at, RENAME TO and OWNER TO CREATE on the
// collation's own schema after it.

// mayCollation checks CREATE, ALTER and DROP COLLATION b for the
// session's role. What the statement reports itself (a schema or a
// collation that does not exist, a new owner it is no member of) is left
// to it.
func (s *Session) mayCollation(b sql.Bound) error {
	user := s.usageUser()
	if user == "" {
		return nil
	}
	e := s.e
	lookIn := func(names []string) error {
		names = splitCollName(names)
		if len(names) == 2 && e.schemaExists(names[0]) && !e.pathUsable(user, names[0]) {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", names[0])
		}
		return nil
	}
	switch b := b.(type) {
	case *sql.CreateCollation:
		schema := ""
		switch len(b.Names) {
		case 1:
			if path := s.searchPath(); len(path) > 0 {
				schema = path[0]
			}
		case 2:
			schema = b.Names[0]
		}
		if schema == "" || schema != "public" && !e.schemaExists(schema) {
			return nil
		}
		return e.mayCreateAs(s.role, schemaKey(schema, b.Names[len(b.Names)-1]))
	case *sql.DropCollation:
		for _, names := range b.Names {
			if err := lookIn(names); err != nil {
				return err
			}
			// DROP names the collation as written, as PostgreSQL's.
			if _, c, err := s.lookupUserCollation(names); err == nil && s.mayAlterCollation(c) != nil {
				return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of collation %s", strings.Join(names, "."))
			}
		}
	case *sql.AlterCollation:
		if err := lookIn(b.Names); err != nil {
			return err
		}
		if b.Schema == "public" || b.Schema != "" && e.schemaExists(b.Schema) {
			names := splitCollName(b.Names)
			if err := e.mayCreateAs(s.role, schemaKey(b.Schema, names[len(names)-1])); err != nil {
				return err
			}
		}
		_, c, err := s.lookupUserCollation(b.Names)
		if err != nil {
			return nil
		}
		if err := s.mayAlterCollation(c); err != nil {
			return err
		}
		if b.OwnerSet {
			owner := b.Owner
			if owner == "" {
				owner = s.userName()
			}
			if e.roles[owner] != nil && !e.hasPrivsOf(s.userName(), owner) {
				return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", owner)
			}
		}
		if b.Rename != "" || b.OwnerSet {
			return e.mayCreateAs(s.role, schemaKey(c.Schema, c.Name))
		}
	}
	return nil
}

// splitCollName is the schema and name of a collation ALTER … SET SCHEMA
// names, which it gives as one dotted name.
func splitCollName(names []string) []string {
	if len(names) == 1 && strings.Contains(names[0], ".") {
		return strings.SplitN(names[0], ".", 2)
	}
	return names
}
