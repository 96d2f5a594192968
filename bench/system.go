package bench

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"
)

// System is one engine under test, in-process (or driving a server it
// owns). The runner calls Load once, then for each view CreateView, Apply
// many times, Answer, and DropView; Close at the end.
type System interface {
	// Name is the system's label in the results.
	Name() string
	// Load creates the tables t and u and fills them from d. Untimed.
	Load(d *Data) error
	// CreateView makes v available: a maintained view, or for a re-query
	// system the indexes that serve v's query best, then a first
	// evaluation. Timed as the cold start.
	CreateView(v View) error
	// Apply applies batch as one transaction and brings v's answer up to
	// date: a maintained view is updated by the engine; a re-query system
	// runs v's query again and reads every row.
	Apply(v View, batch []Change) error
	// Answer returns v's current answer, without applying anything.
	Answer(v View) (Answer, error)
	// DropView removes what CreateView made.
	DropView(v View) error
	Close() error
}

// MemoryReporter is implemented by systems with their own account of the
// memory a view holds.
type MemoryReporter interface {
	// Memory returns the bytes v holds and how they were counted.
	Memory(v View) (bytes int64, method string, err error)
}

// Unsupported is returned by CreateView when a system cannot run a view
// at all; the reason goes into the results.
type Unsupported struct{ Reason string }

func (u *Unsupported) Error() string { return "unsupported: " + u.Reason }

// Options bound the time each measurement takes.
type Options struct {
	LatencyTime  time.Duration // keep measuring single changes this long…
	LatencyMin   int           // …and at least this many
	LatencyMax   int           // but stop after this many
	BatchTime    time.Duration // time per throughput measurement (at least one batch), per windowRows rows of t
	MaxBatchTime time.Duration // a batch projected to take longer is not run
	Batches      []int
}

// windowRows is how many rows of t one BatchTime of batches stands for:
// at N above it the window grows in proportion. A garbage-collected
// system's heap grows with N, and so does the number of changes between
// two of its collections (about a million at 1M rows for deltaview): a
// window of a fixed length would hold one collection or none, and its
// figure would say where the collections fell (docs/performance.md).
const windowRows = 250_000

// batchWindow is the time spent on one batch size's measurement at n rows.
func (o Options) batchWindow(n int) time.Duration {
	return max(o.BatchTime, o.BatchTime*time.Duration(n/windowRows))
}

// A window of batches holds at least minChangesPerRow·N changes when the
// system is fast enough to apply them in maxWindowFactor windows: at 1M
// rows deltaview collects about every 1.2M changes, so a window of 2 s
// held 0.8M changes of its join's batches of 10,000 (no collection or
// one, a third of the figure either way) and 2M of top-k's. The rule is
// the same for every system and batch size (bench/peers/js/workload.mjs
// is its twin); a system too slow to reach it keeps the window's length.
const (
	minChangesPerRow = 3
	maxWindowFactor  = 4
)

// windowDone reports whether a batch size's measurement may stop after
// changes applied in total: the window is over and it either holds
// minChangesPerRow·n changes or would not within maxWindowFactor windows
// at the rate so far (nor past maxWindowFactor windows in any case).
func windowDone(n int, window, total time.Duration, changes int) bool {
	if total < window {
		return false
	}
	want := minChangesPerRow * n
	if changes >= want || total >= maxWindowFactor*window {
		return true
	}
	// At the rate so far, want changes take total·want/changes.
	return float64(total)*float64(want)/float64(changes) > float64(maxWindowFactor*window)
}

// DefaultOptions fit the default run (N = 10k and 100k, every system) in
// well under 15 minutes on 2 cores.
var DefaultOptions = Options{
	LatencyTime:  time.Second,
	LatencyMin:   5,
	LatencyMax:   3000,
	BatchTime:    500 * time.Millisecond,
	MaxBatchTime: 8 * time.Second,
	Batches:      []int{1, 100, 10_000},
}

