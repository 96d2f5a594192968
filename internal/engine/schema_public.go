package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
)

// The schema public is PostgreSQL 15's: owned by pg_database_owner (the
// role whose only member is the database's owner, here the built-in
// superuser), its ACL {pg_database_owner=UC/pg_database_owner,
// =U/pg_database_owner}: every role uses it, none but superusers creates
// in it until GRANT CREATE ON SCHEMA public gives it. e.publicSchema keeps
// its ACL once a GRANT or REVOKE named it (nil until then, for the
// default); a store keeps it as a schema named public (LoadSchemas).

// databaseOwnerRole is PostgreSQL's predefined pg_database_owner, with
// its oid there.
const (
	databaseOwnerRole = "pg_database_owner"
	databaseOwnerOID  = 6171
)

// defaultPublicSchema is public as PostgreSQL 15 creates it.
func defaultPublicSchema() *schema {
	return &schema{name: "public", owner: databaseOwnerRole, grants: map[string]sql.Privilege{"": sql.PrivUsage}, order: []string{""}}
}

// schemaNamed is the schema named name that keeps privileges: one
// CREATE SCHEMA made, or public; nil for another (a system schema).
func (e *Engine) schemaNamed(name string) *schema {
	if name == "public" {
		if e.publicSchema == nil {
			return defaultPublicSchema()
		}
		return e.publicSchema
	}
	return e.schemas[name]
}

// grantableSchema is the schema named name whose ACL GRANT and REVOKE
// change: public's is made from the default the first time.
func (e *Engine) grantableSchema(name string) *schema {
	if name == "public" && e.publicSchema == nil {
		e.publicSchema = defaultPublicSchema()
	}
	return e.schemaNamed(name)
}

// aclSchemas are the schemas whose ACLs may name roles, by name: those
// CREATE SCHEMA made, and public once a GRANT or REVOKE named it (DROP
// OWNED, DROP ROLE's dependencies and pg_shdepend reach its items too).
func (e *Engine) aclSchemas() []*schema {
	out := make([]*schema, 0, len(e.schemas)+1)
	for _, sc := range e.schemas {
		out = append(out, sc)
	}
	if e.publicSchema != nil {
		out = append(out, e.publicSchema)
	}
	slices.SortFunc(out, func(a, b *schema) int { return strings.Compare(a.name, b.name) })
	return out
}
