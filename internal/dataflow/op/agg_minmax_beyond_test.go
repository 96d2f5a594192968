package op

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestMinMaxBeyondSetAside checks that MIN's and MAX's stage of a step
// gives the same aggregate, count and reserve whether it sets aside the
// changes that cannot reach the reserve (minMaxPrefilter) or walks them
// all: random groups of integer and text values, reserves of 1 to 8
// entries holding the group's best values (all of it, or part of it after
// deletions), and steps of assertions and retractions, retracting at most
// the reserve's rows less one so that the reserve never empties (a refill,
// which TestGroupByTwin covers, reads an index this test has none of).
func TestMinMaxBeyondSetAside(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 12))
	gens := map[string]func(int64) value.Value{
		"int8": func(x int64) value.Value { return value.NewInt(value.Int8, x) },
		"text": func(x int64) value.Value { return value.NewText(value.Text, fmt.Sprintf("v%03d", x)) },
	}
	aside := 0
	for name, gen := range gens {
		for round := range 3000 {
			max := round%2 == 0
			k := 1 + rng.IntN(8)
			a := &minMaxAcc{max: max, k: k}
			// The group: multiplicities of values 0..dom-1.
			dom := 2 + rng.IntN(40)
			mult := make([]int64, dom)
			for range rng.IntN(60) {
				mult[rng.IntN(dom)]++
			}
			order := make([]int64, 0, dom) // values present, best first
			for x := range int64(dom) {
				if mult[x] > 0 {
					order = append(order, x)
				}
				a.m += mult[x]
			}
			if max {
				slices.Reverse(order)
			}
			j := min(k, len(order))
			if j > 0 && rng.IntN(3) == 0 {
				j = 1 + rng.IntN(j) // a reserve that deletions shrank
			}
			var held int64
			for _, x := range order[:j] {
				a.res = append(a.res, reserveEntry{v: gen(x), n: mult[x]})
				held += mult[x]
			}
			// The step: retractions of rows the group holds, fewer than
			// the reserve's rows, and assertions.
			var ch []aggChange
			left := slices.Clone(mult)
			for range rng.IntN(30) {
				x := int64(rng.IntN(dom))
				switch {
				case rng.IntN(10) == 0:
					ch = append(ch, aggChange{vals: []value.Value{value.Null}, w: 1})
				case rng.IntN(2) == 0 && left[x] > 0 && held > 1:
					w := 1 + rng.Int64N(min(left[x], held-1))
					if slices.ContainsFunc(a.res, func(e reserveEntry) bool { return value.Compare(e.v, gen(x)) == 0 }) {
						held -= w
					}
					left[x] -= w
					ch = append(ch, aggChange{vals: []value.Value{gen(x)}, w: -w})
				default:
					ch = append(ch, aggChange{vals: []value.Value{gen(x)}, w: 1 + rng.Int64N(2)})
				}
			}
			type staged struct {
				v   value.Value
				m   int64
				res []reserveEntry
			}
			run := func(prefilter bool) (staged, error) {
				minMaxPrefilter = prefilter
				defer func() { minMaxPrefilter = true }()
				b := &minMaxAcc{max: a.max, k: a.k, m: a.m, res: slices.Clone(a.res)}
				c := &stepCtx{}
				v, err := b.stage(c, slices.Clone(ch))
				if err != nil {
					return staged{}, err
				}
				return staged{v: v, m: b.sm, res: slices.Clone(c.res[b.soff : b.soff+b.slen])}, nil
			}
			if a.beyondIsInert(ch) {
				aside++
			}
			got, gerr := run(true)
			want, werr := run(false)
			if (gerr != nil) != (werr != nil) {
				t.Fatalf("%s round %d: errors %v and %v", name, round, gerr, werr)
			}
			eq := func(x, y reserveEntry) bool { return x.n == y.n && value.Compare(x.v, y.v) == 0 }
			if got.m != want.m || !identical(got.v, want.v) || !slices.EqualFunc(got.res, want.res, eq) {
				t.Fatalf("%s round %d (max %v, k %d, reserve %v, m %d, changes %v):\nset aside: %v m=%d %v\nwalked:    %v m=%d %v",
					name, round, max, k, a.res, a.m, ch, got.v, got.m, got.res, want.v, want.m, want.res)
			}
		}
	}
	if aside < 1000 {
		t.Fatalf("only %d steps set changes aside", aside)
	}
}
