package bench

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Parallel is one commit stream over several views maintained at once
// through the Go API, measured with one worker and with Workers workers
// (DB.SetWorkers) in alternating rounds on the same database: each
// round's figure is changes per second over a window of batches, as the
// throughput columns are measured.
type Parallel struct {
	N       int      `json:"n"`
	Views   []string `json:"views"`
	Batch   int      `json:"batch"`
	Workers int      `json:"workers"`
	// One and Many are each round's changes per second with one worker
	// and with Workers workers.
	One  []float64 `json:"one_worker_changes_per_sec"`
	Many []float64 `json:"workers_changes_per_sec"`
	// Status is "ok", "invalid" (a view's answer was wrong at the end) or
	// "error"; Note says why when it is not ok.
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

// ParallelViews are the views of the stream: every view of t alone, the
// four the project's target for two cores names.
var ParallelViews = []string{"filter", "groupby", "groupcount", "topk"}

// ParallelTarget is how much faster the stream must run on two workers
// than on one.
const ParallelTarget = 1.7

// Speedup is the median round with Workers workers over the median round
// with one.
func (p Parallel) Speedup() float64 {
	one, many := median(p.One), median(p.Many)
	if one == 0 {
		return 0
	}
	return many / one
}

// String is the rounds' figures and the speed-up, for a log line.
func (p Parallel) String() string {
	if p.Status != "ok" {
		return p.Status + ": " + p.Note
	}
	return fmt.Sprintf("one worker %s; %d workers %s changes/s: %.2f×", rates(p.One), p.Workers, rates(p.Many), p.Speedup())
}

// rates lists changes-per-second figures.
func rates(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmtRate(x)
	}
	return strings.Join(parts, ", ")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// RunParallel loads n rows into deltaview, creates views, replaces n/2
// rows untimed (a bulk load leaves the indexes' leaves full, and the
// first changes split them: that is the load's cost, not the stream's),
// then measures rounds of batches of batch changes with one worker and
// with workers, alternating which goes first, and checks every view's
// answer at the end. Each round runs one batch untimed, then batches for
// opt's window at n rows.
func RunParallel(n int, views []View, batch, workers, rounds int, opt Options) Parallel {
	p := Parallel{N: n, Batch: batch, Workers: workers, Status: "ok"}
	for _, v := range views {
		p.Views = append(p.Views, v.Name)
	}
	fail := func(status string, err error) Parallel {
		p.Status, p.Note = status, err.Error()
		return p
	}
	d := NewData(n)
	s := &Deltaview{}
	defer s.Close()
	if err := s.Load(d); err != nil {
		return fail("error", err)
	}
	for _, v := range views {
		if err := s.CreateView(v); err != nil {
			return fail("error", err)
		}
	}
	var buf []Change
	apply := func(size int) error {
		buf = d.BatchInto(buf, size)
		return s.Apply(views[0], buf)
	}
	for done := 0; done < n/2; done += batch {
		if err := apply(batch); err != nil {
			return fail("error", err)
		}
	}
	measure := func(w int) (float64, error) {
		s.DB().SetWorkers(w)
		if err := apply(batch); err != nil {
			return 0, err
		}
		var total time.Duration
		batches := 0
		for window := opt.batchWindow(n); batches == 0 || !windowDone(n, window, total, batches*batch); batches++ {
			buf = d.BatchInto(buf, batch)
			t := time.Now()
			if err := s.Apply(views[0], buf); err != nil {
				return 0, err
			}
			total += time.Since(t)
		}
		return float64(batches*batch) / total.Seconds(), nil
	}
	for r := range rounds {
		order := []int{1, workers}
		if r%2 == 1 {
			order = []int{workers, 1}
		}
		for _, w := range order {
			rate, err := measure(w)
			if err != nil {
				return fail("error", err)
			}
			if w == 1 {
				p.One = append(p.One, rate)
			} else {
				p.Many = append(p.Many, rate)
			}
		}
	}
	for _, v := range views {
		if err := check(s, d, v); err != nil {
			return fail("invalid", fmt.Errorf("%s at the end: %w", v.Name, err))
		}
	}
	return p
}
