package delta

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"pgregory.net/rapid"
)

// TestBlocksCompact: a target fed random steps of insertions, updates
// and deletions by StageFacts, some aborted, holds the rows it should;
// the rows of earlier steps are never modified (readers keep them); and
// after every commit its blocks account for every row they hold, and
// every sealed block is at least half full.
func TestBlocksCompact(t *testing.T) {
	defer func(n int) { blockValues = n }(blockValues)
	blockValues = 16 // blocks of 8 rows of two columns
	s, err := NewSchema("T", []string{"k", "v"}, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	rapid.Check(t, func(rt *rapid.T) {
		tg := NewTarget(s)
		model := map[int64]int64{}
		type seen struct {
			row  value.Row
			want value.Row
		}
		var handed []seen // rows the target handed out, with their values then
		steps := rapid.IntRange(1, 60).Draw(rt, "steps")
		for st := 0; st < steps; st++ {
			var facts []Fact
			next := map[int64]int64{}
			for k, v := range model {
				next[k] = v
			}
			for _, k := range rapid.SliceOfDistinct(rapid.Int64Range(0, 40), func(k int64) int64 { return k }).Draw(rt, fmt.Sprint("keys", st)) {
				old, ok := next[k]
				f := Fact{Key: value.Row{value.NewInt(value.Int8, k)}}
				if ok {
					f.Before, f.Old = Present, value.Row{f.Key[0], value.NewInt(value.Int8, old)}
				}
				if !ok || rapid.IntRange(0, 3).Draw(rt, fmt.Sprint("keep", st, k)) > 0 {
					v := int64(st*100) + k
					f.After, f.New = true, value.Row{f.Key[0], value.NewInt(value.Int8, v)}
					next[k] = v
				} else {
					delete(next, k)
				}
				facts = append(facts, f)
			}
			slices.SortFunc(facts, func(a, b Fact) int { return value.CompareRows(a.Key, b.Key) })
			if err := tg.StageFacts(facts, func(_, after value.Row) {
				if after != nil {
					handed = append(handed, seen{after, slices.Clone(after)})
				}
			}); err != nil {
				rt.Fatal(err)
			}
			if rapid.IntRange(0, 4).Draw(rt, fmt.Sprint("abort", st)) == 0 {
				tg.Abort()
				continue
			}
			tg.Commit(nil)
			model = next
			checkBlocks(rt, tg, model)
		}
		for _, h := range handed {
			if value.CompareRows(h.row, h.want) != 0 {
				rt.Fatalf("a row handed out became %v, was %v", h.row, h.want)
			}
		}
	})
}

func checkBlocks(t *rapid.T, tg *Target, model map[int64]int64) {
	if tg.Len() != len(model) {
		t.Fatalf("%d rows, want %d", tg.Len(), len(model))
	}
	for k, v := range model {
		r, ok := tg.Get(value.Row{value.NewInt(value.Int8, k)})
		if !ok || value.CompareRows(r, value.Row{value.NewInt(value.Int8, k), value.NewInt(value.Int8, v)}) != 0 {
			t.Fatalf("key %d: %v, want %d", k, r, v)
		}
	}
	b := &tg.blocks
	live := map[int32]int32{}
	for slot := range tg.rows {
		id := tg.rows[slot].blk
		if id < 0 {
			continue
		}
		k := b.all[id]
		if k == nil {
			t.Fatalf("slot %d: block %d is free", slot, id)
		}
		if !slices.Contains(k.slots, int32(slot)) {
			t.Fatalf("slot %d: not among block %d's slots %v", slot, id, k.slots)
		}
		live[id]++
	}
	var slack int64
	for id, k := range b.all {
		if k == nil {
			continue
		}
		slack += int64(k.rows-k.live) * int64(k.width)
		if k.live != live[int32(id)] {
			t.Fatalf("block %d: live %d, holds %d", id, k.live, live[int32(id)])
		}
		if int32(id) != b.cur && 2*k.live < k.rows {
			t.Fatalf("sealed block %d: %d rows of %d live", id, k.live, k.rows)
		}
	}
	if slack != b.slack {
		t.Fatalf("slack %d, blocks leave %d values unused", b.slack, slack)
	}
}
