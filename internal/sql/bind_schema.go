package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Schema is CREATE SCHEMA or DROP SCHEMA, as far as the one schema there
// is allows: every relation is in public. CREATE SCHEMA [IF NOT EXISTS]
// public finds it there (42P06, or a notice), DROP SCHEMA [IF EXISTS] of
// another name finds none (3F000, or a notice); a schema of another name
// cannot be made, nor public dropped (0A000). It changes nothing.
type Schema struct {
	Tag     string
	Notices []string
}

func (*Schema) bound() {}

// systemSchemas are PostgreSQL's schemas that exist in every database.
var systemSchemas = map[string]bool{"public": true, "pg_catalog": true, "information_schema": true}

func (b *binder) bindCreateSchema(cs *pg_query.CreateSchemaStmt) (Bound, error) {
	name := cs.Schemaname
	if name == "" && cs.Authrole != nil {
		name = cs.Authrole.Rolename // CREATE SCHEMA AUTHORIZATION r names the schema after r
	}
	if !systemSchemas[name] {
		return nil, b.refuse(-1, "CREATE SCHEMA %s is not supported: every relation is in schema public", name).
			WithHint("create the relations in public (the default), without a schema")
	}
	if !cs.IfNotExists {
		return nil, pgerr.New("42P06", "schema %q already exists", name)
	}
	return &Schema{Tag: "CREATE SCHEMA", Notices: []string{fmt.Sprintf("schema %q already exists, skipping", name)}}, nil
}

func (b *binder) bindDropSchema(ds *pg_query.DropStmt) (Bound, error) {
	s := &Schema{Tag: "DROP SCHEMA"}
	for _, o := range ds.Objects {
		name := o.GetString_().GetSval()
		if systemSchemas[name] {
			return nil, b.refuse(-1, "DROP SCHEMA %s is not supported: it holds every relation", name)
		}
		if !ds.MissingOk {
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", name)
		}
		s.Notices = append(s.Notices, fmt.Sprintf("schema %q does not exist, skipping", name))
	}
	return s, nil
}
