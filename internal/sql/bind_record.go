package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Row values. A row constructor outside a comparison, ROW(1, 'a') or
// (a, b), and a table's name used as a value (SELECT t FROM t, count(t),
// f(t.*)) are records (value.Record): compared, grouped and sorted with
// PostgreSQL's record order (field by field, NULL after every value and
// equal to NULL), printed as (1,a). Comparisons between two row
// constructors keep their element-wise expansion (bind_row.go).

// bindRowValue binds ROW(a, b) as a record; an argument of unknown type
// (a string literal) becomes text, as PostgreSQL resolves it. An argument
// t.* stands for t's columns, one field each (ROW(t.*, 1)).
func (b *binder) bindRowValue(s *scope, r *pg_query.RowExpr) (expr.Expr, error) {
	args := make([]expr.Expr, 0, len(r.Args))
	untyped := make([]bool, 0, len(r.Args))
	anyUntyped := false
	for _, a := range r.Args {
		if row, ok := b.starArg(s, a); ok {
			args = append(args, row.Args...)
			untyped = append(untyped, make([]bool, len(row.Args))...)
			continue
		}
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, err
		}
		unknown := e.Type().Kind == value.Unknown
		if unknown {
			if e, err = b.coerce(e, value.TextType, nodeLoc(a, r.Location)); err != nil {
				return nil, err
			}
		}
		args = append(args, e)
		untyped = append(untyped, unknown)
		anyUntyped = anyUntyped || unknown
	}
	if !anyUntyped {
		untyped = nil
	}
	if len(r.Colnames) == len(args) && len(args) > 0 {
		// The record of a set-returning function's columns that the
		// rewrite of a select list made (rowsFromSRF): its fields have
		// the function's names, and it is NULL where they all are.
		names := make([]string, len(args))
		for i, n := range r.Colnames {
			names[i] = n.GetString_().GetSval()
		}
		// A user function's record (COERCE_SQL_SYNTAX marks it) is
		// never padded, and may be a row of NULLs; COERCE_EXPLICIT_CAST
		// marks the record of a function returning record, whose fields
		// cannot be selected (bind_any_record.go).
		if r.RowFormat == pg_query.CoercionForm_COERCE_EXPLICIT_CAST {
			rc := expr.NewRecordCons(args, names, "", "", false)
			rc.T = value.UnregisteredRecordTypeOf(rc.T.RecordDesc().Fields)
			return rc, nil
		}
		return expr.NewRecordCons(args, names, "", "", r.RowFormat != pg_query.CoercionForm_COERCE_SQL_SYNTAX), nil
	}
	row := expr.NewRowCons(args)
	row.Untyped = untyped
	if b.rowNodes == nil {
		b.rowNodes = map[*expr.RowCons]*pg_query.Node{}
	}
	b.rowNodes[row] = &pg_query.Node{Node: &pg_query.Node_RowExpr{RowExpr: r}}
	return row, nil
}

// starArg reports whether n is t.* naming a relation in reach, and its
// row.
func (b *binder) starArg(s *scope, n *pg_query.Node) (*expr.RowCons, bool) {
	cr := n.GetColumnRef()
	if cr == nil || len(cr.Fields) != 2 || cr.Fields[1].GetAStar() == nil || cr.Fields[0].GetString_() == nil {
		return nil, false
	}
	return b.WholeRow(s, cr.Fields[0].GetString_().Sval)
}

