package sql

import pg_query "github.com/pganalyze/pg_query_go/v6"

// The privileges on a schema that PostgreSQL checks as it looks a name
// up, before the statement's other checks: USAGE on the schema a name is
// qualified by, CREATE on the schema of the table CREATE TABLE makes.

// UsageChecker is a Qualifier that checks a schema written as a name's
// qualifier: 42501 unless the session's role holds USAGE on it.
type UsageChecker interface {
	MayLookIn(schema string) error
}

// CreationChecker is a Qualifier that checks, as CREATE TABLE resolves
// its name, that the session's role may create the relation keyed key:
// 42501 unless it holds CREATE on the key's schema.
type CreationChecker interface {
	MayCreate(key string) error
}

// mayLookIn returns q's 42501 for a name list qualified by a schema
// (other than the system ones) on which the session's role holds no
// USAGE, as PostgreSQL's lookup of a type or routine checks it first.
func mayLookIn(q Qualifier, names []*pg_query.Node) error {
	uc, ok := q.(UsageChecker)
	schema, _, ok2 := nameParts(names)
	if !ok || !ok2 || schema == "" || systemSchema(schema) || !q.SchemaExists(schema) {
		return nil
	}
	return uc.MayLookIn(schema)
}
