package plan

// RangeJoins describes, once each, the conditions of the joins of n that
// have a condition but no equality key (a range or other theta join, such
// as a subquery correlated by an inequality), neither side being a single
// row: each change to one side is matched against every row of the other,
// so its cost is not bounded by the change.
func RangeJoins(n Node) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(Node)
	walk = func(n Node) {
		if j, ok := n.(*Join); ok && len(j.LeftKeys) == 0 && j.Residual != nil && !oneRow(j.Left) && !oneRow(j.Right) {
			if s := "on " + j.Residual.String(); !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
	return out
}

// oneRow reports whether n has exactly one row: a global aggregate, such
// as an uncorrelated scalar subquery's, under projections and joins of
// such; joining it costs O(change).
func oneRow(n Node) bool {
	switch n := n.(type) {
	case *Aggregate:
		return len(n.GroupBy) == 0
	case *Project:
		return oneRow(n.Input)
	case *Join:
		return n.Kind == InnerJoin && len(n.LeftKeys) == 0 && n.Residual == nil && oneRow(n.Left) && oneRow(n.Right)
	}
	return false
}
