package bench

import (
	"strings"
	"testing"
	"time"
)

// TestSmoke runs the whole workload at N = 1,000 on deltaview (Go API and
// SQL) and SQLite with a handful of changes: every view is created,
// changed single and in batches, and checked against the recomputation.
// It needs no network and no PostgreSQL; the full comparison is the
// bench command.
func TestSmoke(t *testing.T) {
	opt := Options{LatencyTime: time.Millisecond, LatencyMin: 5, LatencyMax: 20,
		BatchTime: time.Millisecond, MaxBatchTime: 10 * time.Second, Batches: []int{1, 100}}
	for _, sys := range []System{&Deltaview{}, &Deltaview{SQL: true}, &SQLite{}} {
		t.Run(sys.Name(), func(t *testing.T) {
			defer sys.Close()
			var cells []Cell
			if err := Run(sys, 1000, Views, opt, func(c Cell) { cells = append(cells, c) }); err != nil {
				t.Fatal(err)
			}
			if len(cells) != len(Views) {
				t.Fatalf("%d cells, want %d", len(cells), len(Views))
			}
			for _, c := range cells {
				if c.Status != "ok" || c.Checks != 2 {
					t.Errorf("%s: %s (%s), %d checks", c.View, c.Status, c.Note, c.Checks)
				}
				if c.LatencySamples < 5 || len(c.Throughput) != 2 {
					t.Errorf("%s: %d latency samples, %d throughputs", c.View, c.LatencySamples, len(c.Throughput))
				}
			}
		})
	}
}

// TestExpectedCatchesWrongAnswers checks that the oracle's comparison
// notices a wrong row, a missing row and a wrong order.
func TestExpectedCatchesWrongAnswers(t *testing.T) {
	d := NewData(100)
	for _, v := range Views {
		want := d.Expected(v)
		if err := Compare(v, want, d.Expected(v)); err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		if err := Compare(v, want[1:], want); err == nil {
			t.Errorf("%s: a missing row passed", v.Name)
		}
		bad := append(Answer{append([]string{"-1"}, want[0][1:]...)}, want[1:]...)
		if err := Compare(v, bad, want); err == nil {
			t.Errorf("%s: a wrong row passed", v.Name)
		}
		if v.Ordered {
			swapped := append(Answer{want[1], want[0]}, want[2:]...)
			if err := Compare(v, swapped, want); err == nil {
				t.Errorf("%s: a wrong order passed", v.Name)
			}
		}
	}
}

// TestRandMatchesJavaScript pins the generator's first values: the
// JavaScript twin (bench/peers/js/workload.mjs) must produce the same.
func TestRandMatchesJavaScript(t *testing.T) {
	r := NewRand(Seed)
	got := []uint32{r.Next(), r.Next(), r.Next()}
	want := []uint32{532861239, 4118915445, 2390619527} // node: new Rand(SEED).next() ×3
	if got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestParallelSmoke runs the commit stream over the views of t at once at
// N = 1,000, with one worker and two in two rounds each, and checks that
// every round was measured and every view's answer is right at the end.
func TestParallelSmoke(t *testing.T) {
	var views []View
	for _, name := range ParallelViews {
		v, ok := ViewByName(name)
		if !ok {
			t.Fatalf("no view %q", name)
		}
		views = append(views, v)
	}
	opt := Options{BatchTime: time.Millisecond}
	p := RunParallel(1000, views, 100, 2, 2, opt)
	if p.Status != "ok" {
		t.Fatalf("%s: %s", p.Status, p.Note)
	}
	if len(p.One) != 2 || len(p.Many) != 2 || p.Speedup() <= 0 {
		t.Errorf("rounds %v and %v, speed-up %v", p.One, p.Many, p.Speedup())
	}
	r := Results{Sizes: []int{1000}, Parallel: []Parallel{p}}
	if md := r.markdown("x"); !strings.Contains(md, "## Several views on two cores") {
		t.Errorf("the page has no section of the stream")
	}
}
