package sql

import "slices"

// distinctSets is GROUP BY DISTINCT: the grouping sets without the ones
// that repeat an earlier set (the same expressions, in any order), as
// PostgreSQL removes them; GROUP BY ALL (the default) keeps them all.
func distinctSets(sets [][]int) [][]int {
	var out [][]int
	var seen [][]int // each kept set, sorted
	for _, s := range sets {
		k := slices.Sorted(slices.Values(s))
		if slices.ContainsFunc(seen, func(p []int) bool { return slices.Equal(p, k) }) {
			continue
		}
		seen = append(seen, k)
		out = append(out, s)
	}
	return out
}
