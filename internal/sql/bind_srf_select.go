package sql

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
)

// A set-returning function in a select list (generate_series(…), alone
// or inside an expression) yields a row per value for each row below it,
// which is a lateral join of the function in FROM:
//
//	SELECT a, generate_series(1, a) + 1 FROM t
//	SELECT a, "?srf?".generate_series + 1 FROM t, LATERAL generate_series(1, a) AS "?srf?"(generate_series)
//
// Several calls run in lockstep, the shorter padded with NULLs, which is
// ROWS FROM (f(…), g(…)); the select list keeps the names the calls give
// their columns. A call whose arguments call a set-returning function runs
// over the rows of the calls it reads, as in PostgreSQL: each level of
// nesting is one more lateral ROWS FROM. Calls in ORDER BY join the calls
// of the select list (the same call written in both is one call).
//
// PostgreSQL evaluates the calls above WHERE, grouping, HAVING and window
// functions, and below DISTINCT, ORDER BY and LIMIT. A query with any of
// the former is split in two: the grouped query, which computes every
// part of the select list and ORDER BY that calls no set-returning
// function, becomes a subquery in FROM, and the calls run over its rows:
//
//	SELECT g, unnest(array_agg(x)) FROM t GROUP BY g ORDER BY g
//	SELECT "?grp?".g, unnest("?grp?"."?g2?") FROM (SELECT g AS g, array_agg(x) AS "?g2?" FROM t GROUP BY g) AS "?grp?" ORDER BY g
//
// A function returning a record (json_each) becomes ROW(key, value) of
// its columns; json(b)_populate_recordset, whose record has its row
// type, is bound there as one column of records (bindSelectRecordFunc).
// Each SELECT that a set operation combines is rewritten on its own. Calls where PostgreSQL refuses them (in an aggregate's or
// a window function's arguments, CASE, COALESCE, WHERE, …) are left in
// place for the binder to report.
const srfTemplate = `SELECT 1 FROM LATERAL generate_series(1, 2) AS "?srf?"(generate_series)`

func rewriteSelectSRF(cat Catalog, n *pg_query.Node) {
	ctes := withNames(n)
	walkNodes(n.ProtoReflect(), func(n *pg_query.Node) {
		for _, sel := range setOpArms(n.GetSelectStmt(), nil) {
			rewriteSelectListSRF(cat, ctes, sel)
		}
	})
}

// setOpArms appends to out the SELECTs that sel combines with UNION,
// INTERSECT or EXCEPT (arms that are no Node of their own, which
// walkNodes does not call its function on), or sel itself.
func setOpArms(sel *pg_query.SelectStmt, out []*pg_query.SelectStmt) []*pg_query.SelectStmt {
	switch {
	case sel == nil:
		return out
	case sel.Op != pg_query.SetOperation_SETOP_NONE && sel.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED:
		return setOpArms(sel.Rarg, setOpArms(sel.Larg, out))
	}
	return append(out, sel)
}

// rewriteSelectListSRF moves the set-returning calls of one SELECT's
// select list, ORDER BY and GROUP BY to FROM.
func rewriteSelectListSRF(cat Catalog, ctes map[string]*pg_query.CommonTableExpr, sel *pg_query.SelectStmt) {
	if len(sel.TargetList) == 0 {
		return
	}
	var from func(string) bool
	lowerGroupingSRFs(sel, func(name string) bool {
		if from == nil {
			from = fromColumns(cat, ctes, sel)
		}
		return from(name)
	}, func(f *pg_query.FuncCall) bool {
		names, _ := userSRFRecord(cat, f)
		return names != nil
	})
	if !selectSRFsMovable(sel) {
		return
	}
	if projectSetAbove(sel) && !splitBelowSRF(sel) {
		return
	}
	for level := 0; ; level++ {
		calls := innermostSRFs(sel)
		if len(calls) == 0 {
			return
		}
		if level == 0 && len(calls) == 1 && opName(calls[0].GetFuncCall().Funcname) == "generate_series" {
			seriesSRF(sel, calls[0])
			continue
		}
		alias := "?srf?"
		if level > 0 {
			alias = "?srf" + strconv.Itoa(level) + "?"
		}
		if !rowsFromSRF(cat, sel, calls, alias) {
			return
		}
	}
}