// WholeRow returns the row of the relation named qual (its name or alias)
// in scope s, or of an enclosing query's, as a record whose fields are its
// columns, named as they are: what SELECT t FROM t, count(t) and
// row_to_json(t) read. A table's or view's row has its row type, named
// after it; a subquery's, a CTE's or a function's is an anonymous record
// with the same fields. ok is false when no relation of that name is in
// reach.
func (b *binder) WholeRow(s *scope, qual string) (row *expr.RowCons, ok bool) {
	levels := append([]*scope{s}, b.outers...)
	for depth, lv := range levels {
		var args []expr.Expr
		var names []string
		nullExt := false
		var rowType value.Type
		for i, c := range lv.cols {
			if c.qual != qual || c.outer || c.system {
				continue
			}
			nullExt = nullExt || c.nullExt
			rowType = c.rowType
			if depth == 0 {
				args = append(args, &expr.Col{Idx: i, T: c.typ, Name: c.name})
			} else {
				args = append(args, &expr.Outer{Depth: depth, Idx: i, T: c.typ, Name: qual + "." + c.name})
			}
			names = append(names, c.name)
		}
		if args != nil {
			if l := b.stmt.Refs; l != nil {
				for _, c := range lv.cols {
					if c.qual == qual && c.origin != "" && !slices.Contains(l.Whole, c.origin) {
						l.Whole = append(l.Whole, c.origin)
					}
				}
			}
			r := expr.NewRecordCons(args, names, qual, "", nullExt)
			if rowType.Kind == value.Record {
				// The table's row type, its own column names even
				// where an alias renames them (FROM t AS x(p, q)).
				r.T = rowType
			}
			return r, true
		}
	}
	return nil, false
}

// scalarRowRef returns the column a reference to the relation qual reads
// when qual is a function returning a scalar through a named OUT
// parameter (scopeCol.scalarRow), in s or an enclosing query's scope.
func (b *binder) scalarRowRef(s *scope, qual string) (expr.Expr, bool) {
	levels := append([]*scope{s}, b.outers...)
	for depth, lv := range levels {
		for i, c := range lv.cols {
			if c.qual != qual || c.outer || c.system {
				continue
			}
			if !c.scalarRow {
				return nil, false
			}
			if depth == 0 {
				return &expr.Col{Idx: i, T: c.typ, Name: c.name}, true
			}
			return &expr.Outer{Depth: depth, Idx: i, T: c.typ, Name: qual + "." + c.name}, true
		}
	}
	return nil, false
}

// sequenceRow reports whether qual, whose whole row WholeRow found, names
// a sequence, which has no row type.
func (b *binder) sequenceRow(s *scope, qual string) bool {
	for _, lv := range append([]*scope{s}, b.outers...) {
		for _, c := range lv.cols {
			if c.qual == qual && !c.outer {
				return c.sequence
			}
		}
	}
	return false
}

// nullExtended returns the scopes of an outer join's inputs with the
// columns of its null-extended sides marked: PostgreSQL's whole-row
// reference to a relation there is NULL in a row the join made up, not a
// row of NULLs. A row of the relation whose fields are all NULL reads as
// NULL too; a relation with a primary key has none.
func nullExtended(kind plan.JoinKind, l, r *scope) (*scope, *scope) {
	mark := func(s *scope) *scope {
		c := *s
		c.cols = append([]scopeCol(nil), s.cols...)
		for i := range c.cols {
			c.cols[i].nullExt = true
		}
		return &c
	}
	if kind == plan.RightJoin || kind == plan.FullJoin {
		l = mark(l)
	}
	if kind == plan.LeftJoin || kind == plan.FullJoin {
		r = mark(r)
	}
	return l, r
}

// checkRecordColumns refuses a view column that is an anonymous record,
// ROW(…) or a subquery's row, as PostgreSQL does (42P16: it has no type to
// be stored as); a table's row has its table's type and is accepted.
func (b *binder) checkRecordColumns(p plan.Node, loc int32) error {
	for _, c := range p.Columns() {
		if err := checkVoidColumn(c.Name, c.Type); err != nil {
			return err
		}
		if c.Type.IsAnonymousRecord() {
			return b.stmt.errf(loc, pgerr.InvalidTableDef, "column %q has pseudo-type record", c.Name)
		}
		if c.Type.Kind == value.ArrayOf(value.Record) && c.Type.ElemType().IsAnonymousRecord() {
			return b.stmt.errf(loc, pgerr.InvalidTableDef, "column %q has pseudo-type record[]", c.Name)
		}
	}
	return nil
}

