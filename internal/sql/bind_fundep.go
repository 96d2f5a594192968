package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// groupDependents adds to a plain GROUP BY the columns of each table whose
// whole primary key it groups by and that the query reads outside
// aggregate calls. Such a column is functionally dependent on the key, so
// PostgreSQL lets the select list, HAVING and ORDER BY read it; as an
// extra group key it splits no group. Columns read only inside aggregates
// are not added, so that a view's groups stay as narrow as written.
func (b *binder) groupDependents(sel *pg_query.SelectStmt, as *aggScope) {
	if as.sets != nil {
		return // PostgreSQL's rule for grouping sets is narrower; not taken
	}
	in := as.input.cols
	isGroup := map[int]bool{}
	keyParts := map[*keyedRel]map[int]bool{}
	for _, g := range as.groups {
		c, ok := g.(*expr.Col)
		if !ok {
			continue
		}
		isGroup[c.Idx] = true
		if r := in[c.Idx].rel; r != nil && !in[c.Idx].outer {
			if keyParts[r] == nil {
				keyParts[r] = map[int]bool{}
			}
			keyParts[r][in[c.Idx].relCol] = true
		}
	}
	keyed := map[*keyedRel]bool{}
	for r, parts := range keyParts {
		whole := true
		for _, k := range r.pk {
			whole = whole && parts[k]
		}
		keyed[r] = whole
	}
	add := func(i int) {
		if c := in[i]; c.rel != nil && keyed[c.rel] && !c.outer && !isGroup[i] {
			isGroup[i] = true
			as.groups = append(as.groups, &expr.Col{Idx: i, T: c.typ, Name: c.name})
		}
	}
	addAll := func(match func(c *scopeCol) bool) {
		for i := range in {
			if match(&in[i]) {
				add(i)
			}
		}
	}
	if len(keyed) == 0 {
		return
	}
	visit := func(n *pg_query.Node) bool {
		if aggCall(n) != nil {
			return false
		}
		cr := n.GetColumnRef()
		if cr == nil {
			return true
		}
		f := cr.Fields
		switch {
		case f[len(f)-1].GetAStar() != nil && len(f) == 1:
			addAll(func(c *scopeCol) bool { return !c.system })
		case f[len(f)-1].GetAStar() != nil && len(f) == 2:
			qual := f[0].GetString_().GetSval()
			addAll(func(c *scopeCol) bool { return c.qual == qual && !c.system })
		case len(f) <= 2:
			qual, name := "", f[len(f)-1].GetString_().GetSval()
			if len(f) == 2 {
				qual = f[0].GetString_().GetSval()
			}
			if e, err := b.resolveLevel(as.input, qual, name, cr.Location, false); err == nil && e != nil {
				add(e.(*expr.Col).Idx)
			} else if len(f) == 1 {
				// A whole-row reference to a FROM item.
				addAll(func(c *scopeCol) bool { return c.qual == name && !c.system })
			}
		}
		return false
	}
	roots := append(append(append([]*pg_query.Node{}, sel.TargetList...), sel.SortClause...), sel.DistinctClause...)
	roots = append(append(roots, sel.HavingClause), sel.WindowClause...)
	for _, n := range roots {
		if n != nil {
			walkNodesPruned(n.ProtoReflect(), visit)
		}
	}
}

// walkNodesPruned is walkNodes where fn returning false skips the node's
// children.
func walkNodesPruned(m protoreflect.Message, fn func(*pg_query.Node) bool) {
	if n, ok := m.Interface().(*pg_query.Node); ok {
		if !fn(n) {
			return
		}
		m = n.ProtoReflect()
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Kind() != protoreflect.MessageKind || fd.IsMap():
		case fd.IsList():
			for i, l := 0, v.List(); i < l.Len(); i++ {
				walkNodesPruned(l.Get(i).Message(), fn)
			}
		default:
			walkNodesPruned(v.Message(), fn)
		}
		return true
	})
}

// groupedStar expands * or qual.* in a grouped query's select list: each
// column must be a group key (or depend on one, see groupDependents).
func (b *binder) groupedStar(as *aggScope, qual string, loc int32) ([]expr.Expr, []plan.Column, error) {
	idxs := as.input.starCols()
	if qual != "" {
		idxs = nil
		for i, c := range as.input.cols {
			if c.qual == qual && !c.outer && !c.system {
				idxs = append(idxs, i)
			}
		}
		if len(idxs) == 0 {
			return nil, nil, b.stmt.errf(loc, pgerr.UndefinedTable, "missing FROM-clause entry for table %q", qual)
		}
	}
	b.noteStar(as.input, idxs, loc)
	var exprs []expr.Expr
	var cols []plan.Column
	for _, i := range idxs {
		c := &as.input.cols[i]
		key := exprKey(&expr.Col{Idx: i, T: c.typ, Name: c.name})
		j := -1
		for k, g := range as.groups {
			if exprKey(g) == key {
				j = k
				break
			}
		}
		if j < 0 {
			return nil, nil, b.stmt.errf(loc, pgerr.GroupingError,
				"column %q must appear in the GROUP BY clause or be used in an aggregate function", c.refName())
		}
		exprs = append(exprs, &expr.Col{Idx: j, T: c.typ, Name: c.name})
		cols = append(cols, plan.Column{Name: c.name, Type: c.typ})
	}
	return exprs, cols, nil
}

// exprName is the name PostgreSQL gives e, a column reference bound in s,
// in messages: qualified by its relation, t.* for a whole row.
func (s *scope) exprName(e expr.Expr) string {
	switch e := e.(type) {
	case *expr.Col:
		if e.Idx < len(s.cols) {
			return s.cols[e.Idx].refName()
		}
	case *expr.RowCons:
		if e.Table != "" {
			for _, a := range e.Args {
				if c, ok := a.(*expr.Col); ok && c.Idx < len(s.cols) && s.cols[c.Idx].qual != "" {
					return s.cols[c.Idx].qual + ".*"
				}
			}
		}
	}
	return e.String()
}
