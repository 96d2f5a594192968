package engine

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/deltaview/deltaview/internal/dataflow"
)

// A big step of one operator (a grouping's, dataflow.Splitter) may be
// shared out among the workers of a commit: the operator cuts its work
// in parts by key and runs them through its view's viewSplit. A view
// splits its step when it would otherwise be the commit's critical path:
// alone in its wave (it prepares on the committing goroutine, the parts
// on goroutines of their own), or expected to take an eighth more than a
// worker's even share of its wave. In a parallel wave the parts after the
// first are offered to the wave's workers, which take one before their
// next task, or wait for one while a view that splits is still
// preparing; a part that no worker took by the time its owner is done
// with its own, the owner runs itself. What a split step computes is the
// serial step's, by the operator's contract; only who computes it
// changes.

// splitMin is the fewest input rows of a step that splits, in units of
// the engine's parallelMin: four, the threshold of a table's batch
// consolidated in halves (1,024 rows by default), where the hand-offs'
// few microseconds are a small share of the step.
const splitMin = 4

// viewSplit is the dataflow.Split of one view's operators.
type viewSplit struct {
	e *Engine
	// ways is the number of parts of a step of min rows or more while the
	// view prepares a commit's step that is to split; 0 otherwise.
	ways, min int
	// wave is the parallel wave the view prepares in, nil outside one.
	wave *waveParts
	// lent is the time that other workers spent on the view's parts, in
	// ns, for its cost per row (taskCost) to stay that of the whole step.
	lent atomic.Int64
}

// newSplit gives a split to c's operators that can split their steps; nil
// when there is none.
func (e *Engine) newSplit(c *dataflow.Circuit) *viewSplit {
	var s *viewSplit
	for id := range c.Len() {
		if sp, ok := c.Node(dataflow.NodeID(id)).(dataflow.Splitter); ok {
			if s == nil {
				s = &viewSplit{e: e}
			}
			sp.SetSplit(s)
		}
	}
	return s
}

// start lets the view's step split in workers parts, its parts offered
// to wave (nil: run on goroutines of their own); it returns the undo.
func (s *viewSplit) start(workers int, wave *waveParts) func() {
	s.ways, s.min, s.wave = workers, max(splitMin*s.e.parallelMin, 1), wave
	return func() { s.ways, s.wave = 0, nil }
}

func (s *viewSplit) Ways(rows int) int {
	if s.ways < 2 || rows < s.min {
		return 1
	}
	return s.ways
}

func (s *viewSplit) Run(fns ...func()) {
	if s.wave != nil {
		s.wave.run(fns, &s.lent)
		return
	}
	s.e.inParallel("split", fns...)
}

// splitViews marks the tasks of the views of a wave on workers workers
// that split their steps, and returns their splits: a view whose
// expected time is more than the wave's on each worker, were the wave's
// tasks shared evenly, would be its critical path. By a margin of an
// eighth: a view about as long as its share is balanced by the others'
// tasks already, and its parts, taken by a worker between two of them,
// would leave it waiting for the last one.
func (e *Engine) splitViews(wave []matView, tasks []waveTask, workers int) []*viewSplit {
	var total int64
	for _, t := range tasks {
		total += t.est
	}
	var out []*viewSplit
	for i := range tasks {
		t := &tasks[i]
		if t.job != nil {
			continue
		}
		s := wave[t.view].meta().split
		if s != nil && t.rows >= max(splitMin*e.parallelMin, 1) && t.est*int64(workers) > total+total/8 {
			t.splits = true
			out = append(out, s)
		}
	}
	return out
}

// waveParts are the parts of split steps offered to a wave's workers.
type waveParts struct {
	mu    sync.Mutex
	cond  sync.Cond
	queue []*wavePart
	// open counts the wave's tasks that may still offer parts: the views
	// that split, until they have prepared.
	open int
}

// wavePart is one part of a split step.
type wavePart struct {
	fn      func()
	claimed atomic.Bool
	done    chan struct{}
	panics  any
	lent    *atomic.Int64 // its owner's, for the time of a part run by another worker
}

func newWaveParts(open int) *waveParts {
	w := &waveParts{open: open}
	w.cond.L = &w.mu
	return w
}

// run runs fns, offering all but the first to the wave's workers, and
// returns when all have run; a panic of one is raised here.
func (w *waveParts) run(fns []func(), lent *atomic.Int64) {
	parts := make([]*wavePart, len(fns)-1)
	for i := range parts {
		parts[i] = &wavePart{fn: fns[i+1], done: make(chan struct{}), lent: lent}
	}
	w.mu.Lock()
	w.queue = append(w.queue, parts...)
	w.mu.Unlock()
	w.cond.Broadcast()
	fns[0]()
	for _, p := range parts {
		if p.claimed.CompareAndSwap(false, true) {
			p.run(false)
		}
	}
	for _, p := range parts {
		<-p.done
		if p.panics != nil {
			panic(p.panics)
		}
	}
}

// run runs the part, claimed, keeping its panic for the step's owner;
// lent says that another worker than its owner runs it.
func (p *wavePart) run(lent bool) {
	t0 := time.Now()
	defer close(p.done)
	defer func() {
		if r := recover(); r != nil {
			p.panics = r
		}
		if lent {
			p.lent.Add(int64(time.Since(t0)))
		}
	}()
	p.fn()
}

// claim returns a part offered and not yet run, claimed, or nil.
func (w *waveParts) claim() *wavePart {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.queue) > 0 {
		p := w.queue[0]
		w.queue = w.queue[1:]
		if p.claimed.CompareAndSwap(false, true) {
			return p
		}
	}
	return nil
}

// await waits, for a worker without tasks, until a part is offered or no
// view that splits is still preparing; it reports whether a part is.
func (w *waveParts) await() bool {
	if w == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		// Parts their owners ran themselves stay offered until here.
		for len(w.queue) > 0 && w.queue[0].claimed.Load() {
			w.queue = w.queue[1:]
		}
		if len(w.queue) > 0 || w.open == 0 {
			return len(w.queue) > 0
		}
		w.cond.Wait()
	}
}

// prepared counts a view that splits as done.
func (w *waveParts) prepared() {
	w.mu.Lock()
	w.open--
	w.mu.Unlock()
	w.cond.Broadcast()
}