// srfNodes are the select list's, ORDER BY's and DISTINCT ON's
// expressions: PostgreSQL computes the calls of all three below DISTINCT.
func srfNodes(sel *pg_query.SelectStmt) []*pg_query.Node {
	var out []*pg_query.Node
	for _, t := range sel.TargetList {
		if rt := t.GetResTarget(); rt != nil && rt.Val != nil {
			out = append(out, rt.Val)
		}
	}
	for _, s := range sel.SortClause {
		if sb := s.GetSortBy(); sb != nil && sb.Node != nil {
			out = append(out, sb.Node)
		}
	}
	if distinctOn(sel) {
		out = append(out, sel.DistinctClause...)
	}
	return out
}

// isSRFCall reports whether n calls a set-returning function.
func isSRFCall(n *pg_query.Node) bool {
	f := n.GetFuncCall()
	return f != nil && f.Over == nil && (expr.IsSRF(opName(f.Funcname)) || isUserSRF(f) || isExtSRF(f))
}

// hasSRF reports whether n calls a set-returning function outside
// subqueries.
func hasSRF(n *pg_query.Node) bool {
	found := false
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		if found {
			return
		}
		if n, ok := m.Interface().(*pg_query.Node); ok {
			if n.GetSubLink() != nil || n.GetRangeSubselect() != nil || n.GetSelectStmt() != nil {
				return
			}
			if isSRFCall(n) {
				found = true
				return
			}
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Kind() != protoreflect.MessageKind || fd.IsMap():
			case fd.IsList():
				for i := 0; i < v.List().Len(); i++ {
					walk(v.List().Get(i).Message())
				}
			default:
				walk(v.Message())
			}
			return !found
		})
	}
	if n != nil {
		walk(n.ProtoReflect())
	}
	return found
}

// srfChildren returns the expression children of n through which a
// set-returning call's value may flow; ok is false for a node that
// PostgreSQL refuses a set-returning call under (CASE, COALESCE, an
// aggregate's or a window function's arguments) or that is not split
// here.
func srfChildren(n *pg_query.Node) (children []*pg_query.Node, ok bool) {
	switch {
	case isSRFCall(n):
		return n.GetFuncCall().Args, true
	case n.GetAExpr() != nil:
		return []*pg_query.Node{n.GetAExpr().Lexpr, n.GetAExpr().Rexpr}, true
	case n.GetBoolExpr() != nil:
		return n.GetBoolExpr().Args, true
	case n.GetFuncCall() != nil:
		f := n.GetFuncCall()
		if f.Over != nil || aggCall(n) != nil || f.AggOrder != nil || f.AggFilter != nil {
			return nil, false
		}
		return f.Args, true
	case n.GetTypeCast() != nil:
		return []*pg_query.Node{n.GetTypeCast().Arg}, true
	case n.GetNullTest() != nil:
		return []*pg_query.Node{n.GetNullTest().Arg}, true
	case n.GetBooleanTest() != nil:
		return []*pg_query.Node{n.GetBooleanTest().Arg}, true
	case n.GetList() != nil:
		return n.GetList().Items, true
	case n.GetRowExpr() != nil:
		return n.GetRowExpr().Args, true
	case n.GetAArrayExpr() != nil:
		return n.GetAArrayExpr().Elements, true
	case n.GetMinMaxExpr() != nil:
		return n.GetMinMaxExpr().Args, true
	case n.GetNamedArgExpr() != nil:
		return []*pg_query.Node{n.GetNamedArgExpr().Arg}, true
	case n.GetCollateClause() != nil:
		return []*pg_query.Node{n.GetCollateClause().Arg}, true
	case n.GetAIndirection() != nil:
		// (f(x)).a and (f(x)).*: the field of each record the call yields.
		return []*pg_query.Node{n.GetAIndirection().Arg}, true
	}
	return nil, false
}

