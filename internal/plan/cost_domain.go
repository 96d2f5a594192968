package plan

import "strings"

// DomainProducts describes the cross joins that decorrelation left in n
// between the domain of a correlated subquery (the distinct outer values
// it reads) and a side of it that reads a table but no outer column (the
// side of a FULL JOIN, a set operation or a recursion that must be
// evaluated per outer value): a new outer value costs that side's rows,
// and a change to the side costs one row per outer value, so the cost of
// a change is not bounded by the change. A product under a filter is
// left out: the filter's conditions become its keys or its residual (a
// range join, which RangeJoins reports).
func DomainProducts(n Node) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(Node, bool)
	walk = func(n Node, filtered bool) {
		if j, ok := n.(*Join); ok && !filtered && j.Kind == InnerJoin && len(j.LeftKeys) == 0 && j.Residual == nil && isDomain(j.Left) &&
			!oneRow(j.Right) && readsTable(j.Right) {
			var cols []string
			for _, c := range j.Left.Columns() {
				cols = append(cols, c.Name)
			}
			if s := "(" + strings.Join(cols, ", ") + ") × " + describe(j.Right); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		_, f := n.(*Filter)
		for _, c := range n.Children() {
			walk(c, f)
		}
	}
	walk(n, false)
	return out
}

// isDomain reports whether n has the shape of a decorrelation domain: the
// distinct values of expressions over the outer rows.
func isDomain(n Node) bool {
	d, ok := n.(*Distinct)
	if !ok {
		return false
	}
	_, ok = d.Input.(*Project)
	return ok
}

// readsTable reports whether n reads a relation.
func readsTable(n Node) bool {
	if _, ok := n.(*Scan); ok {
		return true
	}
	for _, c := range n.Children() {
		if readsTable(c) {
			return true
		}
	}
	return false
}
