package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// exclusion keeps, for one EXCLUDE constraint of a table, the ids of the
// rows it covers (no NULL element, WHERE true) grouped by the key of
// their `=` elements. When an element is `&&` over a range or multirange
// type, each group is an interval tree of the rows by that element's span
// (exclusion_interval.go), a row with an empty one left out as it
// overlaps nothing: a written row is tested against the rows of its group
// that overlap it, O(log group + matches). Otherwise the group is a list
// of ids tested one by one: O(group) a write (docs/sql.md).
type exclusion struct {
	x      *sql.Exclusion
	groups map[string][]uint64
	// ivl is the element the trees are built on, -1 for none; trees the
	// groups then.
	ivl   int
	trees map[string]*ivlTree
	// pair is the scratch row [new element, other element] the
	// operators are applied to; key the scratch of a group's key.
	pair value.Row
	key  []byte
	// vals and other are the scratch of conflict's elements; cand of
	// the candidates a tree gives.
	vals, other value.Row
	cand        []uint64
	// recheck are the rows of a DEFERRABLE constraint that conflicted
	// when written, in the order written, to be checked again at the end
	// of the statement or at the commit (exclusion_deferrable.go).
	recheck []recheck
}

func newExclusion(x *sql.Exclusion) *exclusion {
	ex := &exclusion{x: x, groups: map[string][]uint64{}, pair: make(value.Row, 2), ivl: -1}
	for i, el := range x.Elems {
		if k := el.Expr.Type().Kind; el.Op == "&&" && (k.IsRange() || k.IsMultirange()) {
			ex.ivl, ex.trees = i, map[string]*ivlTree{}
			break
		}
	}
	return ex
}

// reset empties the index, which put refills.
func (x *exclusion) reset() {
	clear(x.groups)
	clear(x.trees)
}

// elems evaluates the constraint's elements over row into vals, and
// reports whether the constraint covers the row.
func (x *exclusion) elems(row value.Row, vals value.Row) (value.Row, bool, error) {
	if x.x.Where != nil {
		v, err := x.x.Where.Eval(row)
		if err != nil || v.IsNull() || !v.Bool() {
			return vals, false, err
		}
	}
	vals = vals[:0]
	for _, el := range x.x.Elems {
		var v value.Value
		if el.Col >= 0 {
			v = row[el.Col]
		} else {
			var err error
			if v, err = el.Expr.Eval(row); err != nil {
				return vals, false, err
			}
		}
		if v.IsNull() {
			return vals, false, nil // NULLs never conflict, as in PostgreSQL
		}
		vals = append(vals, v)
	}
	return vals, true, nil
}

// groupKey returns the key of the `=` elements of vals.
func (x *exclusion) groupKey(vals value.Row) []byte {
	k := x.key[:0]
	for i, el := range x.x.Elems {
		if el.Eq {
			k = value.AppendKey(k, vals[i])
		}
	}
	x.key = k
	return k
}

// add indexes the row under id. Its elements were evaluated without
// error when the row was checked.
func (x *exclusion) add(id uint64, row value.Row) {
	var arr [4]value.Value
	vals, ok, err := x.elems(row, arr[:0])
	if !ok || err != nil {
		return
	}
	k := x.groupKey(vals)
	if x.ivl >= 0 {
		lo, hi, ok := span(vals[x.ivl])
		if !ok {
			return // empty: it overlaps nothing, so conflicts with nothing
		}
		tr := x.trees[string(k)]
		if tr == nil {
			tr = newIvlTree()
			x.trees[string(k)] = tr
		}
		tr.insert(lo, hi, id)
		return
	}
	x.groups[string(k)] = append(x.groups[string(k)], id)
}

// drop removes the row under id.
func (x *exclusion) drop(id uint64, row value.Row) {
	var arr [4]value.Value
	vals, ok, err := x.elems(row, arr[:0])
	if !ok || err != nil {
		return
	}
	k := x.groupKey(vals)
	if x.ivl >= 0 {
		lo, _, ok := span(vals[x.ivl])
		if tr := x.trees[string(k)]; ok && tr != nil {
			if tr.remove(lo, id); tr.n == 0 {
				delete(x.trees, string(k))
			}
		}
		return
	}
	ids := x.groups[string(k)]
	for i, o := range ids {
		if o == id {
			ids[i] = ids[len(ids)-1]
			ids = ids[:len(ids)-1]
			break
		}
	}
	if len(ids) == 0 {
		delete(x.groups, string(k))
	} else {
		x.groups[string(k)] = ids
	}
}

// candidates returns the ids of the rows of vals' group that may
// conflict with it: those whose span overlaps vals' when the group is a
// tree.
func (x *exclusion) candidates(vals value.Row) []uint64 {
	k := x.groupKey(vals)
	if x.ivl < 0 {
		return x.groups[string(k)]
	}
	tr := x.trees[string(k)]
	lo, hi, ok := span(vals[x.ivl])
	if tr == nil || !ok {
		return nil
	}
	x.cand = tr.appendOverlapping(x.cand[:0], lo, hi)
	return x.cand
}

