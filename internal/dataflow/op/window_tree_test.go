package op

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// sliceSource serves one relation from a slice.
type sliceSource []value.Row

func (s sliceSource) Scan(_ string, fn func(value.Row) error) error {
	for _, r := range s {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

// TestWindowTreeRandom maintains window functions over partitions of a
// few hundred rows kept in trees of tiny nodes (so that leaves and inner
// nodes split and merge), under random steps of insertions, deletions
// and updates, some of them large (merged into the tree in one pass),
// some aborted; after every committed step the results integrated so far
// must equal the from-scratch evaluation.
func TestWindowTreeRandom(t *testing.T) {
	leaf, kids := winLeafMax, winKidsMax
	winLeafMax, winKidsMax = 4, 3
	defer func() { winLeafMax, winKidsMax = leaf, kids }()

	id := &expr.Col{Idx: 0, T: value.Int8Type, Name: "id"}
	p := &expr.Col{Idx: 1, T: value.Int8Type, Name: "p"}
	o := &expr.Col{Idx: 2, T: value.Int8Type, Name: "o"}
	v := &expr.Col{Idx: 3, T: value.Int4Type, Name: "v"}
	f := &expr.Col{Idx: 4, T: value.Float8Type, Name: "f"}
	frames := []plan.Frame{
		plan.DefaultFrame,
		{Rows: true, Start: plan.UnboundedPreceding, End: plan.CurrentRow},
		{Rows: true, Start: plan.OffsetPreceding, StartOff: 3, End: plan.CurrentRow},
		{Rows: true, Start: plan.OffsetPreceding, StartOff: 2, End: plan.OffsetFollowing, EndOff: 1},
		{Rows: true, Start: plan.OffsetPreceding, StartOff: 5, End: plan.OffsetPreceding, EndOff: 2},
		{Rows: true, Start: plan.OffsetFollowing, StartOff: 1, End: plan.UnboundedFollowing},
		{Rows: true, Start: plan.CurrentRow, End: plan.OffsetFollowing, EndOff: 100},
		{Rows: true, Start: plan.OffsetPreceding, StartOff: 100, End: plan.OffsetFollowing, EndOff: 100},
		{Start: plan.CurrentRow, End: plan.UnboundedFollowing},
		{Start: plan.UnboundedPreceding, End: plan.UnboundedFollowing},
		{Start: plan.CurrentRow, End: plan.CurrentRow},
		{Groups: true, Start: plan.OffsetPreceding, StartOff: 2, End: plan.CurrentRow},
		{Groups: true, Start: plan.OffsetPreceding, StartOff: 1, End: plan.OffsetFollowing, EndOff: 1},
		{Groups: true, Start: plan.OffsetFollowing, StartOff: 1, End: plan.OffsetFollowing, EndOff: 3},
		{Groups: true, Start: plan.UnboundedPreceding, End: plan.OffsetPreceding, EndOff: 1},
		{Groups: true, Start: plan.OffsetPreceding, StartOff: 0, End: plan.UnboundedFollowing},
	}
	type fnCase struct {
		fn    plan.WinFunc
		total bool // ordered by id last too
	}
	var cases []fnCase
	for _, fr := range frames {
		for _, a := range []struct {
			agg  plan.AggFunc
			arg  expr.Expr
			name string
			typ  value.Type
		}{
			{plan.AggCountStar, nil, "count", value.Int8Type},
			{plan.AggSum, v, "sum", value.Int8Type},
			{plan.AggAvg, v, "avg", value.NumericType},
			{plan.AggSum, f, "sum", value.Float8Type},
			{plan.AggAvg, f, "avg", value.Float8Type},
			{plan.AggMin, v, "min", value.Int4Type},
			{plan.AggMax, f, "max", value.Float8Type},
		} {
			cases = append(cases, fnCase{plan.WinFunc{Kind: plan.WinAgg, Name: a.name, Agg: a.agg, Arg: a.arg, Type: a.typ, Frame: fr}, fr.Rows})
		}
		cases = append(cases,
			fnCase{plan.WinFunc{Kind: plan.WinFirstValue, Name: "first_value", Arg: v, Type: value.Int4Type, Frame: fr}, true},
			fnCase{plan.WinFunc{Kind: plan.WinNthValue, Name: "nth_value", Arg: v, N: 3, Type: value.Int4Type, Frame: fr}, true})
	}
	cases = append(cases,
		fnCase{plan.WinFunc{Kind: plan.WinRowNumber, Name: "row_number", Type: value.Int8Type}, true},
		fnCase{plan.WinFunc{Kind: plan.WinRank, Name: "rank", Type: value.Int8Type}, false},
		fnCase{plan.WinFunc{Kind: plan.WinDenseRank, Name: "dense_rank", Type: value.Int8Type}, false},
		fnCase{plan.WinFunc{Kind: plan.WinPercentRank, Name: "percent_rank", Type: value.Float8Type}, false},
		fnCase{plan.WinFunc{Kind: plan.WinCumeDist, Name: "cume_dist", Type: value.Float8Type}, false},
		fnCase{plan.WinFunc{Kind: plan.WinNtile, Name: "ntile", N: 7, Type: value.Int4Type}, true},
		fnCase{plan.WinFunc{Kind: plan.WinLag, Name: "lag", Arg: v, N: 2, Type: value.Int4Type}, true},
		fnCase{plan.WinFunc{Kind: plan.WinLead, Name: "lead", Arg: f, N: 1, Type: value.Float8Type}, true})

	for ci, c := range cases {
		fr := ""
		if c.fn.Kind.UsesFrame() {
			fr = " " + c.fn.Frame.String()
		}
		t.Run(fmt.Sprintf("%d %s%s", ci, c.fn.String(), fr), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci), 7))
			order := []plan.SortKey{{Expr: o, NullsFirst: rng.IntN(2) == 0, Desc: rng.IntN(2) == 0}}
			if c.total {
				order = append(order, plan.SortKey{Expr: id})
			}
			part := []expr.Expr{p}
			w := NewWindow(part, sortKeysOf(order), c.fn)
			node := &plan.Window{Input: &plan.Scan{Relation: "t"}, Partition: part, Order: order, Func: c.fn}
			table := map[int64]value.Row{}
			view := map[string]int64{}
			nextID := int64(0)
			newRow := func() value.Row {
				nextID++
				r := value.Row{value.NewInt(value.Int8, nextID), value.NewInt(value.Int8, int64(rng.IntN(2))),
					value.NewInt(value.Int8, int64(rng.IntN(40))), value.NewInt(value.Int4, int64(rng.IntN(200)-100)),
					value.NewFloat(value.Float8, float64(rng.IntN(400)-200)/4)}
				if rng.IntN(10) == 0 {
					r[2] = value.Null
				}
				if rng.IntN(10) == 0 {
					r[3] = value.Null
				}
				if rng.IntN(20) == 0 {
					r[4] = value.Null
				}
				return r
			}
			for step := range 40 {
				var ch zset.ZSet
				var changed []int64
				n := 1 + rng.IntN(3)
				if step == 0 || rng.IntN(10) == 0 {
					n = 20 + rng.IntN(80) // merged in one pass
				}
				for range n {
					switch k := rng.IntN(10); {
					case k < 5 || len(table) < 50:
						r := newRow()
						ch = append(ch, zset.Entry{Row: r, W: 1})
						changed = append(changed, r[0].Int())
					default:
						var ids []int64
						for id := range table {
							ids = append(ids, id)
						}
						slices.Sort(ids)
						id := ids[rng.IntN(len(ids))]
						if slices.Contains(changed, id) {
							continue
						}
						changed = append(changed, id)
						old := table[id]
						ch = append(ch, zset.Entry{Row: old, W: -1})
						if k < 8 {
							r := slices.Clone(old)
							switch rng.IntN(3) {
							case 0:
								r[2] = value.NewInt(value.Int8, int64(rng.IntN(40)))
							case 1:
								r[3] = value.NewInt(value.Int4, int64(rng.IntN(200)-100))
							default:
								r[1] = value.NewInt(value.Int8, int64(rng.IntN(2)))
							}
							ch = append(ch, zset.Entry{Row: r, W: 1})
						}
					}
				}
				ch = zset.Consolidate(ch)
				if rng.IntN(8) == 0 {
					if _, err := w.Step([]zset.ZSet{ch}); err != nil {
						t.Fatal(err)
					}
					w.Abort()
				}
				out, err := w.Step([]zset.ZSet{ch})
				if err != nil {
					t.Fatal(err)
				}
				w.Commit()
				for _, e := range ch {
					if e.W > 0 {
						table[e.Row[0].Int()] = e.Row
					} else if cur, ok := table[e.Row[0].Int()]; ok && zset.CompareRows(cur, e.Row) == 0 {
						delete(table, e.Row[0].Int())
					}
				}
				for _, e := range out {
					k := e.Row.String()
					if view[k] += e.W; view[k] == 0 {
						delete(view, k)
					}
				}
				var src sliceSource
				for _, r := range table {
					src = append(src, r)
				}
				want, err := exec.Run(node, src)
				if err != nil {
					t.Fatal(err)
				}
				wantSet := map[string]int64{}
				for _, r := range want {
					wantSet[r.String()]++
				}
				if !mapsEqual(view, wantSet) {
					t.Fatalf("step %d: maintained differs from recomputed:\n%s", step, diffCounts(view, wantSet))
				}
			}
		})
	}
}

func sortKeysOf(keys []plan.SortKey) []dataflow.SortKey {
	out := make([]dataflow.SortKey, len(keys))
	for i, k := range keys {
		out[i] = dataflow.SortKey{Expr: k.Expr, Desc: k.Desc, NullsFirst: k.NullsFirst}
	}
	return out
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func diffCounts(got, want map[string]int64) string {
	var b strings.Builder
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if got[k] != want[k] {
			fmt.Fprintf(&b, "  %s: got %d, want %d\n", k, got[k], want[k])
		}
	}
	return b.String()
}
