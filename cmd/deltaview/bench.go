package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/deltaview/deltaview/bench"
)

// benchSystems are the systems the bench command knows, in the order they
// run and appear.
var benchSystems = []string{"api", "sql", "sqlite", "pg-requery", "pg-refresh", "tanstack", "zero", "d2ts"}

func benchCmd() *cobra.Command {
	var (
		sizes, systems, views string
		opt                   = bench.DefaultOptions
		docs, results, jsDir  string
		noDocs                bool
		cpuProfile            string
		parallelRounds        int
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Compare deltaview with SQLite, PostgreSQL and JavaScript live-query engines on the same workload",
		Long: `Bench runs the benchmark workload (bench/workload.go) on every system in one
invocation: deltaview through its Go API and through SQL, SQLite and
PostgreSQL re-running the query, PostgreSQL's REFRESH MATERIALIZED VIEW,
and the JavaScript engines TanStack DB, Zero and d2ts (installed into
bench/peers/js with npm ci). It checks every system's answer against a
recomputation, then writes bench/results/<date>.json, docs/benchmarks.md
and its plots. Run it from the repository.

Systems: ` + strings.Join(benchSystems, ", ") + `.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return err
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return err
				}
				defer pprof.StopCPUProfile()
			}
			return runBench(cmd.ErrOrStderr(), sizes, systems, views, opt, docs, results, jsDir, noDocs, parallelRounds)
		},
	}
	f := cmd.Flags()
	f.StringVar(&sizes, "n", "10000,100000", "table sizes, comma-separated (add 1000000 for N = 1M)")
	f.StringVar(&systems, "systems", strings.Join(benchSystems, ","), "systems to run, comma-separated")
	f.StringVar(&views, "views", "filter,groupby,groupcount,join,topk", "views to run, comma-separated")
	f.DurationVar(&opt.LatencyTime, "latency-time", opt.LatencyTime, "time spent timing single changes, per system, view and N")
	f.DurationVar(&opt.BatchTime, "batch-time", opt.BatchTime, "time spent per throughput measurement, per 250,000 rows of t (at least one batch; longer, up to 4 times, to hold 3·N changes when the rate allows)")
	f.DurationVar(&opt.MaxBatchTime, "max-batch-time", opt.MaxBatchTime, "a batch projected to take longer is not run")
	f.StringVar(&docs, "docs", "docs/benchmarks.md", "markdown page to write (plots go beside it, in a directory of the same name)")
	f.BoolVar(&noDocs, "no-docs", false, "write only the results file")
	f.StringVar(&results, "results", "bench/results", "directory of the results files")
	f.StringVar(&jsDir, "js", "bench/peers/js", "directory of the JavaScript peers")
	f.IntVar(&parallelRounds, "parallel-rounds", 3, "rounds of the commit stream over the views of t at once, on one worker and on two, at each N (with the api system; 0 skips it)")
	f.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the run (of this process: the Go systems) to this file")
	return cmd
}

func runBench(log io.Writer, sizeList, systemList, viewList string, opt bench.Options, docs, resultsDir, jsDir string, noDocs bool, parallelRounds int) error {
	var ns []int
	for _, s := range strings.Split(sizeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 100 {
			return fmt.Errorf("--n: %q is not a size of at least 100", s)
		}
		ns = append(ns, n)
	}
	var views []bench.View
	for _, s := range strings.Split(viewList, ",") {
		v, ok := bench.ViewByName(strings.TrimSpace(s))
		if !ok {
			return fmt.Errorf("--views: unknown view %q", s)
		}
		views = append(views, v)
	}
	want := map[string]bool{}
	for _, s := range strings.Split(systemList, ",") {
		s = strings.TrimSpace(s)
		found := false
		for _, k := range benchSystems {
			found = found || k == s
		}
		if !found {
			return fmt.Errorf("--systems: unknown system %q (known: %s)", s, strings.Join(benchSystems, ", "))
		}
		want[s] = true
	}

	start := time.Now()
	res := &bench.Results{Date: start, Sizes: ns, Machine: bench.DescribeMachine(),
		Command: "go run ./cmd/deltaview bench"}
	if len(os.Args) > 2 {
		res.Command += " " + strings.Join(os.Args[2:], " ")
	}
	report := func(c bench.Cell) {
		res.Cells = append(res.Cells, c)
		line := fmt.Sprintf("%-20s N=%-8d %-10s %-11s", c.System, c.N, c.View, c.Status)
		if c.LatencySamples > 0 {
			line += fmt.Sprintf(" median %s µs, p99 %s µs, cold %.0f ms", fmtFloat(c.LatencyMedianUs), fmtFloat(c.LatencyP99Us), c.ColdStartMs)
		}
		if c.Note != "" {
			line += "  (" + c.Note + ")"
		}
		fmt.Fprintln(log, line)
	}
	addSystem := func(name string) {
		for _, s := range res.Systems {
			if s == name {
				return
			}
		}
		res.Systems = append(res.Systems, name)
	}
	failAll := func(name, status, note string) {
		addSystem(name)
		for _, n := range ns {
			for _, v := range views {
				report(bench.Cell{System: name, View: v.Name, N: n, Status: status, Note: note})
			}
		}
	}
	runGo := func(mk func() bench.System) {
		name := mk().Name()
		addSystem(name)
		for _, n := range ns {
			sys := mk()
			err := bench.Run(sys, n, views, opt, report)
			sys.Close()
			if err != nil {
				for _, v := range views {
					report(bench.Cell{System: name, View: v.Name, N: n, Status: "error", Note: err.Error()})
				}
			}
		}
	}

	if want["api"] {
		runGo(func() bench.System { return &bench.Deltaview{} })
	}
	if want["api"] && parallelRounds > 0 {
		var pviews []bench.View
		for _, name := range bench.ParallelViews {
			v, _ := bench.ViewByName(name)
			pviews = append(pviews, v)
		}
		for _, n := range ns {
			run := bench.RunParallel(n, pviews, 10_000, 2, parallelRounds, opt)
			res.Parallel = append(res.Parallel, run)
			fmt.Fprintf(log, "%-20s N=%-8d %-10s %s\n", "deltaview (Go API)", n, "parallel", run)
		}
	}
	if want["sql"] {
		runGo(func() bench.System { return &bench.Deltaview{SQL: true} })
	}
	if want["sqlite"] {
		runGo(func() bench.System { return &bench.SQLite{} })
	}
	if want["pg-requery"] || want["pg-refresh"] {
		pg, err := startPG(res)
		if err != nil {
			for _, k := range []string{"pg-requery", "pg-refresh"} {
				if want[k] {
					failAll((&bench.Postgres{Refresh: k == "pg-refresh"}).Name(), "error", err.Error())
				}
			}
		} else {
			stopOnSignal := make(chan os.Signal, 1)
			signal.Notify(stopOnSignal, os.Interrupt, syscall.SIGTERM)
			go func() {
				if _, ok := <-stopOnSignal; ok {
					pg.Stop()
					os.Exit(1)
				}
			}()
			if want["pg-requery"] {
				runGo(func() bench.System { return &bench.Postgres{Server: pg} })
			}
			if want["pg-refresh"] {
				runGo(func() bench.System { return &bench.Postgres{Server: pg, Refresh: true} })
			}
			signal.Stop(stopOnSignal)
			close(stopOnSignal)
			pg.Stop()
		}
	}
	var jsWanted []string
	for _, e := range bench.JSEngines {
		if want[e] {
			jsWanted = append(jsWanted, e)
		}
	}
	if len(jsWanted) > 0 {
		logFile, err := os.Create(filepath.Join(os.TempDir(), "deltaview-bench-node.log"))
		if err != nil {
			return err
		}
		defer logFile.Close()
		fmt.Fprintf(log, "JavaScript peers: installing packages in %s (log: %s)\n", jsDir, logFile.Name())
		if err := bench.InstallJS(jsDir, logFile); err != nil {
			for _, e := range jsWanted {
				failAll(bench.JSEngineNames[e], "error", err.Error())
			}
		} else {
			for _, e := range jsWanted {
				addSystem(bench.JSEngineNames[e])
				if err := bench.RunJS(jsDir, e, ns, views, opt, logFile, report); err != nil {
					failAll(bench.JSEngineNames[e], "error", err.Error())
				}
			}
		}
	}

	res.Machine.LoadEnd = bench.LoadAvg()
	res.Elapsed = time.Since(start).Seconds()
	path := filepath.Join(resultsDir, start.UTC().Format("2006-01-02T150405Z")+".json")
	if err := res.WriteJSON(path); err != nil {
		return err
	}
	fmt.Fprintf(log, "results: %s (%.0f s)\n", path, res.Elapsed)
	if noDocs {
		return nil
	}
	if err := res.WriteDocs(docs, strings.TrimSuffix(docs, filepath.Ext(docs))); err != nil {
		return err
	}
	fmt.Fprintf(log, "wrote %s\n", docs)
	return nil
}

func startPG(res *bench.Results) (*bench.PGServer, error) {
	bin, err := bench.FindPGBinDir()
	if err != nil {
		return nil, err
	}
	if out, err := exec.Command(filepath.Join(bin, "postgres"), "--version").Output(); err == nil {
		res.Machine.Postgres = strings.TrimSpace(string(out))
	}
	return bench.StartPG(bin)
}

func fmtFloat(x float64) string {
	if x < 100 {
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}