// selectSRFsMovable reports whether sel's select list or ORDER BY calls a
// set-returning function and every such call can be moved to FROM.
func selectSRFsMovable(sel *pg_query.SelectStmt) bool {
	found, ok := false, true
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil || !ok || !hasSRF(n) {
			return
		}
		if isSRFCall(n) {
			found = true
		}
		cs, can := srfChildren(n)
		if !can {
			ok = false
			return
		}
		for _, c := range cs {
			walk(c)
		}
	}
	for _, n := range srfNodes(sel) {
		walk(n)
	}
	return found && ok
}

// projectSetAbove reports whether sel filters, groups, aggregates, calls a
// window function or has DISTINCT ON, all of which PostgreSQL computes
// below its set-returning calls (a filter over the lateral join would call them on
// rows that WHERE leaves out, where they may fail).
func projectSetAbove(sel *pg_query.SelectStmt) bool {
	if len(sel.GroupClause) > 0 || sel.HavingClause != nil || sel.WhereClause != nil || distinctOn(sel) {
		return true
	}
	for _, n := range srfNodes(sel) {
		if hasAggregate(n) || hasWindowCall(n) || srfReadsSubquery(n) {
			return true
		}
	}
	return false
}

// srfReadsSubquery reports whether a set-returning call in n has a
// subquery among its arguments (unnest(ARRAY(SELECT …))): the subquery is
// computed in the query below the calls, as a column of its select
// list, where subqueries are decorrelated; the call reads that column.
func srfReadsSubquery(n *pg_query.Node) bool {
	found := false
	walkNodes(n.ProtoReflect(), func(c *pg_query.Node) {
		if !found && isSRFCall(c) {
			for _, a := range c.GetFuncCall().Args {
				if hasSubLink(a) {
					found = true
				}
			}
		}
	})
	return found
}

