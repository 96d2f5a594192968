package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// System columns. A table's scope gets its system columns (ctid, xmin,
// cmin, xmax, cmax, tableoid: plan.SystemColumns) after its own when the
// statement names one of them somewhere, so that a statement that does
// not pays nothing: its scans stay plain scans, which indexes serve. A
// user column cannot have one of these names, as in PostgreSQL, so a
// mention is a reference (or a string or an alias that spells it, which
// only adds columns nothing reads).
//
// tableoid is a constant, the table's oid, which a materialized view
// maintains as any constant. The others come from the stored row
// (plan.SystemRelation): a view cannot read them (viewRefused), as a
// view's rows have no place in the table they came from.

// mentionsSystemColumn reports whether sql holds a system column's name
// as a word, in any case.
func mentionsSystemColumn(sql string) bool {
	for _, c := range plan.SystemColumns {
		for i := 0; i+len(c.Name) <= len(sql); {
			j := indexFold(sql[i:], c.Name)
			if j < 0 {
				break
			}
			at, end := i+j, i+j+len(c.Name)
			if (at == 0 || !isIdentByte(sql[at-1])) && (end == len(sql) || !isIdentByte(sql[end])) {
				return true
			}
			i = end
		}
	}
	return false
}

// indexFold is strings.Index ignoring ASCII case; word is lower case.
func indexFold(s, word string) int {
	for i := 0; i+len(word) <= len(s); i++ {
		if s[i]|0x20 == word[0] && strings.EqualFold(s[i:i+len(word)], word) {
			return i
		}
	}
	return -1
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' || c >= 0x80
}

// withSystemColumns returns the scan of table rel followed by its system
// columns, when the statement names one and the catalog knows the
// table's oid; ok is false otherwise, and the scan is plain.
func (b *binder) withSystemColumns(rel *Relation) (p plan.Node, ok bool) {
	oid, ok := b.systemColumnsOf(rel)
	if !ok {
		return nil, false
	}
	var in plan.Node = &plan.Scan{Relation: plan.SystemRelation(rel.Name), Cols: append(append([]plan.Column{}, rel.Cols...), plan.SystemColumns[:plan.RowSystemColumns]...)}
	if b.forView {
		in = &plan.Scan{Relation: rel.Name, Cols: rel.Cols}
	}
	cols := append(append([]plan.Column{}, rel.Cols...), plan.SystemColumns...)
	exprs := make([]expr.Expr, len(cols))
	for i, c := range cols {
		switch {
		case i == len(cols)-1:
			exprs[i] = &expr.Const{V: value.NewOid(oid), T: value.OidType}
		case b.forView && i >= len(rel.Cols):
			exprs[i] = &expr.Const{V: value.Null, T: c.Type} // never read: viewRefused
		default:
			exprs[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
		}
	}
	return &plan.Project{Input: in, Exprs: exprs, Cols: cols}, true
}

// systemColumnsOf returns the oid of table rel when its scope gets its
// system columns: the statement names one, and the catalog knows the
// table's oid.
func (b *binder) systemColumnsOf(rel *Relation) (uint32, bool) {
	if rel.Kind != KindTable || !b.stmt.SystemColumns && b.currentOf == nil && !mentionsSystemColumn(b.stmt.SQL) {
		return 0, false
	}
	sc := b.sysCatalog()
	if sc == nil {
		return 0, false
	}
	key := rel.Name
	if !strings.Contains(key, ".") {
		key = "public." + key
	}
	oid, ok := sc.OIDs[value.RegClass][key]
	return oid, ok // not for a temporary table, which the catalogs do not list
}

// targetSystemColumns adds the system columns of an UPDATE's or a
// DELETE's table, origin, to the rows of its plan.Target, in, whose last
// column is the row id, computed from it, and to their scope sc under
// alias.
func targetSystemColumns(in plan.Node, sc *scope, alias, origin string, oid uint32) (plan.Node, *scope) {
	cols := in.Columns()
	id := &expr.Col{Idx: len(cols) - 1, T: value.Int8Type, Name: "?id?"}
	exprs := make([]expr.Expr, 0, len(cols)+len(plan.SystemColumns))
	for i, c := range cols {
		exprs = append(exprs, &expr.Col{Idx: i, T: c.Type, Name: c.Name})
	}
	for i, c := range plan.SystemColumns {
		if i == plan.RowSystemColumns {
			exprs = append(exprs, &expr.Const{V: value.NewOid(oid), T: value.OidType})
			break
		}
		def := &expr.FuncDef{Name: c.Name, Strict: true, Params: []value.Kind{value.Int8}, Result: c.Type,
			Eval: func(a []value.Value) (value.Value, error) { return plan.SystemValues(uint64(a[0].Int()))[i], nil }}
		exprs = append(exprs, &expr.Func{Def: def, Args: []expr.Expr{id}, T: c.Type})
	}
	for i := range plan.SystemColumns {
		sc.cols = append(sc.cols, systemScopeCol(alias, origin, i))
	}
	return &plan.Project{Input: in, Exprs: exprs, Cols: append(append([]plan.Column{}, cols...), plan.SystemColumns...)}, sc
}

// systemScopeCol is the scope column of table rel's i-th system column
// (plan.SystemColumns) under alias. Its origin is the table, at the
// column's attnum (ctid -1 … tableoid -6), which RowDescription names as
// PostgreSQL's does.
func systemScopeCol(alias, rel string, i int) scopeCol {
	c := plan.SystemColumns[i]
	return scopeCol{qual: alias, name: c.Name, typ: c.Type, system: true, origin: rel, originCol: -i - 2}
}

// markSystemColumns marks the system columns at the end of sc, of a scan
// withSystemColumns made over a table of n columns, table: their origin,
// empty for a view's.
func (b *binder) markSystemColumns(sc *scope, n int, table string) {
	sc.star = sc.starCols()[:n]
	for i := n; i < len(sc.cols); i++ {
		c := &sc.cols[i]
		c.system = true
		c.viewRefused = b.forView && i < len(sc.cols)-1
		if table != "" && i-n < len(plan.SystemColumns) {
			c.origin, c.originCol = table, systemScopeCol("", table, i-n).originCol
		}
	}
}
