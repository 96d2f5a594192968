package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/value"
)

// RelColumns gives a relation's columns and their types by its name, ok
// false for a relation the caller does not know.
type RelColumns func(name string) (cols []string, types []value.Type, ok bool)

// ViewDefPG is src, a view's query as kept, as PostgreSQL 15's
// pg_get_viewdef prints its stored query: columns qualified by their
// relation, every output named, one per line, clauses on lines of their
// own, subqueries, set operations and WITH laid out as ruleutils lays
// them out. names are the view's column names. ok is false for a query
// this printer does not know: the caller keeps src.
func ViewDefPG(src string, names []string, rels RelColumns, pretty bool) (text string, ok bool) {
	return ViewDefPGTypes(src, names, rels, nil, pretty)
}

// ViewDefPGTypes is ViewDefPG for a query that may name user enum types,
// which types resolves.
func ViewDefPGTypes(src string, names []string, rels RelColumns, types EnumTypes, pretty bool) (text string, ok bool) {
	defer func() {
		// A form this printer misreads must cost the reader the
		// PostgreSQL layout, never the catalog read: keep src.
		if recover() != nil {
			text, ok = "", false
		}
	}()
	tree, err := pg_query.Parse(src)
	if err != nil || len(tree.Stmts) != 1 {
		return "", false
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil {
		return "", false
	}
	// A view's stored query has the rule's OLD and NEW entries first in
	// its range table: their names are taken.
	a := &viewAnalyzer{rels: rels, types: types}
	q, err := a.query(sel, scopeEnv{names: map[string]int{"old": 0, "new": 0}}, names, false)
	if err != nil {
		return "", false
	}
	pp := &pprinter{pretty: pretty}
	pp.query(q, true)
	return pp.b.String() + ";", true
}
