package sql

import (
	"slices"
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
)

// lowerGroupingSRFs moves the set-returning calls of sel's GROUP BY and of
// its windows' PARTITION BY and ORDER BY, which PostgreSQL evaluates
// below the grouping and the windows, into one LATERAL ROWS FROM (…) AS
// "?srfg?"(…) in FROM, every copy of each call (in the select list,
// GROUP BY, HAVING, ORDER BY and the windows) becoming a reference to its
// column:
//
//	SELECT generate_series(1, 2) AS n, count(*) FROM t GROUP BY 1
//	SELECT "?srfg?"."?g1?" AS n, count(*) FROM t, LATERAL ROWS FROM (generate_series(1, 2)) AS "?srfg?"("?g1?") GROUP BY "?srfg?"."?g1?"
//
// A GROUP BY position or output name that reads such a call is replaced by
// the select-list item first, unless it is a column of FROM. Calls in
// grouping sets are moved the same way; a call in another call's arguments
// goes in a ROWS FROM of its own ("?srfg2?", …) after the one of the calls
// it reads, as PostgreSQL evaluates the inner call first.
//
// userRecord tells the calls of a user function returning rows of several
// columns, which are left where they are (and refused there): their
// records would read as NULL where every field is.
func lowerGroupingSRFs(sel *pg_query.SelectStmt, fromColumn func(string) bool, userRecord func(*pg_query.FuncCall) bool) {
	names := make([]string, len(sel.TargetList))
	for i, t := range sel.TargetList {
		if rt := t.GetResTarget(); rt != nil && rt.Val != nil {
			names[i] = rt.Name
			if names[i] == "" {
				names[i] = figureName(rt.Val)
			}
		}
	}
	// levels[0] are the calls whose arguments call none; levels[k] those
	// whose arguments call one of levels[k-1] (and none deeper).
	var levels [][]*pg_query.Node
	ok := true
	var collect func(n *pg_query.Node) int
	collect = func(n *pg_query.Node) int {
		if n == nil || !ok || !hasSRF(n) {
			return 0
		}
		cs, can := srfChildren(n)
		if !can {
			ok = false
			return 0
		}
		depth := 0
		for _, c := range cs {
			depth = max(depth, collect(c))
		}
		if !isSRFCall(n) {
			return depth
		}
		if userRecord(n.GetFuncCall()) {
			ok = false
			return 0
		}
		for len(levels) <= depth {
			levels = append(levels, nil)
		}
		levels[depth] = append(levels[depth], n)
		return depth + 1
	}
	// A GROUP BY item that is a position or an output name is the
	// select-list item, unless the name is a column of FROM, which
	// PostgreSQL reads first.
	item := func(g *pg_query.Node) *pg_query.Node {
		if cr := g.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil && fromColumn(cr.Fields[0].GetString_().Sval) {
			return g
		}
		if k := selectItem(g, names); k >= 0 && hasSRF(sel.TargetList[k].GetResTarget().Val) {
			return proto.Clone(sel.TargetList[k].GetResTarget().Val).(*pg_query.Node)
		}
		return g
	}
	var groupingSet func(gs *pg_query.GroupingSet)
	groupingSet = func(gs *pg_query.GroupingSet) {
		for i, c := range gs.Content {
			switch {
			case c.GetGroupingSet() != nil:
				groupingSet(c.GetGroupingSet())
			case c.GetList() != nil:
				for j, e := range c.GetList().Items {
					c.GetList().Items[j] = item(e)
					collect(c.GetList().Items[j])
				}
			default:
				gs.Content[i] = item(c)
				collect(gs.Content[i])
			}
		}
	}
	for i, g := range sel.GroupClause {
		if gs := g.GetGroupingSet(); gs != nil {
			groupingSet(gs)
			continue
		}
		sel.GroupClause[i] = item(g)
		collect(sel.GroupClause[i])
	}
	windows := func(fn func(w *pg_query.WindowDef)) {
		for _, w := range sel.WindowClause {
			if d := w.GetWindowDef(); d != nil {
				fn(d)
			}
		}
		var walk func(n *pg_query.Node)
		walk = func(n *pg_query.Node) {
			if n == nil || n.GetSubLink() != nil {
				return // a subquery's windows are its own
			}
			if f := n.GetFuncCall(); f != nil && f.Over != nil {
				fn(f.Over)
			}
			forEachChild(n, walk)
		}
		for _, t := range sel.TargetList {
			walk(t)
		}
	}
	windows(func(w *pg_query.WindowDef) {
		for _, p := range w.PartitionClause {
			collect(p)
		}
		for _, o := range w.OrderClause {
			if sb := o.GetSortBy(); sb != nil {
				collect(sb.Node)
			}
		}
	})
	if !ok || len(levels) == 0 {
		return
	}
	nameTargets(sel)
	// Each level is one LATERAL ROWS FROM (…) in FROM, after the level
	// below, whose columns its calls' arguments read.
	// A function returning a record has a column per field (col.name)
	// and its calls become the record of them, as in rowsFromSRF.
	type ref struct {
		rel, col string
		fields   []string
	}
	refs := map[string]ref{}
	replace := func(m protoreflect.Message) {
		walkOwnLevel(m, func(n *pg_query.Node) {
			if !isSRFCall(n) {
				return
			}
			if r, ok := refs[nodeText(n)]; ok {
				loc := n.GetFuncCall().Location
				colRef := func(col string) *pg_query.Node {
					return &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
						Fields: []*pg_query.Node{pg_query.MakeStrNode(r.rel), pg_query.MakeStrNode(col)}, Location: loc}}}
				}
				if r.fields == nil {
					n.Node = colRef(r.col).Node
					return
				}
				row := &pg_query.RowExpr{RowFormat: pg_query.CoercionForm_COERCE_IMPLICIT_CAST, Location: loc}
				for _, f := range r.fields {
					row.Args = append(row.Args, colRef(r.col+"."+f))
					row.Colnames = append(row.Colnames, pg_query.MakeStrNode(f))
				}
				n.Node = &pg_query.Node_RowExpr{RowExpr: row}
			}
		})
	}
	var rfs []*pg_query.RangeFunction
	for depth, calls := range levels {
		rel := "?srfg?"
		if depth > 0 {
			rel = "?srfg" + strconv.Itoa(depth+1) + "?"
		}
		rf := &pg_query.RangeFunction{Lateral: true, Alias: &pg_query.Alias{Aliasname: rel}}
		var added []ref
		var keys []string
		for _, call := range calls {
			key := nodeText(call)
			if _, ok := refs[key]; ok || key == "" || slices.Contains(keys, key) {
				continue
			}
			col := "?g" + strconv.Itoa(len(rf.Functions)+1) + "?"
			fc := proto.Clone(call.GetFuncCall()).(*pg_query.FuncCall)
			for _, a := range fc.Args {
				replace(a.ProtoReflect())
			}
			rf.Functions = append(rf.Functions, &pg_query.Node{Node: &pg_query.Node_List{List: &pg_query.List{
				Items: []*pg_query.Node{{Node: &pg_query.Node_FuncCall{FuncCall: fc}}}}}})
			fields := expr.SRFRecordColumns(opName(fc.Funcname))
			if fields == nil {
				rf.Alias.Colnames = append(rf.Alias.Colnames, pg_query.MakeStrNode(col))
			}
			for _, f := range fields {
				rf.Alias.Colnames = append(rf.Alias.Colnames, pg_query.MakeStrNode(col+"."+f))
			}
			added = append(added, ref{rel, col, fields})
			keys = append(keys, key)
		}
		for i, k := range keys {
			refs[k] = added[i]
		}
		rf.IsRowsfrom = len(rf.Functions) > 1
		rfs = append(rfs, rf)
	}
	for _, list := range [][]*pg_query.Node{sel.TargetList, sel.GroupClause, sel.SortClause, sel.WindowClause, {sel.HavingClause}} {
		for _, n := range list {
			if n != nil {
				replace(n.ProtoReflect())
			}
		}
	}
	for _, rf := range rfs {
		sel.FromClause = append(sel.FromClause, &pg_query.Node{Node: &pg_query.Node_RangeFunction{RangeFunction: rf}})
	}
}

// walkOwnLevel calls fn on every node under m, as walkNodes does, except
// inside subqueries, whose nodes are of another query level.
func walkOwnLevel(m protoreflect.Message, fn func(*pg_query.Node)) {
	if n, ok := m.Interface().(*pg_query.Node); ok {
		if n.GetSubLink() != nil || n.GetSelectStmt() != nil {
			return
		}
		fn(n)
		m = n.ProtoReflect()
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Kind() != protoreflect.MessageKind || fd.IsMap():
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				walkOwnLevel(v.List().Get(i).Message(), fn)
			}
		default:
			walkOwnLevel(v.Message(), fn)
		}
		return true
	})
}
