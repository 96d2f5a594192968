package tsearch

// pgSort sorts s by cmp as PostgreSQL's qsort does (its sort_template:
// insertion sort below 7 elements, else a check for sorted input and a
// three-way quicksort around a median pivot). It is not stable, and code
// that keeps the first of equal elements after sorting (ts_rank's operands)
// keeps the one PostgreSQL keeps only with the same algorithm.
func pgSort[T any](s []T, cmp func(a, b T) int) {
	for {
		n := len(s)
		if n < 7 {
			for m := 1; m < n; m++ {
				for l := m; l > 0 && cmp(s[l-1], s[l]) > 0; l-- {
					s[l], s[l-1] = s[l-1], s[l]
				}
			}
			return
		}
		sorted := true
		for m := 1; m < n; m++ {
			if cmp(s[m-1], s[m]) > 0 {
				sorted = false
				break
			}
		}
		if sorted {
			return
		}
		med3 := func(a, b, c int) int {
			if cmp(s[a], s[b]) < 0 {
				if cmp(s[b], s[c]) < 0 {
					return b
				}
				if cmp(s[a], s[c]) < 0 {
					return c
				}
				return a
			}
			if cmp(s[b], s[c]) > 0 {
				return b
			}
			if cmp(s[a], s[c]) < 0 {
				return a
			}
			return c
		}
		pm := n / 2
		if n > 7 {
			pl, pn := 0, n-1
			if n > 40 {
				d := n / 8
				pl = med3(pl, pl+d, pl+2*d)
				pm = med3(pm-d, pm, pm+d)
				pn = med3(pn-2*d, pn-d, pn)
			}
			pm = med3(pl, pm, pn)
		}
		s[0], s[pm] = s[pm], s[0]
		pa, pb := 1, 1
		pc, pd := n-1, n-1
		for {
			for pb <= pc {
				r := cmp(s[pb], s[0])
				if r > 0 {
					break
				}
				if r == 0 {
					s[pa], s[pb] = s[pb], s[pa]
					pa++
				}
				pb++
			}
			for pb <= pc {
				r := cmp(s[pc], s[0])
				if r < 0 {
					break
				}
				if r == 0 {
					s[pc], s[pd] = s[pd], s[pc]
					pd--
				}
				pc--
			}
			if pb > pc {
				break
			}
			s[pb], s[pc] = s[pc], s[pb]
			pb++
			pc--
		}
		swapN := func(a, b, k int) {
			for i := 0; i < k; i++ {
				s[a+i], s[b+i] = s[b+i], s[a+i]
			}
		}
		d1 := min(pa, pb-pa)
		swapN(0, pb-d1, d1)
		d1 = min(pd-pc, n-pd-1)
		swapN(pb, n-d1, d1)
		d1, d2 := pb-pa, pd-pc
		if d1 <= d2 {
			if d1 > 1 {
				pgSort(s[:d1], cmp)
			}
			if d2 <= 1 {
				return
			}
			s = s[n-d2:]
		} else {
			if d2 > 1 {
				pgSort(s[n-d2:], cmp)
			}
			if d1 <= 1 {
				return
			}
			s = s[:d1]
		}
	}
}
