package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// A column's STORAGE clause in its definition (CREATE TABLE t (c text
// STORAGE MAIN), ALTER TABLE … ADD COLUMN, CREATE FOREIGN TABLE) is
// PostgreSQL 16's grammar, which the parser has; PostgreSQL 15 takes
// STORAGE only in ALTER COLUMN … SET STORAGE, and a definition that
// writes it is a syntax error there. The store writes a table's column
// storage in its CREATE TABLE text, so the check is made on what a
// client sends (Storage15Syntax), not in the binder.

// Storage15Syntax returns PostgreSQL 15's syntax error for the first
// column definition of st that has a STORAGE clause, nil for none.
func Storage15Syntax(st *Stmt) error {
	if st == nil || st.Node == nil {
		return nil
	}
	loc := int32(-1)
	walkNodesPruned(st.Node.ProtoReflect(), func(n *pg_query.Node) bool {
		if cd := n.GetColumnDef(); cd != nil && cd.StorageName != "" && loc < 0 {
			loc = max(cd.Location, 0)
		}
		return loc < 0
	})
	if loc < 0 {
		return nil
	}
	res, err := pg_query.Scan(st.SQL)
	if err != nil {
		return pgerr.New(pgerr.SyntaxError, `syntax error at or near "STORAGE"`)
	}
	// The clause's STORAGE is the first one after the column's name
	// that is followed by a storage name (a type may be named storage).
	toks := res.Tokens
	for i, t := range toks {
		if t.Start <= loc || i+1 >= len(toks) || !strings.EqualFold(st.SQL[t.Start:t.End], "storage") {
			continue
		}
		next := strings.ToLower(st.SQL[toks[i+1].Start:toks[i+1].End])
		if _, ok := storageNames[next]; ok || next == "default" {
			return st.errf(t.Start, pgerr.SyntaxError, "syntax error at or near \"%s\"", st.SQL[t.Start:t.End])
		}
	}
	return pgerr.New(pgerr.SyntaxError, `syntax error at or near "STORAGE"`)
}
