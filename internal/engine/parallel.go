package engine

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/zset"
)

// Views prepare on several goroutines within one commit. A commit's views
// fall into waves: runs of consecutive views in creation order, none of
// which reads a view of its own wave. The views of a wave read only tables
// and views of earlier waves, whose deltas are known when the wave starts,
// and each keeps state of its own (the indexes several views share are
// read during a step and staged after it), so they prepare independently
// and their deltas are those of the serial order. What is shared is read
// only: the batches of the commit, which are consolidated already, and the
// shared indexes.

// defaultParallelMin is the number of input rows below which a wave
// prepares on the committing goroutine alone: handing views to other
// goroutines costs microseconds, as much as a small step.
const defaultParallelMin = 256

// SetWorkers sets how many goroutines prepare a commit's views, as SET
// deltaview.workers does: 1 (the default) prepares them on the committing
// goroutine alone, 0 uses as many as the process may run at once
// (GOMAXPROCS). One is the default because a commit's serial work (the
// tables' changes, the shared indexes) dominates on the benchmarks
// measured so far, and two workers slowed batches of 100 changes.
func (e *Engine) SetWorkers(n int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.workers = max(n, 0)
}

// nWorkers is the number of goroutines a wave may use.
func (e *Engine) nWorkers() int {
	if e.workers > 0 {
		return e.workers
	}
	return runtime.GOMAXPROCS(0)
}

// viewWaves returns the views in waves, computed again after the views
// changed.
func (e *Engine) viewWaves() [][]matView {
	if e.waves != nil || len(e.order) == 0 {
		return e.waves
	}
	var waves [][]matView
	in := map[string]bool{} // the names of the views of the open wave
	start := 0
	for i, v := range e.order {
		for _, r := range v.relations() {
			if in[r] {
				waves = append(waves, e.order[start:i])
				clear(in)
				start = i
				break
			}
		}
		in[v.meta().name] = true
	}
	e.waves = append(waves, e.order[start:])
	return e.waves
}

// prepared is one view's prepare in a parallel wave.
type prepared struct {
	z      zset.ZSet
	ok     bool
	err    error
	panics any
}

// prepareViews prepares every view for the commit in, in waves, and adds
// each view's delta to in.deltas for the views after it. It returns the
// views that stepped, appended to stepped, and on failure the name of the
// first view (in creation order) that failed and its error; the views
// that stepped are then still to be aborted by the caller.
func (e *Engine) prepareViews(in *stepInput, stepped []matView) ([]matView, string, error) {
	workers := e.nWorkers()
	for _, wave := range e.viewWaves() {
		if workers < 2 || len(wave) < 2 || !e.worthSplitting(wave, in) {
			for _, v := range wave {
				z, ok, err := v.prepare(in)
				if err != nil {
					return stepped, v.meta().name, err
				}
				if !ok {
					continue
				}
				stepped = append(stepped, v)
				if len(z) > 0 {
					in.deltas[v.meta().name] = z
				}
			}
			continue
		}
		res := e.prepareWave(wave, in, workers)
		var failed string
		var failure error
		for i, v := range wave {
			r := &res[i]
			if r.panics != nil {
				panic(r.panics)
			}
			if r.ok {
				stepped = append(stepped, v)
			}
			if r.err != nil && failure == nil {
				failed, failure = v.meta().name, r.err
			}
		}
		if failure != nil {
			return stepped, failed, failure
		}
		for i, v := range wave {
			if len(res[i].z) > 0 {
				in.deltas[v.meta().name] = res[i].z
			}
		}
	}
	return stepped, "", nil
}

// worthSplitting reports whether at least two views of wave read changes
// of the commit and the rows they read add up to e.parallelMin
// (defaultParallelMin unless a test set another).
func (e *Engine) worthSplitting(wave []matView, in *stepInput) bool {
	busy, rows := 0, 0
	for _, v := range wave {
		if n := inputRows(v, in); n > 0 {
			busy++
			rows += n
		}
	}
	return busy >= 2 && rows >= e.parallelMin
}

// inputRows is the number of rows of the commit that v reads.
func inputRows(v matView, in *stepInput) int {
	n := 0
	for _, r := range v.relations() {
		n += len(in.deltas[r]) + len(in.events[r])
	}
	return n
}

// prepareWave prepares the views of one wave on up to workers goroutines,
// the committing one included, the views with most input first, and
// returns each view's result at its index in wave.
func (e *Engine) prepareWave(wave []matView, in *stepInput, workers int) []prepared {
	res := make([]prepared, len(wave))
	order := make([]int, len(wave))
	size := make([]int, len(wave))
	for i, v := range wave {
		order[i], size[i] = i, inputRows(v, in)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size[b], size[a]) })
	var next atomic.Int64
	work := func() {
		for {
			k := int(next.Add(1)) - 1
			if k >= len(order) {
				return
			}
			i := order[k]
			func() {
				defer func() {
					if p := recover(); p != nil {
						res[i].panics = p
					}
				}()
				res[i].z, res[i].ok, res[i].err = wave[i].prepare(in)
			}()
		}
	}
	var wg sync.WaitGroup
	for range min(workers, len(wave)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return res
}