// markUnregistered marks the columns of s whose records have no fields
// PostgreSQL can select: unreg is binder.unregOut of the query s reads.
func (s *scope) markUnregistered(unreg []bool) {
	for i := range s.cols {
		s.cols[i].unregistered = i < len(unreg) && unreg[i]
	}
}

// unregisteredOutputs marks the columns of query sel, a select list bound
// to exprs over scope sc, whose records have no fields PostgreSQL can
// select (unregisteredColumn, unregisteredExpr).
func (b *binder) unregisteredOutputs(sel *pg_query.SelectStmt, sc *scope, exprs []expr.Expr) []bool {
	out := make([]bool, len(exprs))
	for i, e := range exprs {
		out[i] = unregisteredColumn(sel, i) || b.unregisteredExpr(sc, e)
	}
	return out
}

// unregisteredColumn reports whether PostgreSQL fails selecting a field
// of a record in column i of simple query sel (42809, record type has not
// been registered) for want of a description of what its select list
// computes there: a scalar subquery, CASE, COALESCE, NULLIF, GREATEST or
// LEAST, whose records it does not describe. A VALUES list's columns are
// all such (bindSelect), and a column passing one on (unregisteredExpr).
func unregisteredColumn(sel *pg_query.SelectStmt, i int) bool {
	for _, t := range sel.TargetList {
		if cr := t.GetResTarget().GetVal().GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			return false // the columns' positions are not the list's
		}
	}
	if i >= len(sel.TargetList) {
		return false
	}
	v := sel.TargetList[i].GetResTarget().GetVal()
	switch {
	case v.GetSubLink() != nil, v.GetCaseExpr() != nil, v.GetCoalesceExpr() != nil, v.GetMinMaxExpr() != nil:
		return true
	case v.GetAExpr() != nil:
		return v.GetAExpr().Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF
	}
	return false
}

// unregisteredExpr reports whether e, bound over scope s, is a column
// holding records whose fields PostgreSQL cannot select: a column marked
// so, of this query or an enclosing one (a LATERAL subquery's), or above
// a GROUP BY a group key that is such a column. PostgreSQL follows a
// column to the query computing it, through subqueries, WITH queries and
// joins, and fails where a VALUES list or an expression it does not
// describe computes it.
func (b *binder) unregisteredExpr(s *scope, e expr.Expr) bool {
	if e.Type().Kind != value.Record {
		return false
	}
	var c scopeCol
	switch x := e.(type) {
	case *expr.Col:
		if b.agg != nil && s == b.agg.post {
			return x.Idx < len(b.agg.groups) && b.unregisteredExpr(b.agg.input, b.agg.groups[x.Idx])
		}
		if x.Idx >= len(s.cols) {
			return false
		}
		c = s.cols[x.Idx]
	case *expr.Outer:
		if x.Depth > len(b.outers) || x.Idx >= len(b.outers[x.Depth-1].cols) {
			return false
		}
		c = b.outers[x.Depth-1].cols[x.Idx]
	default:
		return false
	}
	return c.unregistered
}

// unregisteredRecord returns PostgreSQL's error for selecting a field of e
// when unregisteredExpr holds, nil otherwise.
func (b *binder) unregisteredRecord(s *scope, e expr.Expr) error {
	if !b.unregisteredExpr(s, e) {
		return nil
	}
	return pgerr.New(pgerr.WrongObjectType, "record type has not been registered")
}

