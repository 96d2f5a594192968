package sink

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// gen generates a target's statements. Placeholders and casts are the
// dialect's: ph(n, col) is the n-th parameter (1-based), for column col.
type gen struct {
	name  string // the target table, for messages
	table string // quoted
	cols  []string
	key   []int
	ph    func(n, col int) string
	cache map[string]string
}

func newGen(v engine.SinkView, table string, ph func(n, col int) string) *gen {
	g := &gen{name: table, table: quote(table), key: v.Key, ph: ph, cache: map[string]string{}}
	for _, c := range v.Columns {
		g.cols = append(g.cols, quote(c.Name))
	}
	return g
}

func quote(id string) string { return `"` + strings.ReplaceAll(id, `"`, `""`) + `"` }

func (g *gen) isKey(i int) bool {
	for _, k := range g.key {
		if k == i {
			return true
		}
	}
	return false
}

// where is "k1 = $n AND …" for the key columns, parameters from n on.
func (g *gen) where(n int) string {
	parts := make([]string, len(g.key))
	for i, k := range g.key {
		parts[i] = g.cols[k] + " = " + g.ph(n+i, k)
	}
	return strings.Join(parts, " AND ")
}

func (g *gen) insert(upsert bool) string {
	ph := make([]string, len(g.cols))
	for i := range g.cols {
		ph[i] = g.ph(i+1, i)
	}
	s := "INSERT INTO " + g.table + " (" + strings.Join(g.cols, ", ") + ") VALUES (" + strings.Join(ph, ", ") + ")"
	if upsert {
		keys := make([]string, len(g.key))
		for i, k := range g.key {
			keys[i] = g.cols[k]
		}
		var set []string
		for i, c := range g.cols {
			if !g.isKey(i) {
				set = append(set, c+" = excluded."+c)
			}
		}
		s += " ON CONFLICT (" + strings.Join(keys, ", ") + ")"
		if len(set) == 0 {
			s += " DO NOTHING"
		} else {
			s += " DO UPDATE SET " + strings.Join(set, ", ")
		}
	}
	return s
}

// update sets the columns in set (a key column when set is empty, so that
// the statement still finds its row).
func (g *gen) update(set []int) string {
	if len(set) == 0 {
		set = []int{g.key[0]}
	}
	parts := make([]string, len(set))
	for i, c := range set {
		parts[i] = g.cols[c] + " = " + g.ph(i+1, c)
	}
	return "UPDATE " + g.table + " SET " + strings.Join(parts, ", ") + " WHERE " + g.where(len(set)+1)
}

func (g *gen) delete() string { return "DELETE FROM " + g.table + " WHERE " + g.where(1) }

// statement is one change as a statement and its arguments; must says the
// statement has to change exactly one row.
type statement struct {
	sql  string
	args []value.Value
	must bool
	c    delta.Change
	key  value.Row
}

// statement derives a change's statement from its MERGE rule
// (delta.MergeRules): a deletion is a DELETE by key; a row written where
// the key must be absent an INSERT, where it may be either an INSERT … ON
// CONFLICT DO UPDATE, where it must be present an UPDATE of the row's
// known non-key columns. A statement whose rule needs the key present
// must change exactly one row.
func (g *gen) statement(s *delta.Schema, c delta.Change) statement {
	st := statement{c: c, key: c.Key(s)}
	cached := func(shape string, build func() string) string {
		q, ok := g.cache[shape]
		if !ok {
			q = build()
			g.cache[shape] = q
		}
		return q
	}
	r := delta.MergeRules[c.Kind()]
	st.must = r.Requires == delta.KeyPresent
	row, unknown := delta.NewRow(c)
	switch {
	case r.Writes == delta.WriteDelete:
		st.sql, st.args = cached("d", g.delete), st.key
	case r.Requires == delta.KeyAbsent:
		st.sql, st.args = cached("i", func() string { return g.insert(false) }), row
	case r.Requires == delta.KeyAny:
		st.sql, st.args = cached("u", func() string { return g.insert(true) }), row
	default:
		set := g.nonKey(unknown)
		st.sql = cached("U"+unknown.String(), func() string { return g.update(set) })
		if len(set) == 0 {
			set = []int{g.key[0]} // the statement still finds its row
		}
		st.args = g.args(row, set, st.key)
	}
	return st
}

func (g *gen) nonKey(unknown delta.Cols) []int {
	var out []int
	for i := range g.cols {
		if !g.isKey(i) && !unknown.Has(i) {
			out = append(out, i)
		}
	}
	return out
}

func (g *gen) args(row value.Row, set []int, key value.Row) []value.Value {
	out := make([]value.Value, 0, len(set)+len(key))
	for _, c := range set {
		out = append(out, row[c])
	}
	return append(out, key...)
}

func (g *gen) noRow(st statement) error {
	return pgerr.New(delta.CodeNoRow, "%s of key %s in %s: no such row", st.c.Kind(), st.key, g.name)
}

func (g *gen) failed(st statement, err error) error {
	pe := pgerr.Wrap(err)
	return &pgerr.Error{Code: pe.Code, Message: st.c.Kind().String() + " of key " + st.key.String() + " in " + g.name + ": " + pe.Message, Detail: pe.Detail}
}

// text is a value's PostgreSQL text form; nil for NULL.
func text(v value.Value) any {
	if v.IsNull() {
		return nil
	}
	return string(value.AppendText(nil, v))
}

func itoa(n int) string { return strconv.Itoa(n) }