// Cell is the result of one system on one view at one N.
type Cell struct {
	System string `json:"system"`
	View   string `json:"view"`
	N      int    `json:"n"`
	// Status is "ok", "invalid" (the answer was wrong), "unsupported"
	// (Note says why) or "error".
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`

	ColdStartMs     float64 `json:"cold_start_ms"`
	LatencyMedianUs float64 `json:"latency_median_us"`
	LatencyP99Us    float64 `json:"latency_p99_us"`
	LatencySamples  int     `json:"latency_samples"`
	Throughput      []Thru  `json:"throughput"`
	// MemoryBytes is the view's memory as MemoryMethod counts it, never
	// negative. When the method could give no sound figure (a heap that
	// shrank across the view's creation, say), MemoryUnmeasurable is set,
	// MemoryBytes is 0 and MemoryMethod ends with the reason.
	MemoryBytes        int64  `json:"memory_bytes"`
	MemoryMethod       string `json:"memory_method"`
	MemoryUnmeasurable bool   `json:"memory_unmeasurable,omitempty"`
	// HeapDeltaBytes is the Go heap's growth (live bytes after a GC)
	// across the view's creation, for systems inside this process.
	HeapDeltaBytes int64 `json:"heap_delta_bytes,omitempty"`
	// Checks counts the comparisons of the answer with a recomputation
	// (after creation and at the end) that passed.
	Checks int `json:"checks"`
}

// Thru is the throughput with batches of Batch changes, one transaction
// each.
type Thru struct {
	Batch         int     `json:"batch"`
	ChangesPerSec float64 `json:"changes_per_sec,omitempty"`
	Batches       int     `json:"batches,omitempty"`
	// Seconds is the time the batches took, the untimed warm-up batch
	// aside.
	Seconds float64 `json:"seconds,omitempty"`
	Note    string  `json:"note,omitempty"`
}

// Run measures sys on every view in views at size n, calling report
// after each cell.
func Run(sys System, n int, views []View, opt Options, report func(Cell)) error {
	d := NewData(n)
	if err := sys.Load(d); err != nil {
		return fmt.Errorf("%s: load N=%d: %w", sys.Name(), n, err)
	}
	for _, v := range views {
		report(runView(sys, d, v, opt))
	}
	return nil
}

func runView(sys System, d *Data, v View, opt Options) Cell {
	c := Cell{System: sys.Name(), View: v.Name, N: d.N, Status: "ok"}
	fail := func(status string, err error) Cell {
		c.Status, c.Note = status, err.Error()
		var u *Unsupported
		if errors.As(err, &u) {
			c.Status, c.Note = "unsupported", u.Reason
		}
		return c
	}
	heap0 := liveHeap()
	start := time.Now()
	if err := sys.CreateView(v); err != nil {
		return fail("error", err)
	}
	c.ColdStartMs = ms(time.Since(start))
	c.HeapDeltaBytes = liveHeap() - heap0
	defer sys.DropView(v)
	if mr, ok := sys.(MemoryReporter); ok {
		b, method, err := mr.Memory(v)
		if err != nil {
			return fail("error", err)
		}
		c.MemoryBytes, c.MemoryMethod = b, method
	} else {
		c.MemoryBytes, c.MemoryMethod = c.HeapDeltaBytes, "Go heap delta"
	}
	c.checkMemory()
	if err := check(sys, d, v); err != nil {
		return fail("invalid", fmt.Errorf("after creation: %w", err))
	}
	c.Checks++

	// Warm up, then time single changes. The batches are drawn into one
	// buffer (Data.BatchInto).
	var buf []Change
	for range 3 {
		buf = d.BatchInto(buf, 1)
		if err := sys.Apply(v, buf); err != nil {
			return fail("error", err)
		}
	}
	var lat []time.Duration
	begin := time.Now()
	for len(lat) < opt.LatencyMax && (len(lat) < opt.LatencyMin || time.Since(begin) < opt.LatencyTime) {
		buf = d.BatchInto(buf, 1)
		t := time.Now()
		if err := sys.Apply(v, buf); err != nil {
			return fail("error", err)
		}
		lat = append(lat, time.Since(t))
	}
	slices.Sort(lat)
	c.LatencySamples = len(lat)
	c.LatencyMedianUs = us(lat[len(lat)/2])
	c.LatencyP99Us = us(lat[min(len(lat)-1, len(lat)*99/100)])

	perChange := lat[len(lat)/2]
	for _, size := range opt.Batches {
		th := Thru{Batch: size}
		if projected := perChange * time.Duration(size); size > 1 && projected > opt.MaxBatchTime {
			th.Note = fmt.Sprintf("not run: one batch projected at %.0f s", projected.Seconds())
			c.Throughput = append(c.Throughput, th)
			continue
		}
		if size > 1 {
			// One batch untimed, as three single changes are before
			// the latencies: a batch size's first batch grows the
			// buffers that the ones after it reuse.
			buf = d.BatchInto(buf, size)
			if err := sys.Apply(v, buf); err != nil {
				return fail("error", err)
			}
		}
		var total time.Duration
		for window := opt.batchWindow(d.N); th.Batches == 0 || !windowDone(d.N, window, total, th.Batches*size); {
			buf = d.BatchInto(buf, size)
			t := time.Now()
			if err := sys.Apply(v, buf); err != nil {
				return fail("error", err)
			}
			total += time.Since(t)
			th.Batches++
		}
		th.ChangesPerSec = float64(th.Batches*size) / total.Seconds()
		th.Seconds = total.Seconds()
		perChange = total / time.Duration(th.Batches*size)
		c.Throughput = append(c.Throughput, th)
	}
	if err := check(sys, d, v); err != nil {
		return fail("invalid", fmt.Errorf("at the end: %w", err))
	}
	c.Checks++
	return c
}

// checkMemory marks c's memory unmeasurable when the figure is negative:
// a heap delta below zero says that more was freed than the view added
// (or a method went wrong), not how much the view holds.
func (c *Cell) checkMemory() {
	if c.MemoryBytes >= 0 {
		return
	}
	c.MemoryUnmeasurable = true
	c.MemoryMethod = fmt.Sprintf("%s: unmeasurable, it came out below zero (%s less after the view's creation than before)",
		c.MemoryMethod, fmtBytes(-c.MemoryBytes))
	c.MemoryBytes = 0
}

func check(sys System, d *Data, v View) error {
	got, err := sys.Answer(v)
	if err != nil {
		return err
	}
	return Compare(v, got, d.Expected(v))
}

// liveHeap returns the Go heap's live bytes after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
