package engine

import (
	"sync"
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/dataflow"
)

// A big step of one operator (a grouping's, dataflow.Splitter) may be
// shared out among the workers of a commit: the operator cuts its work
// in parts by key and runs them through the engine's splitter. In a
// parallel wave, the parts after the first are offered to the wave's
// workers, which take one before their next task, or wait for one while
// a view that may split is still preparing; a part no worker took by
// the time its operator is done with its own, the operator runs itself.
// Outside a wave (a commit whose one busy view prepares on the
// committing goroutine) the parts run on goroutines of their own. What
// a split step computes is the serial step's, by the operator's
// contract; only who computes it changes.

// splitter is the engine's dataflow.Split.
type splitter struct {
	// ways is the number of parts of a step of min rows or more, set
	// for a commit's prepare with two workers or more; 0 otherwise.
	ways, min int
	e         *Engine
	// wave is the parallel wave under way, nil outside one.
	wave *waveParts
}

// give gives the splitter to c's operators that can split their steps,
// and reports whether there is one.
func (s *splitter) give(c *dataflow.Circuit) bool {
	found := false
	for id := range c.Len() {
		if sp, ok := c.Node(dataflow.NodeID(id)).(dataflow.Splitter); ok {
			sp.SetSplit(s)
			found = true
		}
	}
	return found
}

// splitMin is the fewest input rows of a step that splits, in units of
// the engine's parallelMin: four, the threshold of a table's batch
// consolidated in halves (1,024 rows by default), where the hand-offs'
// few microseconds are a small share of the step.
const splitMin = 4

// start makes the splitter split the steps of a commit prepared with
// workers goroutines; it returns the undo.
func (s *splitter) start(e *Engine, workers int) func() {
	s.e, s.ways, s.min = e, workers, max(splitMin*e.parallelMin, 1)
	return func() { s.ways = 0 }
}

func (s *splitter) Ways(rows int) int {
	if s.ways < 2 || rows < s.min {
		return 1
	}
	return s.ways
}

func (s *splitter) Run(fns ...func()) {
	if s.wave != nil {
		s.wave.run(fns)
		return
	}
	s.e.inParallel("split", fns...)
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
}

func newWaveParts(open int) *waveParts {
	w := &waveParts{open: open}
	w.cond.L = &w.mu
	return w
}

// run runs fns, offering all but the first to the wave's workers, and
// returns when all have run; a panic of one is raised here.
func (w *waveParts) run(fns []func()) {
	parts := make([]*wavePart, len(fns)-1)
	for i := range parts {
		parts[i] = &wavePart{fn: fns[i+1], done: make(chan struct{})}
	}
	w.mu.Lock()
	w.queue = append(w.queue, parts...)
	w.mu.Unlock()
	w.cond.Broadcast()
	fns[0]()
	for _, p := range parts {
		if p.claimed.CompareAndSwap(false, true) {
			p.run()
		}
	}
	for _, p := range parts {
		<-p.done
		if p.panics != nil {
			panic(p.panics)
		}
	}
}

// run runs the part, claimed, keeping its panic for the step's owner.
func (p *wavePart) run() {
	defer close(p.done)
	defer func() {
		if r := recover(); r != nil {
			p.panics = r
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
// view that may split is still preparing; it reports whether a part is.
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

// prepared counts a view that may split as done.
func (w *waveParts) prepared() {
	w.mu.Lock()
	w.open--
	w.mu.Unlock()
	w.cond.Broadcast()
}

// splitting marks the tasks of the wave's views that may split their
// step and returns how many there are.
func (e *Engine) splitting(wave []matView, tasks []waveTask) int {
	n := 0
	for i := range tasks {
		t := &tasks[i]
		if t.job == nil && wave[t.view].meta().splits && e.split.Ways(t.rows) > 1 {
			t.splits = true
			n++
		}
	}
	return n
}
