package engine

import (
	"cmp"
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// The columns a view reads keep no state of their own: they are found
// again, whenever information_schema.view_column_usage or pg_depend is
// read, by binding the view's statement as kept with a sql.RefLog, which
// records the table or view column each reference and each * resolves
// to. They follow every change of the view and of what it reads (ALTER
// … RENAME, DROP COLUMN, CREATE OR REPLACE) and a reopened database
// without being kept, as PostgreSQL's pg_depend rows follow its column
// numbers.

// colUse is a column a view's query names: the relation's key and the
// column's position in it, -1 when the query names the relation but
// none of its columns (count(*), a whole-row reference).
type colUse struct {
	rel string
	col int
}

// viewColumnUses are the columns the view or materialized view name
// reads in its own query (not through the views it reads), as PostgreSQL
// records them: every column named anywhere in the query, the columns *
// stands for, and each relation of the query with none of its columns
// named as a whole. Sorted by relation, then column; nil when the view
// cannot be bound again. The caller holds e.mu.
func (e *Engine) viewColumnUses(name string) []colUse {
	var st *sql.Stmt
	materialized := false
	if nv := e.named[name]; nv != nil {
		st = nv.query
	} else {
		var ok bool
		if st, _, ok = e.matViewStmt(name); !ok {
			return nil
		}
		materialized = true
	}
	if st == nil {
		return nil
	}
	log := &sql.RefLog{}
	logged := *st
	logged.Refs = log
	rec := &recorder{cat: e, seen: map[string]bool{}}
	if _, err := bindMovedWith(rec, &movedReader{stmt: &logged, text: st.SQL}, materialized); err != nil {
		return nil
	}
	seen := map[colUse]bool{}
	var out []colUse
	for _, o := range append(log.Seq, log.Using...) {
		if o.Table == "" || o.Col < 0 {
			continue
		}
		u := colUse{o.Table, o.Col}
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	// The relations the query names itself whose columns it names
	// nowhere (SELECT count(*) FROM t) are read as a whole.
	for _, d := range rec.direct {
		if d == name || slices.ContainsFunc(out, func(u colUse) bool { return u.rel == d }) {
			continue
		}
		if _, ok := e.Relation(d); ok {
			out = append(out, colUse{d, -1})
		}
	}
	slices.SortFunc(out, func(a, b colUse) int {
		return cmp.Or(cmp.Compare(a.rel, b.rel), cmp.Compare(a.col, b.col))
	})
	return out
}
