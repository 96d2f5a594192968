package engine

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

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
// deltaview.workers does: 1 prepares them on the committing goroutine
// alone, 0 (the default) uses as many as the process may run at once
// (GOMAXPROCS). Whatever the workers, a commit of fewer rows than
// parallelCommit's threshold takes the one worker's path: handing work to
// another goroutine costs microseconds a commit, which slowed batches of
// 100 changes.
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

// parallelCommit reports whether a commit of rows rows (its log's
// entries, and two for each kept replacement: the old row and the new)
// may use the workers: with two or more, from 4·parallelMin rows (1,024
// by default, 512 updates or 1,024 inserts). Below, every path
// of the commit is the one worker's (no goroutine started, no hand-off,
// the views' commits before the commit returns, big commits of kept
// replacements in chunks), so that single changes and small batches pay
// nothing for the second core.
func (e *Engine) parallelCommit(rows int) bool {
	return rows >= 4*e.parallelMin && e.nWorkers() >= 2
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
// that stepped are then still to be aborted by the caller. With several
// workers, a shared index of a changed table stages the change beside the
// views' prepares and commits it as soon as the views that read it have
// prepared.
func (e *Engine) prepareViews(in *stepInput, stepped []matView) ([]matView, string, error) {
	e.mu.settle()
	// A clock's step outside a commit goes by the rows its views read.
	// Asked first: the workers' number (GOMAXPROCS, under the scheduler's
	// lock) costs more than the rest of a single change's wave.
	workers := 1
	if !(e.stepping && !e.bigCommit) && !e.tooSmallToSplit(in) {
		workers = e.nWorkers()
	}
	var jobs *indexJobs
	if workers >= 2 {
		jobs = e.earlyIndexes(in)
	}
	for _, wave := range e.viewWaves() {
		if workers < 2 || !e.worthSplitting(wave, in, jobs) {
			for _, v := range wave {
				var z zset.ZSet
				var ok bool
				var err error
				if s := v.meta().split; s != nil && workers >= 2 {
					// On the critical path: its big step splits.
					undo := s.start(workers, nil)
					z, ok, err = v.prepare(in)
					undo()
				} else {
					z, ok, err = v.prepare(in)
				}
				if e.ph != nil {
					e.ph.mark("prepare " + v.meta().name)
				}
				jobs.prepared(v)
				if e.ph != nil {
					e.ph.mark("index commit, early")
				}
				if err != nil {
					return stepped, v.meta().name, err
				}
				if !ok {
					continue
				}
				stepped = append(stepped, v)
				if len(z) > 0 {
					in.addViewDelta(v.meta().name, z)
				}
			}
			continue
		}
		e.ph.mark("schedule")
		res := e.prepareWave(wave, in, workers, jobs)
		jobs.repanic()
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
				in.addViewDelta(v.meta().name, res[i].z)
			}
		}
	}
	return stepped, "", nil
}

// indexJobs are the shared indexes of the tables a commit changes, each to
// stage the table's change on a worker of a parallel wave and to commit it
// once every view reading it has prepared: the views read an index as it
// was before the commit. This holds when the commit leaves its views'
// commits behind (behind.go) too: the B+tree inserts are the longest task
// of a commit, longer than the next transaction's calls beside which
// they would run, and in the waves they share the two cores with the
// views' prepares. What a job has not done by the last wave is left to
// the commit's end (sharedIndexes.stage and commit, or commitBehind).
type indexJobs struct {
	jobs    []*indexJob
	readers map[string][]*indexJob // a view's name → the jobs of the indexes it reads
}

type indexJob struct {
	si *sharedIndex
	d  zset.ZSet // the table's change
	// pending counts what the commit waits for: the readers still to
	// prepare, and the staging.
	pending atomic.Int32
	claimed atomic.Bool // a worker stages it
	staged  bool
	panics  any
}

// earlyIndexes returns the jobs of the commit in, nil when there are none.
func (e *Engine) earlyIndexes(in *stepInput) *indexJobs {
	var js *indexJobs
	for _, si := range e.shared.m {
		d := in.deltas[si.rel]
		if len(d) == 0 {
			continue
		}
		if _, ok := e.tables[si.rel]; !ok {
			continue
		}
		if js == nil {
			js = &indexJobs{readers: map[string][]*indexJob{}}
		}
		j := &indexJob{si: si, d: d}
		j.pending.Store(1)
		for _, v := range si.views {
			if rs := js.readers[v]; len(rs) > 0 && rs[len(rs)-1] == j {
				continue // a view reading the index twice
			}
			js.readers[v] = append(js.readers[v], j)
			j.pending.Add(1)
		}
		js.jobs = append(js.jobs, j)
	}
	return js
}

