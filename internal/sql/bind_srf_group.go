package sql

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
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
// the select-list item first. Calls nested in calls, and in grouping sets,
// are left for the binder to refuse.
func lowerGroupingSRFs(sel *pg_query.SelectStmt) {
	names := make([]string, len(sel.TargetList))
	for i, t := range sel.TargetList {
		if rt := t.GetResTarget(); rt != nil && rt.Val != nil {
			names[i] = rt.Name
			if names[i] == "" {
				names[i] = figureName(rt.Val)
			}
		}
	}
	var calls []*pg_query.Node
	ok := true
	var collect func(n *pg_query.Node)
	collect = func(n *pg_query.Node) {
		if n == nil || !ok || !hasSRF(n) {
			return
		}
		cs, can := srfChildren(n)
		if isSRFCall(n) {
			for _, c := range cs {
				if hasSRF(c) {
					ok = false
					return
				}
			}
			calls = append(calls, n)
			return
		}
		if !can {
			ok = false
			return
		}
		for _, c := range cs {
			collect(c)
		}
	}
	for i, g := range sel.GroupClause {
		if g.GetGroupingSet() != nil {
			continue
		}
		if k := selectItem(g, names); k >= 0 && hasSRF(sel.TargetList[k].GetResTarget().Val) {
			sel.GroupClause[i] = proto.Clone(sel.TargetList[k].GetResTarget().Val).(*pg_query.Node)
			g = sel.GroupClause[i]
		}
		collect(g)
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
	if !ok || len(calls) == 0 {
		return
	}
	nameTargets(sel)
	rf := &pg_query.RangeFunction{Lateral: true, Alias: &pg_query.Alias{Aliasname: "?srfg?"}}
	cols := map[string]string{}
	for _, call := range calls {
		key := nodeText(call)
		if _, ok := cols[key]; ok || key == "" {
			continue
		}
		col := "?g" + strconv.Itoa(len(rf.Functions)+1) + "?"
		cols[key] = col
		rf.Functions = append(rf.Functions, &pg_query.Node{Node: &pg_query.Node_List{List: &pg_query.List{
			Items: []*pg_query.Node{{Node: &pg_query.Node_FuncCall{FuncCall: proto.Clone(call.GetFuncCall()).(*pg_query.FuncCall)}}}}}})
		rf.Alias.Colnames = append(rf.Alias.Colnames, pg_query.MakeStrNode(col))
	}
	rf.IsRowsfrom = len(rf.Functions) > 1
	replace := func(m protoreflect.Message) {
		walkOwnLevel(m, func(n *pg_query.Node) {
			if !isSRFCall(n) {
				return
			}
			if col, ok := cols[nodeText(n)]; ok {
				loc := n.GetFuncCall().Location
				n.Node = &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
					Fields: []*pg_query.Node{pg_query.MakeStrNode("?srfg?"), pg_query.MakeStrNode(col)}, Location: loc}}
			}
		})
	}
	for _, list := range [][]*pg_query.Node{sel.TargetList, sel.GroupClause, sel.SortClause, sel.WindowClause, {sel.HavingClause}} {
		for _, n := range list {
			if n != nil {
				replace(n.ProtoReflect())
			}
		}
	}
	sel.FromClause = append(sel.FromClause, &pg_query.Node{Node: &pg_query.Node_RangeFunction{RangeFunction: rf}})
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
