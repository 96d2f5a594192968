package partial_test

import (
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// The test schema: customers → addresses → regions.
//
//	R(rid PRIMARY KEY, rname text, zone int4)
//	A(aid PRIMARY KEY, city text, country text, rid int4 REFERENCES R)
//	C(cid PRIMARY KEY, name text, disc int4, aid int4 REFERENCES A)
type table struct {
	S      *delta.Schema
	Types  []value.Type
	fk     int    // column referencing parent, or -1
	parent string // referenced table
	keys   int64  // keys are drawn from [0, keys)
}

func mustSchema(name string, cols ...string) *delta.Schema {
	s, err := delta.NewSchema(name, cols, []int{0})
	if err != nil {
		panic(err)
	}
	return s
}

var (
	i4, txt = value.Int4Type, value.TextType
	tR      = &table{S: mustSchema("R", "rid", "rname", "zone"), Types: []value.Type{i4, txt, i4}, fk: -1, keys: 4}
	tA      = &table{S: mustSchema("A", "aid", "city", "country", "rid"), Types: []value.Type{i4, txt, txt, i4}, fk: 3, parent: "R", keys: 7}
	tC      = &table{S: mustSchema("C", "cid", "name", "disc", "aid"), Types: []value.Type{i4, txt, i4, i4}, fk: 3, parent: "A", keys: 15}
	tables  = map[string]*table{"R": tR, "A": tA, "C": tC}
	order   = []string{"R", "A", "C"}
)

// world is the true state of the three tables.
type world map[string]map[int64]value.Row

func (w world) clone() world {
	c := world{}
	for n, rows := range w {
		c[n] = map[int64]value.Row{}
		for k, r := range rows {
			c[n][k] = r
		}
	}
	return c
}

func (w world) sortedKeys(name string) []int64 {
	var ks []int64
	for k := range w[name] {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// referenced reports whether a row of a child table references key k of
// table name.
func (w world) referenced(name string, k int64) bool {
	for _, t := range tables {
		if t.parent != name {
			continue
		}
		for _, r := range w[t.S.Name] {
			if r[t.fk].Int() == k {
				return true
			}
		}
	}
	return false
}

func i4v(n int64) value.Value { return value.NewInt(value.Int4, n) }

func drawValue(t *rapid.T, typ value.Type, label string) value.Value {
	n := rapid.IntRange(-1, 2).Draw(t, label)
	switch {
	case n < 0:
		return value.Null
	case typ.Kind == value.Text:
		return value.NewText(value.Text, string(rune('a'+n)))
	}
	return i4v(int64(n))
}

// drawRow draws a row of t with key k; ok is false when t's parent is
// empty (no row can reference it).
func (w world) drawRow(t *rapid.T, tb *table, k int64, label string) (value.Row, bool) {
	r := value.Row{i4v(k)}
	for i := 1; i < len(tb.Types); i++ {
		if i == tb.fk {
			ks := w.sortedKeys(tb.parent)
			if len(ks) == 0 {
				return nil, false
			}
			r = append(r, i4v(rapid.SampledFrom(ks).Draw(t, label+"fk")))
			continue
		}
		r = append(r, drawValue(t, tb.Types[i], fmt.Sprintf("%s%d", label, i)))
	}
	return r, true
}

// drawWorld draws a state that satisfies the foreign keys.
func drawWorld(t *rapid.T) world {
	w := world{"R": {}, "A": {}, "C": {}}
	for _, n := range order {
		tb := tables[n]
		for k := int64(0); k < tb.keys; k++ {
			if !rapid.Bool().Draw(t, fmt.Sprintf("has%s%d", n, k)) {
				continue
			}
			if r, ok := w.drawRow(t, tb, k, fmt.Sprintf("%s%d.", n, k)); ok {
				w[n][k] = r
			}
		}
	}
	return w
}

// op is one true change: old and new row of a key (nil when absent).
type op struct {
	table    string
	key      int64
	old, new value.Row
}

// drawOp draws a change that keeps the foreign keys satisfied and applies
// it to w; ok is false when the drawn change is impossible.
func (w world) drawOp(t *rapid.T, label string) (op, bool) {
	name := rapid.SampledFrom(order).Draw(t, label+"table")
	tb := tables[name]
	k := rapid.Int64Range(0, tb.keys-1).Draw(t, label+"key")
	o := op{table: name, key: k, old: w[name][k]}
	if o.old != nil && rapid.IntRange(0, 2).Draw(t, label+"del") == 0 {
		if w.referenced(name, k) {
			return o, false
		}
		delete(w[name], k)
		return o, true
	}
	r, ok := w.drawRow(t, tb, k, label+"new")
	if !ok {
		return o, false
	}
	o.new = r
	w[name][k] = r
	return o, true
}

func (o op) inverse() op { return op{table: o.table, key: o.key, old: o.new, new: o.old} }

func keyRow(k int64) value.Row { return value.Row{i4v(k)} }

// forget states o as a change of its kinds that may know less, as
// truthful change capture may: an insertion as an upsert; an update as a
// partial update (old row dropped and, when allowUnknown, columns that
// kept their value left unknown) or an upsert; a deletion by key, known
// to exist or not. It reports whether anything was forgotten.
func forget(t *rapid.T, o op, allowUnknown bool, label string) (delta.Change, bool) {
	level := rapid.IntRange(0, 3).Draw(t, label+"forget")
	switch {
	case o.old == nil:
		if level >= 2 {
			return delta.Upsert{Row: o.new}, true
		}
		return delta.Insert{Row: o.new}, false
	case o.new == nil:
		switch level {
		case 2:
			return delta.TruePartialDelete{KeyVals: keyRow(o.key)}, true
		case 3:
			return delta.SafePartialDelete{KeyVals: keyRow(o.key)}, true
		}
		return delta.Delete{Row: o.old}, false
	}
	switch level {
	case 2:
		p, u := append(value.Row(nil), o.new...), delta.Cols(nil)
		if allowUnknown {
			for c := 1; c < len(p); c++ {
				if value.Equal(o.old[c], o.new[c]) && rapid.Bool().Draw(t, fmt.Sprintf("%sunknown%d", label, c)) {
					p[c], u = value.Null, u.With(c)
				}
			}
		}
		return delta.PartialUpdate{Row: p, Unknown: u}, true
	case 3:
		return delta.Upsert{Row: o.new}, true
	}
	return delta.Update{Old: o.old, New: o.new}, false
}

// viewDef is a random dimension view over C [⋈ A [⋈ R]]:
// π_proj σ_top (σ_root(C) ⋈ A ⋈ R). The joins carry every column of the
// right side, so the joined row is C's columns, then A's, then R's.
type viewDef struct {
	depth     int
	root, top expr.Expr // nil when absent
	names     []string
	exprs     []expr.Expr
}

func (v viewDef) String() string {
	s := fmt.Sprintf("depth %d", v.depth)
	if v.root != nil {
		s += "; root filter " + v.root.String()
	}
	if v.top != nil {
		s += "; top filter " + v.top.String()
	}
	s += "; project"
	for _, e := range v.exprs {
		s += " " + e.String()
	}
	return s
}

// joinedColumns lists the joined row's column names and types for depth.
func joinedColumns(depth int) ([]string, []value.Type) {
	var names []string
	var types []value.Type
	for _, tb := range []*table{tC, tA, tR}[:depth] {
		for i, c := range tb.S.Columns {
			names = append(names, tb.S.Name+"."+c)
			types = append(types, tb.Types[i])
		}
	}
	return names, types
}

func col(i int, names []string, types []value.Type) *expr.Col {
	return &expr.Col{Idx: i, T: types[i], Name: names[i]}
}

// drawPred draws a predicate over the columns [lo, hi).
func drawPred(t *rapid.T, lo, hi int, names []string, types []value.Type, label string) expr.Expr {
	atom := func(l string) expr.Expr {
		c := col(rapid.IntRange(lo, hi-1).Draw(t, l+"col"), names, types)
		switch rapid.IntRange(0, 3).Draw(t, l+"form") {
		case 0:
			return &expr.IsNull{E: c, Not: rapid.Bool().Draw(t, l+"not")}
		default:
			v := drawValue(t, c.T, l+"const")
			if v.IsNull() {
				v = value.NewText(value.Text, "a")
				if c.T.Kind != value.Text {
					v = i4v(1)
				}
			}
			op := rapid.SampledFrom([]expr.CmpOp{expr.EQ, expr.NE, expr.LT, expr.GE}).Draw(t, l+"op")
			return &expr.Cmp{Op: op, L: c, R: &expr.Const{V: v, T: c.T}}
		}
	}
	if rapid.IntRange(0, 3).Draw(t, label+"or") == 0 {
		return &expr.Or{Args: []expr.Expr{atom(label + "a."), atom(label + "b.")}}
	}
	return atom(label)
}

func drawView(t *rapid.T) viewDef {
	v := viewDef{depth: rapid.IntRange(1, 3).Draw(t, "depth")}
	names, types := joinedColumns(v.depth)
	if rapid.Bool().Draw(t, "hasRoot") {
		v.root = drawPred(t, 0, len(tC.Types), names, types, "root.")
	}
	if v.depth > 1 && rapid.Bool().Draw(t, "hasTop") {
		v.top = drawPred(t, len(tC.Types), len(names), names, types, "top.")
	}
	idx := make([]int, len(names))
	for i := range idx {
		idx[i] = i
	}
	perm := rapid.Permutation(idx).Draw(t, "perm")
	keep := rapid.IntRange(0, len(names)-1).Draw(t, "keep")
	cols := []int{0}
	for _, p := range perm[:keep] {
		if p != 0 {
			cols = append(cols, p)
		}
	}
	pos := rapid.IntRange(0, len(cols)-1).Draw(t, "keypos")
	cols[0], cols[pos] = cols[pos], cols[0]
	for _, c := range cols {
		v.names = append(v.names, names[c])
		v.exprs = append(v.exprs, col(c, names, types))
	}
	if rapid.IntRange(0, 3).Draw(t, "computed") == 0 {
		v.names = append(v.names, "disc1")
		v.exprs = append(v.exprs, &expr.Arith{Op: expr.OpAdd, L: col(2, names, types), R: &expr.Const{V: i4v(1), T: i4}, T: i4})
	}
	if rapid.IntRange(0, 2).Draw(t, "across") == 0 {
		// A column computed from a column of C and another column (of C,
		// or of a dimension): a change may leave one unknown and set the
		// other.
		a := rapid.IntRange(1, len(tC.Types)-1).Draw(t, "acrossA")
		b := rapid.IntRange(1, len(names)-1).Filter(func(b int) bool { return b != a }).Draw(t, "acrossB")
		v.names = append(v.names, "across")
		v.exprs = append(v.exprs, &expr.Concat{L: col(a, names, types), R: col(b, names, types)})
	}
	return v
}