// prepared counts v as done with the indexes it reads (nil js: no jobs).
func (js *indexJobs) prepared(v matView) {
	if js == nil {
		return
	}
	for _, j := range js.readers[v.meta().name] {
		j.done()
	}
}

// unclaimed returns the jobs that no worker has staged.
func (js *indexJobs) unclaimed() []*indexJob {
	if js == nil {
		return nil
	}
	var out []*indexJob
	for _, j := range js.jobs {
		if !j.claimed.Load() {
			out = append(out, j)
		}
	}
	return out
}

// waiting returns the rows of the changes that no worker has staged.
func (js *indexJobs) waiting() int {
	n := 0
	for _, j := range js.unclaimed() {
		n += len(j.d)
	}
	return n
}

// stage stages the job's change in its index, once. On an error nothing
// is staged, and the commit's end meets the error again.
func (j *indexJob) stage() {
	if !j.claimed.CompareAndSwap(false, true) {
		return
	}
	t0 := time.Now()
	j.guard(func() {
		if d, err := j.si.stageChange(j.d); err == nil {
			j.staged, j.si.staged, j.si.applied = true, true, d
		}
	})
	j.si.stageCost.record(time.Since(t0), len(j.d))
	j.done()
}

// done counts one thing the job's commit waited for; the last one commits.
func (j *indexJob) done() {
	if j.pending.Add(-1) == 0 && j.staged {
		t0 := time.Now()
		j.guard(j.si.commitEarly)
		j.si.commitCost.record(time.Since(t0), len(j.d))
	}
}

// guard runs fn, keeping its panic for repanic.
func (j *indexJob) guard(fn func()) {
	defer func() {
		if p := recover(); p != nil {
			j.panics = p
		}
	}()
	fn()
}

// repanic raises on the committing goroutine a panic of a job.
func (js *indexJobs) repanic() {
	if js == nil {
		return
	}
	for _, j := range js.jobs {
		if j.panics != nil {
			panic(j.panics)
		}
	}
}

// worthSplitting reports whether at least two views of wave, or a view and
// a waiting index, read changes of the commit and the rows they read add
// up to e.parallelMin (defaultParallelMin unless a test set another).
func (e *Engine) worthSplitting(wave []matView, in *stepInput, jobs *indexJobs) bool {
	busy, rows := 0, 0
	for _, v := range wave {
		if n := inputRows(v, in); n > 0 {
			busy++
			rows += n
		}
	}
	if n := jobs.waiting(); n > 0 {
		busy++
		rows += n
	}
	return busy >= 2 && rows >= e.parallelMin
}

