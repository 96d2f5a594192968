package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/deltaview/deltaview"
)

// progressDelay is how long work runs before its progress bar appears:
// quick work shows none.
const progressDelay = time.Second

// progress draws the database's progress reports (cold starts, COPY) as a
// bar with rate and ETA on a terminal; it stays silent when w is not one.
type progress struct {
	w   io.Writer
	op  string
	bar *progressbar.ProgressBar
}

// newProgress returns the database's progress function for w, or nil when
// w is not a terminal.
func newProgress(w io.Writer) func(deltaview.Progress) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return (&progress{w: w}).report
}

func (p *progress) report(r deltaview.Progress) {
	if r.Op != p.op { // new work
		p.finish()
		p.op = r.Op
	}
	if p.bar == nil {
		if r.Finished || r.Elapsed < progressDelay {
			return
		}
		p.bar = newBar(p.w, r, 100*time.Millisecond)
	}
	p.bar.Set64(r.Done)
	if r.Finished {
		p.finish()
		p.op = ""
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintln(p.w)
		p.bar = nil
	}
}

// newBar returns a bar for r's work drawn on w: its description, percent,
// count, rate and ETA ("COPY t  45% |████    | (450/1000 MB, 120 MB/s) [3s:4s]"),
// redrawn at most once per throttle.
func newBar(w io.Writer, r deltaview.Progress, throttle time.Duration) *progressbar.ProgressBar {
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(r.Op),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(throttle),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	}
	if r.Unit == "bytes" {
		opts = append(opts, progressbar.OptionShowBytes(true))
	} else {
		opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString(r.Unit))
	}
	return progressbar.NewOptions64(r.Total, opts...)
}

// createFile creates (or truncates) the file of COPY … TO 'file'.
func createFile(name string) (io.WriteCloser, error) { return os.Create(name) }

// openFile opens the file of COPY … FROM 'file'; relative names are
// relative to the working directory.
func openFile(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return sizedFile{f, st.Size()}, nil
}

// sizedFile tells the engine its size, for progress.
type sizedFile struct {
	*os.File
	size int64
}

func (f sizedFile) Size() int64 { return f.size }

// logInterval is how often a server's log tells of long work in progress.
const logInterval = 5 * time.Second

// progressLog writes the database's progress reports as lines of a
// server's log: work that runs longer than progressDelay is logged every
// logInterval and when it ends ("deltaview: CREATE MATERIALIZED VIEW v:
// 450000/1000000 rows, 3.0 s"), so that the rebuild of the views at a
// restart is seen before the server listens.
type progressLog struct {
	w    io.Writer
	op   string
	next time.Duration // when the next line of op is due
}

func (p *progressLog) report(r deltaview.Progress) {
	if r.Op != p.op {
		p.op, p.next = r.Op, progressDelay
	}
	if r.Elapsed < p.next && !(r.Finished && r.Elapsed >= progressDelay) {
		return
	}
	total := ""
	if r.Total >= 0 {
		total = fmt.Sprintf("/%d", r.Total)
	}
	state := ""
	if r.Finished {
		state, p.op = " (done)", ""
	}
	fmt.Fprintf(p.w, "deltaview: %s: %d%s %s, %.1f s%s\n", r.Op, r.Done, total, r.Unit, r.Elapsed.Seconds(), state)
	p.next = r.Elapsed + logInterval
}