// conflict returns a row of t, other than the one under self (when
// hasSelf), that row would conflict with; vals are row's elements.
func (x *exclusion) conflict(t *table, row value.Row, self uint64, hasSelf bool) (value.Row, value.Row, bool, error) {
	vals, ok, err := x.elems(row, x.vals[:0])
	x.vals = vals
	if !ok || err != nil {
		return nil, nil, false, err
	}
	other := x.other[:0]
	defer func() { x.other = other }()
	for _, id := range x.candidates(vals) {
		if hasSelf && id == self {
			continue
		}
		o, _ := t.rows.Get(id)
		if other, ok, err = x.elems(o, other[:0]); err != nil {
			return nil, nil, false, err
		} else if !ok {
			continue
		}
		all := true
		for i, el := range x.x.Elems {
			if el.Eq || i == x.ivl && vals[i].Kind().IsRange() {
				continue // equal already, or overlapping: the tree's spans are the ranges
			}
			x.pair[0], x.pair[1] = vals[i], other[i]
			v, err := el.Test.Eval(x.pair)
			if err != nil {
				return nil, nil, false, err
			}
			if v.IsNull() || !v.Bool() {
				all = false
				break
			}
		}
		if all {
			return vals, other, true, nil
		}
	}
	return nil, nil, false, nil
}

// checkExclusions returns PostgreSQL's 23P01 when row, written under id
// (hasSelf for an update, whose old row id holds), conflicts with
// another row of t; a DEFERRABLE constraint notes the row for its check
// instead, with at, the position in the transaction's log of the change
// that writes it (exclusion_deferrable.go).
func (t *table) checkExclusions(row value.Row, id uint64, hasSelf bool, at int) error {
	for _, x := range t.excl {
		vals, other, found, err := x.conflict(t, row, id, hasSelf)
		if err != nil {
			return err
		}
		if found && x.x.Deferrable {
			x.recheck = append(x.recheck, recheck{id: id, at: at})
		} else if found {
			return x.violation(t, vals, other)
		}
	}
	return nil
}

// violation is PostgreSQL's 23P01 of a row of elements vals that
// conflicts with one of elements other.
func (x *exclusion) violation(t *table, vals, other value.Row) error {
	return t.constraintError(&pgerr.Error{Code: pgerr.ExclusionViolation,
		Message: fmt.Sprintf("conflicting key value violates exclusion constraint %q", t.bare(x.x.Name)),
		Detail:  fmt.Sprintf("Key %s conflicts with existing key %s.", x.keyText(vals), x.keyText(other))}, x.x.Name)
}

// excluded reports whether row conflicts with a row of t on an EXCLUDE
// constraint, named or any when name is "": ON CONFLICT DO NOTHING's
// arbiter.
func (t *table) excluded(row value.Row, name string) (bool, error) {
	for _, x := range t.excl {
		if name != "" && x.x.Name != name {
			continue
		}
		_, _, found, err := x.conflict(t, row, 0, false)
		if found || err != nil {
			return found, err
		}
	}
	return false, nil
}

// exclusionNamed returns t's EXCLUDE constraint of a name, or nil.
func (t *table) exclusionNamed(name string) *exclusion {
	for _, x := range t.excl {
		if x.x.Name == name {
			return x
		}
	}
	return nil
}

// keyText writes elements' values as the DETAIL of PostgreSQL's 23P01:
// (a, b)=(1, [2,3)).
func (x *exclusion) keyText(vals value.Row) string {
	names := make([]string, len(x.x.Elems))
	texts := make([]string, len(vals))
	for i, el := range x.x.Elems {
		names[i] = el.SQL
		texts[i] = string(value.AppendText(nil, vals[i]))
	}
	return "(" + strings.Join(names, ", ") + ")=(" + strings.Join(texts, ", ") + ")"
}

// alterExclusions checks a row of a table being altered against the
// EXCLUDE constraints of its new definition, with ALTER TABLE's message.
func alterExclusions(t *table, row value.Row) error {
	for _, x := range t.excl {
		vals, other, found, err := x.conflict(t, row, 0, false)
		if err != nil {
			return err
		}
		if found {
			return &pgerr.Error{Code: pgerr.ExclusionViolation,
				Message: fmt.Sprintf("could not create exclusion constraint %q", x.x.Name),
				Detail:  fmt.Sprintf("Key %s conflicts with key %s.", x.keyText(vals), x.keyText(other))}
		}
	}
	return nil
}

// ExtensionInstalled implements sql.ExtensionInstalledCatalog.
func (e *Engine) ExtensionInstalled(name string) bool { return e.extensionInstalled(name) }

// ExtensionInstalled implements sql.ExtensionInstalledCatalog.
func (r *recorder) ExtensionInstalled(name string) bool {
	ic, ok := r.cat.(sql.ExtensionInstalledCatalog)
	return ok && ic.ExtensionInstalled(name)
}

// exclusionAMOID are pg_am's oids of the methods an EXCLUDE constraint
// may name.
var exclusionAMOID = map[string]uint32{"btree": btreeAMOID, "hash": 405, "gist": 783, "spgist": 4000}