// tooSmallToSplit reports whether no wave of the commit in can be worth
// splitting (worthSplitting): the views all read tables, and the rows they
// and the shared indexes read, at most the commit's changes for each
// relation read, are fewer than parallelMin. A commit of a few changes
// then builds no jobs for the indexes and sums no wave's rows.
func (e *Engine) tooSmallToSplit(in *stepInput) bool {
	if in.changes == 0 || len(e.viewWaves()) != 1 || in.changes >= e.parallelMin {
		return false
	}
	reads := len(e.shared.list)
	for _, v := range e.order {
		reads += len(v.relations())
	}
	return in.changes*reads < e.parallelMin
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
// the committing one included, and returns each view's result at its index
// in wave. The tasks (the views' prepares, and the stagings of the shared
// indexes of the changed tables) are handed out longest path first: the
// task's expected time (taskCost), plus for a staging and for a view that
// reads an index the commit of the index, which waits for both. So the
// longest view starts at once on one worker while the others share the
// rest, and an index commits beside the views that do not read it. A
// worker that finishes the last of what an index's commit waits for
// commits it.
func (e *Engine) prepareWave(wave []matView, in *stepInput, workers int, jobs *indexJobs) []prepared {
	res := make([]prepared, len(wave))
	tasks := waveTasks(wave, in, jobs)
	n := min(workers, len(tasks))
	var parts *waveParts
	if split := e.splitViews(wave, tasks, workers); len(split) > 0 {
		parts = newWaveParts(len(split))
		n = workers
		for _, s := range split {
			defer s.start(workers, parts)()
		}
	}
	wc := e.newWaveClock("views", n)
	var next atomic.Int64
	work := func(w int) {
		t := wc.now()
		for {
			if p := parts.claim(); p != nil {
				p.run(true)
				if wc != nil {
					t = wc.task(w, "split", t)
				}
				continue
			}
			k := int(next.Add(1)) - 1
			if k >= len(tasks) {
				if parts.await() {
					continue
				}
				return
			}
			if j := tasks[k].job; j != nil {
				j.stage()
				if wc != nil {
					t = wc.task(w, "stage "+j.si.rel, t)
				}
				continue
			}
			i := tasks[k].view
			m := wave[i].meta()
			t0 := time.Now()
			func() {
				defer func() {
					if p := recover(); p != nil {
						res[i].panics = p
					}
				}()
				res[i].z, res[i].ok, res[i].err = wave[i].prepare(in)
			}()
			d := time.Since(t0)
			if tasks[k].splits {
				d += time.Duration(m.split.lent.Swap(0))
			}
			m.prepareCost.record(d, tasks[k].rows)
			if wc != nil {
				t = wc.task(w, "prepare "+m.name, t)
			}
			if tasks[k].splits {
				parts.prepared()
			}
			jobs.prepared(wave[i])
			if wc != nil {
				t = wc.task(w, "index commit, early", t)
			}
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < n; w++ {
		wg.Add(1)
		e.relay.goOn(func() {
			defer wg.Done()
			defer wc.lock()()
			work(w)
		})
	}
	work(0)
	wg.Wait()
	e.endWave(wc, "wave overhead")
	return res
}

// waveTask is one task of a parallel wave: staging an index's change
// (job), or preparing the view at index view of the wave, which reads rows
// rows of the commit and, with reads, a shared index that the commit
// changes; est is the task's expected time, path the time expected from
// its start to the end of what waits for it; splits, that the view's
// step splits (parallel_split.go).
type waveTask struct {
	job        *indexJob
	view, rows int
	reads      bool
	est, path  int64
	splits     bool
}

// waveTasks returns the tasks of a wave, longest path first; tasks of
// equal paths (none measured yet) go stagings first, then the views that
// read an index, then the others, each by their rows, most first.
func waveTasks(wave []matView, in *stepInput, jobs *indexJobs) []waveTask {
	var tasks []waveTask
	for _, j := range jobs.unclaimed() {
		rows := len(j.d)
		est := j.si.stageCost.estimate(rows) + j.si.commitCost.estimate(rows)
		tasks = append(tasks, waveTask{job: j, rows: rows, path: est, est: est})
	}
	staged := len(tasks)
	for i, v := range wave {
		m := v.meta()
		t := waveTask{view: i, rows: inputRows(v, in)}
		t.est = m.prepareCost.estimate(t.rows)
		t.path = t.est
		if jobs != nil {
			var then int64
			for _, j := range jobs.readers[m.name] {
				t.reads = true
				then = max(then, j.si.commitCost.estimate(len(j.d)))
			}
			t.path += then
		}
		tasks = append(tasks, t)
	}
	slices.SortStableFunc(tasks[staged:], func(a, b waveTask) int {
		if a.reads != b.reads {
			if a.reads {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.rows, a.rows)
	})
	slices.SortStableFunc(tasks, func(a, b waveTask) int { return cmp.Compare(b.path, a.path) })
	return tasks
}

// endWave adds a wave to the trace, and charges what the committing
// goroutine did in it beside its tasks to a phase ("": to the phase
// under way).
func (e *Engine) endWave(wc *waveClock, phase string) {
	if wc == nil {
		return
	}
	wc.end()
	if e.ph != nil {
		e.ph.last += wc.busy[0]
		if phase != "" {
			e.ph.mark(phase)
		}
	}
}

// consolidate consolidates a table's batch of the commit, its passes over
// the rows shared out between two goroutines when the commit may use the
// workers (parallelCommit) and the batch has 4·parallelMin entries or
// more (1,024 by default: handing a half over costs microseconds). The result is
// zset.Consolidate's. Every view waits for it: it is the commit's serial
// path.
func (e *Engine) consolidate(z zset.ZSet, pre []zset.RowPrefix) zset.ZSet {
	switch {
	case e.bigCommit && len(z) >= 4*e.parallelMin:
		return zset.ConsolidateOn(z, pre, func(fns ...func()) { e.inParallel("consolidate", fns...) })
	case pre != nil:
		return zset.ConsolidatePrefixed(z, pre)
	}
	return zset.Consolidate(z)
}

// inParallel runs fns at once, the first on the calling goroutine, and
// returns when all have; a panic of one is raised on the caller. The
// trace counts each as a task called task.
func (e *Engine) inParallel(task string, fns ...func()) {
	wc := e.newWaveClock(task, len(fns))
	panics := make([]any, len(fns))
	run := func(w int) {
		defer func() {
			if p := recover(); p != nil {
				panics[w] = p
			}
		}()
		t := wc.now()
		fns[w]()
		wc.task(w, task, t)
	}
	var wg sync.WaitGroup
	for w := 1; w < len(fns); w++ {
		wg.Add(1)
		e.relay.goOn(func() {
			defer wg.Done()
			defer wc.lock()()
			run(w)
		})
	}
	run(0)
	wg.Wait()
	e.endWave(wc, "")
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}
