// Package sql turns SQL text into bound statements: it splits scripts,
// parses each statement with PostgreSQL's own grammar (pg_query), resolves
// names and types against a Catalog, and builds logical plans.
//
// Positions in errors are 1-based character offsets into the statement
// text, as PostgreSQL reports them.
//
// Example:
//
//	stmts, err := sql.Split("CREATE TABLE t (a int); SELECT a FROM t")
//	for _, s := range stmts {
//		bound, err := sql.Bind(catalog, s)
//		...
//	}
package sql