// exclusionOf adds an EXCLUDE constraint of table r to the catalog: its
// index (pg_class, pg_index with indisexclusion) and its constraint
// (pg_constraint, contype x, conexclop).
func (o *catalogObjects) exclusionOf(r *catRel, x *sql.Exclusion, add func(*catRel)) {
	sc, n := o.e.splitKey(r.name)
	sc = o.schemaText(sc)
	ci := &catIndex{excl: x}
	key := tempIndexKey(r.name, x.Name)
	ir := &catRel{oid: RelationOID(key), name: key, nsp: publicOID, kind: 'i', t: r.t, on: r, index: ci}
	var keys, pretty []string
	var exprs []expr.Expr
	var exprSQL []string
	ops := make([]uint32, len(x.Elems))
	for i, el := range x.Elems {
		ops[i] = exclusionOperatorOID(o.e, el.Op, el.Expr.Type())
		class := ""
		if el.Opclass != "" {
			class = " " + el.Opclass
		}
		if el.Col >= 0 {
			ci.cols = append(ci.cols, r.num(el.Col))
			ir.cols = append(ir.cols, r.indexCol(el.Col))
			keys, pretty = append(keys, el.SQL+class), append(pretty, el.SQL+class)
			exprs = append(exprs, nil)
			exprSQL = append(exprSQL, el.SQL)
			continue
		}
		typ := el.Expr.Type()
		ci.cols = append(ci.cols, 0)
		ir.cols = append(ir.cols, catCol{name: "expr", typ: typ, typOID: o.e.typeOID(typ, nil)})
		k := el.SQL
		if strings.HasPrefix(k, "(") {
			k = "(" + k + ")"
		}
		keys, pretty = append(keys, k+class), append(pretty, el.SQL+class)
		exprs = append(exprs, el.Expr)
		exprSQL = append(exprSQL, el.SQL)
	}
	if slices.ContainsFunc(exprs, func(e expr.Expr) bool { return e != nil }) || x.Where != nil || x.Include != nil {
		// pg_index's indexprs, indpred and the INCLUDE columns of indkey.
		ci.x = &keyExt{exprs: exprs, keySQL: exprSQL, where: x.Where, whereSQL: x.WhereSQL, include: x.Include}
	}
	for _, c := range x.Include {
		ir.cols = append(ir.cols, r.indexCol(c))
	}
	head := "CREATE INDEX " + expr.QuoteIdent(o.e.bareName(x.Name)) + " ON " + expr.QuoteIdent(sc) + "." + expr.QuoteIdent(n) + " USING " + x.Method + " ("
	where := ""
	if x.Include != nil {
		where = " INCLUDE (" + strings.Join(x.IncludeSQL, ", ") + ")"
	}
	include := where
	if x.Where != nil {
		where += " WHERE (" + x.WhereSQL + ")"
	}
	ci.def = head + strings.Join(keys, ", ") + ")" + where
	if x.Where != nil {
		where = include + " WHERE " + x.WhereSQL // pretty: without the parentheses
	}
	if p := head + strings.Join(pretty, ", ") + ")" + where; p != ci.def {
		ci.pretty = p
	}
	add(ir)
	c := &catCon{oid: objectOID("constraint", r.name+"."+x.Name), name: x.Name, kind: 'x', rel: r, cols: ci.cols,
		index: ir.oid, def: x.PlainSQL(), exclop: ops, deferrable: x.Deferrable, deferred: x.InitDeferred}
	ci.deferrable = x.Deferrable // pg_index.indimmediate false
	if p := x.SQL(); p != c.def {
		c.pretty = p
	}
	o.cons = append(o.cons, c)
}

// exclusionOperatorOID is the oid of the built-in operator name over
// two values of t (over anyrange or anymultirange for a range), 0 when
// the catalog lists none.
func exclusionOperatorOID(e *Engine, name string, t value.Type) uint32 {
	want := e.typeOID(t, nil)
	switch {
	case t.Kind.IsRange():
		want = 3831 // anyrange
	case t.Kind.IsMultirange():
		want = 4537 // anymultirange
	}
	for _, op := range expr.BuiltinCatalog().Operators {
		if op.Name == name && op.Left == want && op.Right == want {
			return op.OID
		}
	}
	return 0
}

// exclusionsOnExtension are the EXCLUDE constraints that use an operator
// class of the extension named (btree_gist's), by table and constraint,
// the class in fn.
func (e *Engine) exclusionsOnExtension(ext string) []extDefault {
	if ext != "btree_gist" {
		return nil
	}
	var out []extDefault
	for _, t := range e.tables {
		for _, x := range t.excl {
			for _, c := range x.x.GistClasses() {
				out = append(out, extDefault{t.def.Name, x.x.Name, c})
			}
		}
	}
	slices.SortFunc(out, func(a, b extDefault) int {
		return strings.Compare(a.table+"\x00"+a.col, b.table+"\x00"+b.col)
	})
	return out
}
