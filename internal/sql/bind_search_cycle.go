package sql

import (
	"slices"
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// rewriteSearchCycle turns the SEARCH and CYCLE clauses of a recursive
// query into columns of its two terms, as PostgreSQL's rewriter does:
//
//   - SEARCH DEPTH FIRST BY a, b SET seq: seq is ARRAY[ROW(a, b)] in the
//     non-recursive term and seq || ROW(a, b) in the recursive one, the
//     path of rows that led to the row; ordering by seq is depth first.
//   - SEARCH BREADTH FIRST BY a SET seq: seq is ROW(0, a), then
//     ROW((seq).f1 + 1, a): the depth first, then the row.
//   - CYCLE a SET mark [TO v DEFAULT d] USING path: path as for depth
//     first; mark is d, then v when the row's ROW(a) is already on the
//     path; the recursive term reads only rows whose mark is not v
//     (v and d are true and false by default).
//
// The columns come after the query's own, SEARCH's first. A VALUES list
// as the non-recursive term is read as a SELECT of its columns
// (valuesAsSelect), and * in a select list as the columns it stands for
// (expandSearchCycleStars). Each term must be a plain SELECT, and the
// recursive term must read the query in its FROM list (0A000 otherwise); a column that is not
// the query's, or a new column named as one of them, is 42601.
func (b *binder) rewriteSearchCycle(c *pg_query.CommonTableExpr, sel *pg_query.SelectStmt) error {
	search, cycle := c.GetSearchClause(), c.GetCycleClause()
	loc := search.GetLocation()
	if search == nil {
		loc = cycle.GetLocation()
	}
	unsupported := func(what string) error {
		return b.refuse(loc, "SEARCH and CYCLE are supported over %s", what).
			WithHint("write the recursive query as SELECT … UNION [ALL] SELECT … FROM … name …, with its columns listed")
	}
	if sel.Op != pg_query.SetOperation_SETOP_UNION || sel.Larg == nil || sel.Rarg == nil {
		return b.stmt.errf(c.Location, pgerr.InvalidRecursion, "recursive query %q does not have the form non-recursive-term UNION [ALL] recursive-term", c.Ctename)
	}
	anchor, step := sel.Larg, sel.Rarg
	if anchor.Op == pg_query.SetOperation_SETOP_NONE && len(anchor.ValuesLists) > 0 {
		anchor = valuesAsSelect(anchor)
		sel.Larg = anchor
	}
	if anchor.Op != pg_query.SetOperation_SETOP_NONE || step.Op != pg_query.SetOperation_SETOP_NONE || anchor.ValuesLists != nil || step.ValuesLists != nil {
		return unsupported("a UNION of two plain SELECTs")
	}
	if hasStar(anchor.TargetList) || hasStar(step.TargetList) {
		if err := b.expandSearchCycleStars(c, anchor, step); err != nil {
			return err
		}
	}
	// The query's columns: its column list, else the anchor's names.
	var cols []string
	for _, n := range c.Aliascolnames {
		cols = append(cols, n.GetString_().Sval)
	}
	for i, t := range anchor.TargetList {
		rt := t.GetResTarget()
		if isStarRef(rt.GetVal()) {
			return unsupported("select lists whose * the columns of their FROM list name one by one")
		}
		if i < len(cols) {
			continue
		}
		name := rt.Name
		if name == "" {
			if cr := rt.GetVal().GetColumnRef(); cr != nil {
				name = cr.Fields[len(cr.Fields)-1].GetString_().GetSval()
			}
		}
		if name == "" {
			return unsupported("columns that are named (a column list, or names in the select list)")
		}
		cols = append(cols, name)
	}
	if len(step.TargetList) != len(anchor.TargetList) {
		at := loc
		if len(step.TargetList) > 0 {
			at = nodeLoc(step.TargetList[0].GetResTarget().GetVal(), loc)
		}
		return b.stmt.errf(at, pgerr.SyntaxError, "each UNION query must have the same number of columns")
	}
	if len(cols) != len(anchor.TargetList) {
		return unsupported("terms with as many columns as the query")
	}
	if hasStar(step.TargetList) {
		return unsupported("select lists whose * the columns of their FROM list name one by one")
	}
	ref := recursiveAlias(step.FromClause, c.Ctename)
	if ref == "" {
		return unsupported("a recursive term that reads the query in its FROM list")
	}
	positions := func(list []*pg_query.Node, what string) ([]int, error) {
		var out []int
		for _, n := range list {
			name := n.GetString_().Sval
			i := slices.Index(cols, name)
			if i < 0 {
				return nil, b.stmt.errf(loc, pgerr.SyntaxError, "%s column %q not in WITH query column list", what, name)
			}
			out = append(out, i)
		}
		return out, nil
	}
	fresh := func(name, what string) error {
		if slices.Contains(cols, name) {
			return b.stmt.errf(loc, pgerr.SyntaxError, "%s column name %q already used in WITH query column list", what, name)
		}
		return nil
	}
	rowOf := func(tl []*pg_query.Node, at []int) *pg_query.Node {
		var args []*pg_query.Node
		for _, i := range at {
			args = append(args, proto.Clone(tl[i].GetResTarget().Val).(*pg_query.Node))
		}
		return &pg_query.Node{Node: &pg_query.Node_RowExpr{RowExpr: &pg_query.RowExpr{Args: args, RowFormat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL, Location: -1}}}
	}
	refCol := func(name string) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields: []*pg_query.Node{pg_query.MakeStrNode(ref), pg_query.MakeStrNode(name)}, Location: -1}}}
	}
	op := func(name string, l, r *pg_query.Node) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_AExpr{AExpr: &pg_query.A_Expr{Kind: pg_query.A_Expr_Kind_AEXPR_OP,
			Name: []*pg_query.Node{pg_query.MakeStrNode(name)}, Lexpr: l, Rexpr: r, Location: -1}}}
	}
	array := func(e *pg_query.Node) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_AArrayExpr{AArrayExpr: &pg_query.A_ArrayExpr{Elements: []*pg_query.Node{e}, Location: -1}}}
	}
	var added []string
	add := func(name string, a, s *pg_query.Node) {
		added = append(added, name)
		anchor.TargetList = append(anchor.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Name: name, Val: a, Location: -1}}})
		step.TargetList = append(step.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Name: name, Val: s, Location: -1}}})
	}
	if search != nil {
		at, err := positions(search.SearchColList, "search")
		if err != nil {
			return err
		}
		if err := fresh(search.SearchSeqColumn, "search sequence"); err != nil {
			return err
		}
		seq := search.SearchSeqColumn
		if search.SearchBreadthFirst {
			depth := func(e *pg_query.Node) *pg_query.Node {
				r := rowOf(anchor.TargetList, at)
				if e == nil {
					r = rowOf(step.TargetList, at)
				}
				args := append([]*pg_query.Node{e}, r.GetRowExpr().Args...)
				r.GetRowExpr().Args = args
				return r
			}
			zero := &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{
				Arg:      &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Val: &pg_query.A_Const_Ival{Ival: &pg_query.Integer{Ival: 0}}, Location: -1}}},
				TypeName: &pg_query.TypeName{Names: []*pg_query.Node{pg_query.MakeStrNode("int8")}, Location: -1}, Location: -1}}}
			first := depth(zero)
			next := rowOf(step.TargetList, at)
			field := &pg_query.Node{Node: &pg_query.Node_AIndirection{AIndirection: &pg_query.A_Indirection{Arg: refCol(seq),
				Indirection: []*pg_query.Node{pg_query.MakeStrNode("f1")}}}}
			one := &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Val: &pg_query.A_Const_Ival{Ival: &pg_query.Integer{Ival: 1}}, Location: -1}}}
			next.GetRowExpr().Args = append([]*pg_query.Node{op("+", field, one)}, next.GetRowExpr().Args...)
			add(seq, first, next)
		} else {
			add(seq, array(rowOf(anchor.TargetList, at)), op("||", refCol(seq), rowOf(step.TargetList, at)))
		}
	}
	if cycle != nil {
		at, err := positions(cycle.CycleColList, "cycle")
		if err != nil {
			return err
		}
		mark, path := cycle.CycleMarkColumn, cycle.CyclePathColumn
		if err := fresh(mark, "cycle mark"); err != nil {
			return err
		}
		if err := fresh(path, "cycle path"); err != nil {
			return err
		}
		if mark == path {
			return b.stmt.errf(loc, pgerr.SyntaxError, "cycle mark column name and cycle path column name are the same")
		}
		if search != nil && (search.SearchSeqColumn == mark || search.SearchSeqColumn == path) {
			which := "mark"
			if search.SearchSeqColumn == path {
				which = "path"
			}
			return b.stmt.errf(loc, pgerr.SyntaxError, "search sequence column name and cycle %s column name are the same", which)
		}
		v, d := cycle.CycleMarkValue, cycle.CycleMarkDefault
		if v == nil {
			v = &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: true}}, Location: -1}}}
			d = &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: false}}, Location: -1}}}
		}
		clone := func(n *pg_query.Node) *pg_query.Node { return proto.Clone(n).(*pg_query.Node) }
		seen := &pg_query.Node{Node: &pg_query.Node_AExpr{AExpr: &pg_query.A_Expr{Kind: pg_query.A_Expr_Kind_AEXPR_OP_ANY,
			Name: []*pg_query.Node{pg_query.MakeStrNode("=")}, Lexpr: rowOf(step.TargetList, at), Rexpr: refCol(path), Location: -1}}}
		markNext := &pg_query.Node{Node: &pg_query.Node_CaseExpr{CaseExpr: &pg_query.CaseExpr{
			Args:      []*pg_query.Node{{Node: &pg_query.Node_CaseWhen{CaseWhen: &pg_query.CaseWhen{Expr: seen, Result: clone(v), Location: -1}}}},
			Defresult: clone(d), Location: -1}}}
		add(mark, clone(d), markNext)
		add(path, array(rowOf(anchor.TargetList, at)), op("||", refCol(path), rowOf(step.TargetList, at)))
		notCycle := op("<>", refCol(mark), clone(v))
		if step.WhereClause == nil {
			step.WhereClause = notCycle
		} else {
			step.WhereClause = &pg_query.Node{Node: &pg_query.Node_BoolExpr{BoolExpr: &pg_query.BoolExpr{
				Boolop: pg_query.BoolExprType_AND_EXPR, Args: []*pg_query.Node{step.WhereClause, notCycle}, Location: -1}}}
		}
	}
	c.Aliascolnames = nil
	for _, n := range append(cols, added...) {
		c.Aliascolnames = append(c.Aliascolnames, pg_query.MakeStrNode(n))
	}
	c.SearchClause, c.CycleClause = nil, nil
	return nil
}

