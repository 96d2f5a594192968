package plan

// RangeJoins describes, once each, the conditions of the joins of n that have no equality key but a
// condition (a range or other theta join, such as a subquery correlated
// by an inequality): each change to one side is matched against every
// row of the other, so its cost is not bounded by the change.
func RangeJoins(n Node) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(Node)
	walk = func(n Node) {
		if j, ok := n.(*Join); ok && len(j.LeftKeys) == 0 && j.Residual != nil && !seen[j.Residual.String()] {
			seen[j.Residual.String()] = true
			out = append(out, "on "+j.Residual.String())
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
	return out
}
