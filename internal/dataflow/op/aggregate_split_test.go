package op

import (
	"fmt"
	"sync"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/zset"
	"pgregory.net/rapid"
)

// goSplit splits every step of two rows or more in ways parts, each on a
// goroutine of its own.
type goSplit struct {
	ways  int
	steps int // steps that split
}

func (s *goSplit) Ways(rows int) int {
	s.steps++
	return s.ways
}

func (s *goSplit) Run(fns ...func()) {
	var wg sync.WaitGroup
	for _, fn := range fns[1:] {
		wg.Go(fn)
	}
	fns[0]()
	wg.Wait()
}

// TestGroupBySplit steps random batches through a grouping that splits
// every step in two or three parts, each on a goroutine, and through one
// that does not: their deltas are the same entry for entry and in order,
// their errors the same, and their states print the same after each
// step, committed or aborted. Keys are an integer (the map by integer),
// a text and both (the map of encodings); the aggregates are all those of
// the twin test but MIN and MAX over an index, which do not split.
func TestGroupBySplit(t *testing.T) {
	for _, keys := range [][]expr.Expr{{kCol}, {sCol}, {kCol, sCol}} {
		t.Run(fmt.Sprint(keys), func(t *testing.T) {
			var splits int
			rapid.Check(t, func(rt *rapid.T) { splits += groupBySplit(rt, keys) })
			if splits == 0 {
				t.Fatal("no step split")
			}
		})
	}
}

func groupBySplit(rt *rapid.T, keys []expr.Expr) int {
	var aggs []Aggregate
	for _, a := range testAggs(keys) {
		if a.Index == nil {
			aggs = append(aggs, a)
		}
	}
	sp := &goSplit{ways: rapid.IntRange(2, 3).Draw(rt, "ways")}
	var gs [2]*GroupBy
	var cs [2]*dataflow.Circuit
	var nodes [2]dataflow.NodeID
	for i := range gs {
		g, err := NewGroupBy(keys, aggs)
		if err != nil {
			rt.Fatalf("%v", err)
		}
		if i == 1 {
			g.SetSplit(sp)
		}
		gs[i], cs[i] = g, dataflow.NewCircuit()
		nodes[i] = cs[i].Add(g, cs[i].Input("t"))
	}
	var input zset.ZSet
	drawRow := func(label string) zset.Entry {
		return zset.Entry{Row: aggRow(rapid.Int64Range(0, 12).Draw(rt, label+".k"), rapid.Int64Range(-1, 40).Draw(rt, label+".v"),
			rapid.SampledFrom(twinTexts).Draw(rt, label+".s"), rapid.SampledFrom(twinNumerics).Draw(rt, label+".n"),
			rapid.SampledFrom(twinFloats).Draw(rt, label+".f")), W: 1}
	}
	for s := range rapid.IntRange(1, 12).Draw(rt, "steps") {
		var batch zset.ZSet
		for range rapid.IntRange(0, 80).Draw(rt, "inserts") {
			batch = append(batch, drawRow("ins"))
		}
		for range rapid.IntRange(0, len(input)).Draw(rt, "deletes") {
			e := input[rapid.IntRange(0, len(input)-1).Draw(rt, "del")]
			batch = append(batch, zset.Entry{Row: e.Row, W: -1})
		}
		batch = zset.Consolidate(batch)
		// Don't retract more than is there.
		for _, e := range zset.Add(input, batch) {
			if e.W < 0 {
				batch = zset.Add(batch, zset.ZSet{{Row: e.Row, W: -e.W}})
			}
		}
		switch rapid.IntRange(0, 9).Draw(rt, "bad") {
		case 0: // more retractions than a group holds
			batch = zset.Add(batch, zset.ZSet{{Row: aggRow(11, 1, "b c", "", 1), W: -1000}})
		case 1: // an expression that fails
			batch = zset.Add(batch, zset.ZSet{{Row: aggRow(13, 1, "a", "", 1), W: 1}})
		}
		var outs [2]string
		var errs [2]error
		for i, c := range cs {
			errs[i] = c.Prepare(map[string]zset.ZSet{"t": batch})
			if errs[i] == nil {
				outs[i] = fmt.Sprint(c.Output(nodes[i]))
			}
		}
		if fmt.Sprint(errs[0]) != fmt.Sprint(errs[1]) || outs[0] != outs[1] {
			rt.Fatalf("step %d: one goroutine gave %v\n%s\nsplit in %d: %v\n%s", s, errs[0], outs[0], sp.ways, errs[1], outs[1])
		}
		if gs[1].StagedRefills() != gs[0].StagedRefills() {
			rt.Fatalf("step %d: %d refills staged, %d split", s, gs[0].StagedRefills(), gs[1].StagedRefills())
		}
		if errs[0] == nil {
			commit := rapid.IntRange(0, 4).Draw(rt, "abort") > 0
			for _, c := range cs {
				if commit {
					c.Commit()
				} else {
					c.Abort()
				}
			}
			if commit {
				input = zset.Add(input, batch)
			}
		}
		if a, b := gs[0].String(), gs[1].String(); a != b || gs[0].State() != gs[1].State() || gs[0].Refills() != gs[1].Refills() {
			rt.Fatalf("step %d: states differ:\n%s\nsplit:\n%s", s, a, b)
		}
	}
	return sp.steps
}