// splitBelowSRF moves sel's FROM, WHERE, GROUP BY, HAVING, WINDOW and
// WITH into a subquery "?grp?" whose columns are the parts of the select
// list and ORDER BY that call no set-returning function; sel reads them
// by reference. It reports false, changing nothing, when a GROUP BY item
// cannot be kept (a position in a grouping set).
func splitBelowSRF(sel *pg_query.SelectStmt) bool {
	names := make([]string, len(sel.TargetList))
	originals := make([]*pg_query.Node, len(sel.TargetList))
	for i, t := range sel.TargetList {
		rt := t.GetResTarget()
		if rt == nil || rt.Val == nil {
			return false
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			return false // t.* is several columns
		}
		names[i] = rt.Name
		if names[i] == "" {
			names[i] = figureName(rt.Val)
		}
		originals[i] = rt.Val
	}
	// GROUP BY 1 names a select-list item, which the subquery's own
	// select list no longer holds: group by a copy of it.
	group := make([]*pg_query.Node, len(sel.GroupClause))
	for i, g := range sel.GroupClause {
		group[i] = g
		if c := g.GetAConst(); c != nil && c.GetIval() != nil {
			k := int(c.GetIval().Ival)
			if k < 1 || k > len(originals) || hasSRF(originals[k-1]) {
				return false // PostgreSQL's errors, from the query as written
			}
			group[i] = proto.Clone(originals[k-1]).(*pg_query.Node)
		} else if g.GetGroupingSet() != nil && hasPosition(g) {
			return false
		}
	}
	// DISTINCT ON keeps one row of each set before the calls run, the
	// first in ORDER BY's order, unless either reads a call: both go to
	// the subquery, where a position or an output name reads a copy of
	// the select-list item.
	var innerDistinct, innerSort []*pg_query.Node
	if distinctOn(sel) {
	items:
		for _, list := range [][]*pg_query.Node{sel.DistinctClause, sel.SortClause} {
			for _, item := range list {
				c := proto.Clone(item).(*pg_query.Node)
				n := c
				if sb := c.GetSortBy(); sb != nil {
					n = sb.Node
				}
				if hasSRF(n) {
					innerDistinct, innerSort = nil, nil
					break items
				}
				if k := selectItem(n, names); k >= 0 {
					if hasSRF(originals[k]) {
						innerDistinct, innerSort = nil, nil
						break items
					}
					n.Node = proto.Clone(originals[k]).(*pg_query.Node).Node
				}
				if c.GetSortBy() != nil {
					innerSort = append(innerSort, c)
				} else {
					innerDistinct = append(innerDistinct, c)
				}
			}
		}
	}
	inner := &pg_query.SelectStmt{DistinctClause: innerDistinct, SortClause: innerSort, FromClause: sel.FromClause, WhereClause: sel.WhereClause, GroupClause: group,
		GroupDistinct: sel.GroupDistinct, HavingClause: sel.HavingClause, WindowClause: sel.WindowClause,
		WithClause: sel.WithClause, LockingClause: sel.LockingClause, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
		Op: pg_query.SetOperation_SETOP_NONE}
	cols := map[string]string{} // an expression's text → its column
	used := map[string]bool{}
	// hoist makes n a column of the subquery and n a reference to it; a
	// whole select-list item keeps its name there, so that GROUP BY may
	// name it.
	hoist := func(n *pg_query.Node, name string) {
		if n.GetAConst() != nil {
			return // a literal keeps its unknown type
		}
		key := nodeText(n)
		col, ok := cols[key]
		if !ok || key == "" {
			col = name
			if col == "" || used[col] || col[0] == '?' {
				col = "?g" + strconv.Itoa(len(inner.TargetList)+1) + "?"
			}
			used[col] = true
			cols[key] = col
			val := &pg_query.Node{Node: n.Node}
			inner.TargetList = append(inner.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{
				ResTarget: &pg_query.ResTarget{Name: col, Val: val, Location: nodeLoc(val, -1)}}})
		}
		loc := nodeLoc(n, -1)
		n.Node = &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields: []*pg_query.Node{pg_query.MakeStrNode("?grp?"), pg_query.MakeStrNode(col)}, Location: loc}}
	}
	var split func(n *pg_query.Node, name string)
	split = func(n *pg_query.Node, name string) {
		if n == nil {
			return
		}
		if !hasSRF(n) {
			if n.GetList() == nil {
				if cr := n.GetColumnRef(); cr != nil && name == "" {
					name = figureName(n) // EXPLAIN shows unnest(?grp?.xs)
				}
				hoist(n, name)
				return
			}
		}
		cs, _ := srfChildren(n)
		if rowTypeArg(n) {
			cs = cs[1:] // NULL::t names a type, read in place
		}
		for _, c := range cs {
			split(c, "")
		}
	}
	for i, t := range sel.TargetList {
		rt := t.GetResTarget()
		rt.Name = names[i]
		split(rt.Val, names[i])
	}
	outerDistinct := sel.DistinctClause
	if innerDistinct != nil {
		outerDistinct = nil
	}
	for _, s := range append(append([]*pg_query.Node{}, sel.SortClause...), outerDistinct...) {
		n := s
		if sb := s.GetSortBy(); sb != nil {
			n = sb.Node
		}
		if n == nil || n.Node == nil {
			continue // plain DISTINCT
		}
		if c := n.GetAConst(); c != nil && c.GetIval() != nil {
			continue // a position in the select list
		}
		if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && outputName(names, cr) {
			continue
		}
		split(n, "")
	}
	sel.FromClause = []*pg_query.Node{{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Subquery: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: inner}},
		Alias:    &pg_query.Alias{Aliasname: "?grp?"}}}}}
	sel.WhereClause, sel.GroupClause, sel.GroupDistinct, sel.HavingClause = nil, nil, false, nil
	sel.WindowClause, sel.WithClause, sel.LockingClause = nil, nil, nil
	if innerDistinct != nil {
		sel.DistinctClause = nil
	}
	return true
}