// recursiveAlias is the name under which a FROM list (its items, and the
// items of its joins) reads the relation name; "" when it does not.
func recursiveAlias(from []*pg_query.Node, name string) string {
	for _, n := range from {
		if rv := n.GetRangeVar(); rv != nil && rv.Schemaname == "" && rv.Relname == name {
			if rv.Alias != nil {
				return rv.Alias.Aliasname
			}
			return name
		}
		if j := n.GetJoinExpr(); j != nil {
			if a := recursiveAlias([]*pg_query.Node{j.Larg, j.Rarg}, name); a != "" {
				return a
			}
		}
	}
	return ""
}

// valuesAsSelect returns VALUES (…), … as SELECT "?values?".column1, …
// FROM (VALUES (…), …) AS "?values?", the same rows and column names in a
// select list that SEARCH and CYCLE add their columns to.
func valuesAsSelect(v *pg_query.SelectStmt) *pg_query.SelectStmt {
	const alias = "?values?"
	n := len(v.ValuesLists[0].GetList().GetItems())
	out := &pg_query.SelectStmt{Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT}
	for i := 1; i <= n; i++ {
		name := "column" + strconv.Itoa(i)
		ref := pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(alias), pg_query.MakeStrNode(name)}, -1)
		out.TargetList = append(out.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{Name: name, Val: ref, Location: -1}}})
	}
	out.FromClause = []*pg_query.Node{{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Subquery: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: v}},
		Alias:    &pg_query.Alias{Aliasname: alias}}}}}
	return out
}