// bindFieldSelect binds (e).name, a field of a record whose type knows its
// fields: of a row constructor, the argument itself; of any other record
// (a table's row from a subquery, a function's record), the field taken
// from the record when it is evaluated.
func (b *binder) bindFieldSelect(e expr.Expr, name string, loc int32) (expr.Expr, error) {
	if unregisteredFields(e.Type()) {
		return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "could not identify column %q in record data type", name)
	}
	if r, ok := e.(*expr.RowCons); ok {
		if f, _ := r.Field(name); f != nil {
			return f, nil
		}
		if r.Table != "" {
			// (t).z is t.z, PostgreSQL's message for a column.
			return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "column %s.%s does not exist", r.Table, name)
		}
	} else if f, ok := expr.NewFieldSelect(e, name); ok {
		return f, nil
	}
	t := e.Type()
	if t.Kind != value.Record {
		return nil, b.stmt.errf(loc, pgerr.WrongObjectType, "column notation .%s applied to type %s, which is not a composite type", name, t)
	}
	if d := t.RecordDesc(); d == nil {
		return nil, b.refuse(loc, "field selection from a record of unknown fields is not supported").
			WithHint("select the field from the row constructor or the table itself: (t).f, t.f")
	} else if d.Name != "" {
		return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "column %q not found in data type %s", name, t)
	}
	return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "could not identify column %q in record data type", name)
}

// bindRecordStar expands (r).* in a select list into r's fields, for a
// record whose type knows its fields; ok is false when n is not (r).*.
func (b *binder) bindRecordStar(s *scope, n *pg_query.Node) (fields []expr.Expr, cols []plan.Column, ok bool, err error) {
	ind := n.GetAIndirection()
	if ind == nil || ind.Indirection[len(ind.Indirection)-1].GetAStar() == nil {
		return nil, nil, false, nil
	}
	arg := ind.Arg
	if len(ind.Indirection) > 1 {
		arg = &pg_query.Node{Node: &pg_query.Node_AIndirection{AIndirection: &pg_query.A_Indirection{Arg: ind.Arg, Indirection: ind.Indirection[:len(ind.Indirection)-1]}}}
	}
	e, err := b.bindExpr(s, arg)
	if err != nil {
		return nil, nil, true, err
	}
	if err := b.unregisteredRecord(s, e); err != nil {
		return nil, nil, true, err
	}
	if r, isRow := e.(*expr.RowCons); isRow {
		for i, a := range r.Args {
			fields = append(fields, a)
			cols = append(cols, plan.Column{Name: r.Names[i], Type: a.Type()})
		}
		return fields, cols, true, nil
	}
	t := e.Type()
	if t.Kind != value.Record {
		return nil, nil, true, b.stmt.errf(-1, pgerr.WrongObjectType, "type %s is not composite", t)
	}
	if unregisteredFields(t) {
		// A function's record of the body's row (RETURNS record).
		return nil, nil, true, pgerr.New(pgerr.WrongObjectType, "record type has not been registered")
	}
	fs := expr.FieldSelects(e)
	if fs == nil {
		return nil, nil, true, b.refuse(nodeLoc(ind.Arg, -1), "(r).* of a record of unknown fields is not supported").
			WithHint("expand a row constructor or a table's row: (t).*, (ROW(a, b)).*")
	}
	for _, f := range fs {
		fields = append(fields, f)
		cols = append(cols, plan.Column{Name: f.Name, Type: f.T})
	}
	return fields, cols, true, nil
}

// groupedRow returns a table's row over the grouped rows when every one
// of its columns is a grouping expression (SELECT t … GROUP BY t.a, t.b).
func groupedRow(e expr.Expr, groups []expr.Expr) (expr.Expr, bool) {
	r, ok := e.(*expr.RowCons)
	if !ok || r.Table == "" {
		return nil, false
	}
	args := make([]expr.Expr, len(r.Args))
	for i, a := range r.Args {
		j := slices.IndexFunc(groups, func(g expr.Expr) bool { return exprKey(g) == exprKey(a) })
		if j < 0 {
			return nil, false
		}
		args[i] = &expr.Col{Idx: j, T: groups[j].Type(), Name: colName(groups[j])}
	}
	g := expr.NewRecordCons(args, r.Names, r.Table, "", r.NullIfAllNull)
	g.T = r.T
	return g, true
}

// nullTest binds e IS [NOT] NULL; a record is NULL when all its fields are.
func nullTest(e expr.Expr, not bool) expr.Expr {
	if e.Type().Kind == value.Record {
		return expr.NewRecordNullTest(e, not)
	}
	return &expr.IsNull{E: e, Not: not}
}