// distinctOn reports whether sel has DISTINCT ON (…).
func distinctOn(sel *pg_query.SelectStmt) bool {
	return len(sel.DistinctClause) > 0 && sel.DistinctClause[0].GetNode() != nil
}

// selectItem returns the select-list item that n, a DISTINCT ON or ORDER
// BY item, names by its position or its name, or -1.
func selectItem(n *pg_query.Node, names []string) int {
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		if k := int(c.GetIval().Ival); k >= 1 && k <= len(names) {
			return k - 1
		}
		return -1
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
		for i, name := range names {
			if name == cr.Fields[0].GetString_().Sval {
				return i
			}
		}
	}
	return -1
}

// outputName reports whether the one-name column reference cr names a
// select-list item.
func outputName(names []string, cr *pg_query.ColumnRef) bool {
	s := cr.Fields[0].GetString_()
	if s == nil {
		return false
	}
	for _, n := range names {
		if n == s.Sval {
			return true
		}
	}
	return false
}

// hasPosition reports whether a grouping set lists a position.
func hasPosition(n *pg_query.Node) bool {
	found := false
	walkNodes(n.ProtoReflect(), func(m *pg_query.Node) {
		if c := m.GetAConst(); c != nil && c.GetIval() != nil {
			found = true
		}
	})
	return found
}

// innermostSRFs returns the set-returning calls of sel's select list and
// ORDER BY whose arguments call none, each distinct call once.
func innermostSRFs(sel *pg_query.SelectStmt) []*pg_query.Node {
	var calls []*pg_query.Node
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil || !hasSRF(n) {
			return
		}
		cs, _ := srfChildren(n)
		if isSRFCall(n) {
			inner := false
			for _, c := range cs {
				inner = inner || hasSRF(c)
			}
			if !inner {
				calls = append(calls, n)
				return
			}
		}
		for _, c := range cs {
			walk(c)
		}
	}
	for _, n := range srfNodes(sel) {
		walk(n)
	}
	return calls
}

// seriesSRF moves one generate_series call to FROM, where its column is
// named generate_series.
func seriesSRF(sel *pg_query.SelectStmt, call *pg_query.Node) {
	r, err := pg_query.Parse(srfTemplate)
	if err != nil {
		return
	}
	loc := call.GetFuncCall().Location
	nameTargets(sel)
	setLocations(r.Stmts[0].Stmt.ProtoReflect(), loc)
	rf := r.Stmts[0].Stmt.GetSelectStmt().FromClause[0]
	rf.GetRangeFunction().Functions[0].GetList().Items[0] = &pg_query.Node{Node: call.Node}
	call.Node = &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
		Fields:   []*pg_query.Node{pg_query.MakeStrNode("?srf?"), pg_query.MakeStrNode("generate_series")},
		Location: loc}}
	sel.FromClause = append(sel.FromClause, rf)
}

// nameTargets names each unnamed select-list item as PostgreSQL would
// before its calls become column references.
func nameTargets(sel *pg_query.SelectStmt) {
	for _, t := range sel.TargetList {
		if rt := t.GetResTarget(); rt != nil && rt.Name == "" && rt.Val != nil {
			rt.Name = figureName(rt.Val)
		}
	}
}

