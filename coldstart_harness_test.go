package deltaview_test

import (
	"context"
	"flag"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/deltaview/deltaview/bench"
)

var (
	harnessN = flag.Int("coldstart.harness", 0,
		"rows of t for TestHarnessColdStarts (1000000 as the harness at 1M); 0 skips it")
	harnessProfile = flag.String("coldstart.cpuprofile", "",
		"CPU profile of TestHarnessColdStarts's run, its creations labelled by system and view")
	harnessTrace = flag.String("coldstart.trace", "",
		"execution trace of TestHarnessColdStarts's creation of the view -coldstart.traceview names, to FILE.api and FILE.sql")
	harnessTraceView = flag.String("coldstart.traceview", "join", "the view whose first creation -coldstart.trace traces")
	harnessSystems   = flag.String("coldstart.systems", "api,sql", "the systems TestHarnessColdStarts runs, in order: api, sql or both")
)

// TestHarnessColdStarts runs bench.Run's own sequence (load, then per view
// its creation, its latency and throughput runs and its drop), through the
// Go API and then through SQL in one process as `deltaview bench` runs
// them, and logs each creation: wall clock, the process's CPU, the CPU of
// the thread that builds (its goroutine locked to it), system time, minor
// page faults, collections met and bytes allocated. A view's cold start
// depends on what ran before it in the process (the rows the views' runs
// moved, the heap they left), which a benchmark of creations alone does
// not show. With -coldstart.trace FILE, each system's creation of the
// view -coldstart.traceview names (join by default) is traced into
// FILE.api and FILE.sql (go tool trace): which goroutines run when, and
// what the building one waits for. Skipped unless -coldstart.harness is
// given.
func TestHarnessColdStarts(t *testing.T) {
	if *harnessN == 0 {
		t.Skip("-coldstart.harness N runs it")
	}
	if *harnessProfile != "" {
		f, err := os.Create(*harnessProfile)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	for _, name := range strings.Split(*harnessSystems, ",") {
		sql := name == "sql"
		if !sql && name != "api" {
			t.Fatalf("-coldstart.systems: %q is neither api nor sql", name)
		}
		sys := &timedColdStarts{Deltaview: &bench.Deltaview{SQL: sql}, t: t}
		err := bench.Run(sys, *harnessN, bench.Views, bench.DefaultOptions, func(c bench.Cell) {
			if c.Status != "ok" {
				t.Errorf("%s %s: %s %s", c.System, c.View, c.Status, c.Note)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		sys.Close()
		runtime.GC()
	}
}

// timedColdStarts is a deltaview system whose creations are measured.
type timedColdStarts struct {
	*bench.Deltaview
	t      *testing.T
	traced bool
}

// CreateView implements bench.System: the creation, measured and logged.
func (s *timedColdStarts) CreateView(v bench.View) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// The trace starts before the clocks are read, and stops after the
	// creation's figures are logged.
	if *harnessTrace != "" && v.Name == *harnessTraceView && !s.traced {
		s.traced = true
		name := *harnessTrace + ".api"
		if s.SQL {
			name = *harnessTrace + ".sql"
		}
		f, err := os.Create(name)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := trace.Start(f); err != nil {
			return err
		}
		defer trace.Stop()
	}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	self0, cpu0, thread0 := selfUsage(), cpuTime(), threadCPUTime()
	t0 := time.Now()
	var err error
	pprof.Do(context.Background(), pprof.Labels("system", s.Name(), "view", v.Name), func(context.Context) {
		err = s.Deltaview.CreateView(v)
	})
	wall := time.Since(t0)
	self1, cpu1, thread1 := selfUsage(), cpuTime(), threadCPUTime()
	runtime.ReadMemStats(&ms1)
	s.t.Logf("%-18s %-10s wall %5d ms, cpu %5d ms, thread %5d ms, sys %4d ms, %6d faults, %d GC, %4d MB allocated, heap %4d MB before",
		s.Name(), v.Name, wall.Milliseconds(), (cpu1-cpu0)/1e6, (thread1-thread0)/1e6,
		(self1.Stime.Nano()-self0.Stime.Nano())/1e6,
		self1.Minflt-self0.Minflt, ms1.NumGC-ms0.NumGC, (ms1.TotalAlloc-ms0.TotalAlloc)>>20, ms0.HeapAlloc>>20)
	return err
}

// selfUsage returns the process's resource usage: its system time and
// minor page faults.
func selfUsage() syscall.Rusage {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru
}
