package engine

import (
	"runtime"
	"sync"
)

// ScheduleTrace keeps, while an engine traces its commits, how much time
// each part of a commit took on which goroutine, by a clock the caller
// gives (a per-thread CPU clock, so that the figures do not depend on what
// else the machine runs). From them follow the commit stream's work (all
// of it, as one goroutine would do it) and its critical path (the serial
// parts plus, for each parallel wave, its busiest worker): their ratio is
// the speed-up the schedule allows, whatever the load.
//
// While tracing, the goroutines of a parallel wave are locked to their
// threads; the committing goroutine must be locked to its thread by the
// caller. Tracing costs a clock reading per task and per phase.
type ScheduleTrace struct {
	// Clock returns the calling thread's CPU time in nanoseconds.
	Clock func() int64

	Commits int
	// Commit is the committing goroutine's time in commits, waves
	// included; InWaves, its part of the parallel waves' work.
	Commit, InWaves int64
	// Waves is the number of waves prepared in parallel; WaveWork, the
	// time of every task of those waves; WaveSpan, the sum over them of
	// their busiest worker's time.
	Waves              int
	WaveWork, WaveSpan int64
	// ByWave is, by the waves' kind ("views" for the views' prepares,
	// else the task's name of a wave of equal parts, "apply <table>",
	// "consolidate", "split"), their work and their busiest workers' sum:
	// where the waves' uneven shares lose their time.
	ByWave map[string]traceMark
	// Behind is the time of the views' and indexes' commits left to run
	// past their commits' ends (behind.go); Waited, how long the
	// committing thread would have waited for them had it run alone on
	// its core.
	Behind, Waited int64
	// Parts is the time by part: "prepare <view>", "stage <index>",
	// "commit <index>" for the tasks of waves and of serial commits, and
	// the serial phases of a commit by name.
	Parts map[string]int64

	mu sync.Mutex
}

// SetScheduleTrace makes the engine record its commits in tr, or stop
// with nil.
func (e *Engine) SetScheduleTrace(tr *ScheduleTrace) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if tr != nil && tr.Parts == nil {
		tr.Parts = map[string]int64{}
	}
	if tr != nil && tr.ByWave == nil {
		tr.ByWave = map[string]traceMark{}
	}
	e.trace = tr
}

// traceMark is a point of the committing thread's trace, or the span
// between two: its work and its critical path so far (its serial time
// plus its waves' work, or their busiest workers).
type traceMark struct {
	work, span int64
}

// Work and Span are a wave kind's work and its busiest workers' sum
// (ByWave).
func (m traceMark) Work() int64 { return m.work }
func (m traceMark) Span() int64 { return m.span }

// mark returns the point the committing thread is at.
func (tr *ScheduleTrace) mark() traceMark {
	t := tr.Clock()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	serial := t - tr.InWaves
	return traceMark{work: serial + tr.WaveWork, span: serial + tr.WaveSpan}
}

// since returns the work and the critical path of the committing thread
// since m.
func (tr *ScheduleTrace) since(m traceMark) traceMark {
	now := tr.mark()
	return traceMark{work: now.work - m.work, span: now.span - m.span}
}

// add adds d to a part.
func (tr *ScheduleTrace) add(part string, d int64) {
	tr.mu.Lock()
	tr.Parts[part] += d
	tr.mu.Unlock()
}

// phases times the serial phases of one commit on the committing
// goroutine: mark charges the time since the last mark to a phase. A nil
// *phases (no trace) does nothing.
type phases struct {
	tr          *ScheduleTrace
	start, last int64
}

func (e *Engine) startPhases() *phases {
	if e.trace == nil {
		return nil
	}
	t := e.trace.Clock()
	return &phases{tr: e.trace, start: t, last: t}
}

func (p *phases) mark(phase string) {
	if p != nil { // small enough to be inlined: no call without a trace
		p.markNow(phase)
	}
}

func (p *phases) markNow(phase string) {
	t := p.tr.Clock()
	p.tr.add(phase, t-p.last)
	p.last = t
}

// end counts the commit.
func (p *phases) end() {
	if p == nil {
		return
	}
	p.mark("other")
	p.tr.mu.Lock()
	p.tr.Commits++
	p.tr.Commit += p.last - p.start
	p.tr.mu.Unlock()
}

// waveClock times the tasks of one parallel wave, by worker.
type waveClock struct {
	tr   *ScheduleTrace
	kind string  // the wave's kind (ByWave)
	busy []int64 // by worker, 0 the committing goroutine
}

func (e *Engine) newWaveClock(kind string, workers int) *waveClock {
	if e.trace == nil {
		return nil
	}
	return &waveClock{tr: e.trace, kind: kind, busy: make([]int64, workers)}
}

// lock locks a worker goroutine to its thread while tracing, so that the
// thread's clock is the goroutine's; it returns the unlock.
func (w *waveClock) lock() func() {
	if w == nil {
		return func() {}
	}
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}

func (w *waveClock) now() int64 {
	if w == nil {
		return 0
	}
	return w.tr.Clock()
}

// task charges the time since t0 to a worker and a part, and returns the
// time now.
func (w *waveClock) task(worker int, part string, t0 int64) int64 {
	if w == nil {
		return 0
	}
	t := w.tr.Clock()
	w.busy[worker] += t - t0
	w.tr.add(part, t-t0)
	return t
}

// end adds the wave to the trace.
func (w *waveClock) end() {
	if w == nil {
		return
	}
	var sum, most int64
	for _, b := range w.busy {
		sum += b
		most = max(most, b)
	}
	w.tr.mu.Lock()
	w.tr.Waves++
	w.tr.WaveWork += sum
	w.tr.WaveSpan += most
	w.tr.InWaves += w.busy[0]
	bw := w.tr.ByWave[w.kind]
	w.tr.ByWave[w.kind] = traceMark{work: bw.work + sum, span: bw.span + most}
	w.tr.mu.Unlock()
}