// rowsFromSRF moves the set-returning calls of sel's select list and
// ORDER BY into one LATERAL ROWS FROM (…) AS alias("?srf1?", …), each call
// becoming a reference to its column (the same call written twice, to the
// same column), or ROW(…) of its columns for a function returning a
// record. It reports false, changing nothing, for a whole record of a
// user function beside another call: past the function's last row the
// record is NULL, which ROW(…) of its padded columns cannot tell from a
// row of NULLs the function returned; the call stays, and is refused.
func rowsFromSRF(cat Catalog, sel *pg_query.SelectStmt, calls []*pg_query.Node, alias string) bool {
	distinct := map[string]bool{}
	for _, call := range calls {
		distinct[nodeText(call)] = true
	}
	if len(distinct) > 1 {
		fields := fieldCalls(sel)
		for _, call := range calls {
			f := call.GetFuncCall()
			if names, _ := userSRFRecord(cat, f); names != nil && !fields[f] {
				return false
			}
		}
	}
	nameTargets(sel)
	rf := &pg_query.RangeFunction{Lateral: true, Alias: &pg_query.Alias{Aliasname: alias}}
	ref := func(col string, loc int32) *pg_query.Node {
		return &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields: []*pg_query.Node{pg_query.MakeStrNode(alias), pg_query.MakeStrNode(col)}, Location: loc}}}
	}
	seen := map[string]*pg_query.Node{}
	for _, call := range calls {
		key := nodeText(call)
		if prev, ok := seen[key]; ok && key != "" {
			call.Node = proto.Clone(prev).(*pg_query.Node).Node
			continue
		}
		f := call.GetFuncCall()
		col := "?srf" + strconv.Itoa(len(rf.Functions)+1) + "?"
		rf.Functions = append(rf.Functions, &pg_query.Node{Node: &pg_query.Node_List{List: &pg_query.List{
			Items: []*pg_query.Node{{Node: &pg_query.Node_FuncCall{FuncCall: f}}}}}})
		names, typ := userSRFRecord(cat, f)
		if names == nil {
			names = srfRecordColumns(cat, f)
		}
		if names != nil {
			// The record has the function's column names, which
			// (f(x)).key and (f(x)).* select (bindRowValue reads them
			// from Colnames). Past the function's last row (a longer
			// one runs in lockstep) it is NULL, not a row of NULLs:
			// every column is NULL only there, as the first one
			// (json_each's key) is never NULL in a row of the function.
			row := &pg_query.RowExpr{RowFormat: pg_query.CoercionForm_COERCE_IMPLICIT_CAST, Location: f.Location}
			for _, n := range names {
				c := col + "." + n
				rf.Alias.Colnames = append(rf.Alias.Colnames, pg_query.MakeStrNode(c))
				row.Args = append(row.Args, ref(c, f.Location))
				row.Colnames = append(row.Colnames, pg_query.MakeStrNode(n))
			}
			call.Node = &pg_query.Node_RowExpr{RowExpr: row}
			if typ != nil || isUserSRF(f) {
				// Never padded: a row of NULLs is a record of NULLs.
				row.RowFormat = pg_query.CoercionForm_COERCE_SQL_SYNTAX
			}
			if typ != nil {
				call.Node = &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{
					Arg: &pg_query.Node{Node: call.Node}, TypeName: typ, Location: -1}}
			}
		} else {
			rf.Alias.Colnames = append(rf.Alias.Colnames, pg_query.MakeStrNode(col))
			call.Node = ref(col, f.Location).Node
		}
		seen[key] = &pg_query.Node{Node: call.Node}
	}
	rf.IsRowsfrom = len(rf.Functions) > 1
	sel.FromClause = append(sel.FromClause, &pg_query.Node{Node: &pg_query.Node_RangeFunction{RangeFunction: rf}})
	return true
}

// fieldCalls returns the calls in sel's select list and ORDER BY whose
// record is read by field or star ((f()).a, (f()).*), not whole.
func fieldCalls(sel *pg_query.SelectStmt) map[*pg_query.FuncCall]bool {
	out := map[*pg_query.FuncCall]bool{}
	for _, n := range srfNodes(sel) {
		walkNodes(n.ProtoReflect(), func(m *pg_query.Node) {
			if ind := m.GetAIndirection(); ind != nil && ind.Arg.GetFuncCall() != nil {
				out[ind.Arg.GetFuncCall()] = true
			}
		})
	}
	return out
}
