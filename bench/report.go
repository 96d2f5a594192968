package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Results is one run of the harness: what the results file holds and what
// docs/benchmarks.md is written from.
type Results struct {
	Date    time.Time `json:"date"`
	Command string    `json:"command"`
	Machine Machine   `json:"machine"`
	Sizes   []int     `json:"sizes"`
	Systems []string  `json:"systems"`
	Cells   []Cell    `json:"cells"`
	// Parallel is the commit stream over several views with one worker
	// and with two, per N.
	Parallel []Parallel `json:"parallel,omitempty"`
	Elapsed  float64    `json:"elapsed_seconds"`
}

// Targets are the project's figures for a single-row change through the Go
// API at N = 1M, in microseconds.
var Targets = map[string]float64{"filter": 5, "groupcount": 5, "groupby": 5, "topk": 5, "join": 10}

// TargetRatio is how far below the fastest peer deltaview aims to be.
const TargetRatio = 10

const apiSystem = "deltaview (Go API)"

func (r *Results) cell(system, view string, n int) (Cell, bool) {
	for _, c := range r.Cells {
		if c.System == system && c.View == view && c.N == n {
			return c, true
		}
	}
	return Cell{}, false
}

// WriteJSON writes the results file.
func (r *Results) WriteJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// keptMarker separates the page's generated part from the sections
// written by hand below it (figures of benchmarks this harness does not
// run), which WriteDocs keeps as they are.
const keptMarker = "<!-- The harness writes everything above this line and keeps everything below it. -->"

// WriteDocs writes the markdown page at md and one SVG plot per view in
// the directory svgDir (linked relative to md). What follows keptMarker in
// the page already at md is kept.
func (r *Results) WriteDocs(md, svgDir string) error {
	if err := os.MkdirAll(svgDir, 0o755); err != nil {
		return err
	}
	rel, err := filepath.Rel(filepath.Dir(md), svgDir)
	if err != nil {
		return err
	}
	for _, v := range Views {
		if err := os.WriteFile(filepath.Join(svgDir, v.Name+".svg"), []byte(r.plot(v.Name)), 0o644); err != nil {
			return err
		}
	}
	page := r.markdown(filepath.ToSlash(rel)) + "\n" + keptMarker + "\n"
	old, err := os.ReadFile(md)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if _, kept, ok := strings.Cut(string(old), keptMarker+"\n"); ok {
		page += kept
	}
	return os.WriteFile(md, []byte(page), 0o644)
}

func fmtUs(x float64) string {
	switch {
	case x == 0:
		return "–"
	case x < 10:
		return fmt.Sprintf("%.2f", x)
	case x < 100:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.0f", x)
	}
}

func fmtRate(x float64) string {
	switch {
	case x == 0:
		return "–"
	case x >= 1e6:
		return fmt.Sprintf("%.2fM", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.1fk", x/1e3)
	default:
		return fmt.Sprintf("%.0f", x)
	}
}

func fmtBytes(b int64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(b)/(1<<10))
	default:
		return fmt.Sprintf("%d B", b)
	}
}

func fmtN(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1000 && n%1000 == 0:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// fastestPeer returns the lowest valid median latency of any system other
// than deltaview's, at view and n.
func (r *Results) fastestPeer(view string, n int) (string, float64) {
	best, name := 0.0, ""
	for _, c := range r.Cells {
		if c.View != view || c.N != n || c.Status != "ok" || strings.HasPrefix(c.System, "deltaview") {
			continue
		}
		if name == "" || c.LatencyMedianUs < best {
			best, name = c.LatencyMedianUs, c.System
		}
	}
	return name, best
}

func (r *Results) markdown(svgRel string) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# Benchmarks\n\n")
	p("deltaview side by side with the engines its users would otherwise pick, measured in one run on one machine.\n")
	p("The harness writes this page down to the sections of benchmarks it does not run, which it keeps; do not edit its part by hand. Run it again with\n\n    %s\n\n", r.Command)
	p("(`--n 10000,100000,1000000` adds N = 1M; `--help` lists the rest). The raw figures are in `bench/results/`.\n\n")
	p("- **Date**: %s; the run took %.0f s.\n", r.Date.UTC().Format("2006-01-02 15:04 MST"), r.Elapsed)
	p("- **Machine**: %s.\n", r.Machine)
	p("- **Sizes**: N =")
	for i, n := range r.Sizes {
		if i > 0 {
			p(",")
		}
		p(" %s", fmtN(n))
	}
	p(" rows in t (and N/10 in u).\n\n")

	p("## Targets\n\n")
	p("The project's figures for one single-row change through the Go API are under 5 µs for filter, groupcount, groupby and topk, and under 10 µs for join, at N = 1M on this 2-core machine; and at least %d× below the fastest peer on every view. Measured medians (µs) beside them:\n\n", TargetRatio)
	p("| view | target at 1M |")
	for _, n := range r.Sizes {
		p(" Go API at %s |", fmtN(n))
	}
	p(" flat? (largest / smallest N) | fastest peer at %s | deltaview's lead (target ≥ %d×) |\n", fmtN(r.Sizes[len(r.Sizes)-1]), TargetRatio)
	p("|---|---|")
	for range r.Sizes {
		p("---|")
	}
	p("---|---|---|\n")
	for _, v := range Views {
		p("| %s | < %g µs |", v.Name, Targets[v.Name])
		var first, last float64
		for i, n := range r.Sizes {
			c, ok := r.cell(apiSystem, v.Name, n)
			if !ok || c.Status != "ok" {
				p(" %s |", statusWord(c, ok))
				continue
			}
			mark := ""
			if n >= 1_000_000 {
				mark = " ✗"
				if c.LatencyMedianUs < Targets[v.Name] {
					mark = " ✓"
				}
			}
			p(" %s%s |", fmtUs(c.LatencyMedianUs), mark)
			if i == 0 {
				first = c.LatencyMedianUs
			}
			last = c.LatencyMedianUs
		}
		if first > 0 && last > 0 {
			p(" %.2f× |", last/first)
		} else {
			p(" – |")
		}
		n := r.Sizes[len(r.Sizes)-1]
		name, best := r.fastestPeer(v.Name, n)
		c, ok := r.cell(apiSystem, v.Name, n)
		if name == "" || !ok || c.Status != "ok" {
			p(" – | – |\n")
			continue
		}
		ratio := best / c.LatencyMedianUs
		mark := "✗"
		if ratio >= TargetRatio {
			mark = "✓"
		}
		p(" %s: %s µs | %.1f× %s |\n", name, fmtUs(best), ratio, mark)
	}
	if !slices.Contains(r.Sizes, 1_000_000) {
		p("\nThis run did not include N = 1M, where the absolute targets are set: the Go API columns show the trend toward it.\n")
	}

	r.parallelMarkdown(p)

	p("\n## Per-change latency against N\n\n")
	p("Median time of one single-row change, from the call to the up-to-date answer, one line per system, both axes logarithmic.\n\n")
	for _, v := range Views {
		p("![%s](%s/%s.svg)\n", v.Name, svgRel, v.Name)
	}

	p("\n## All figures\n\n")
	p("Latency is one single-row change (median and 99th percentile, µs). Throughput is changes per second with batches of 1, 100 and 10,000 changes, one transaction per batch. Cold start is the view's creation (for re-query systems: its indexes and a first run of the query). Memory is counted as the column after it says.\n")
	for _, v := range Views {
		sql := v.SQL
		p("\n### %s\n\n`%s`\n\n", v.Name, sql)
		p("| system | N | status | median µs | p99 µs | ch/s ×1 | ch/s ×100 | ch/s ×10k | cold start ms | memory | counted as |\n")
		p("|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, sys := range r.Systems {
			for _, n := range r.Sizes {
				c, ok := r.cell(sys, v.Name, n)
				if !ok {
					p("| %s | %s | not run | | | | | | | | |\n", sys, fmtN(n))
					continue
				}
				if c.Status == "unsupported" || (c.Status != "ok" && c.LatencySamples == 0) {
					p("| %s | %s | %s: %s | | | | | | | | |\n", sys, fmtN(n), c.Status, mdEscape(c.Note))
					continue
				}
				status := c.Status
				if c.Status != "ok" {
					status = "**" + c.Status + "**: " + mdEscape(c.Note)
				}
				p("| %s | %s | %s | %s | %s |", sys, fmtN(n), status, fmtUs(c.LatencyMedianUs), fmtUs(c.LatencyP99Us))
				for _, size := range []int{1, 100, 10_000} {
					i := slices.IndexFunc(c.Throughput, func(t Thru) bool { return t.Batch == size })
					switch {
					case i < 0:
						p(" – |")
					case c.Throughput[i].Note != "":
						p(" %s |", c.Throughput[i].Note)
					default:
						p(" %s |", fmtRate(c.Throughput[i].ChangesPerSec))
					}
				}
				mem, method := memoryColumns(c)
				p(" %.1f | %s | %s |\n", c.ColdStartMs, mem, mdEscape(method))
			}
		}
	}
	p("\n%s", notes)
	return b.String()
}

// parallelMarkdown writes the section of the commit stream over several
// views on one worker and on two.
func (r *Results) parallelMarkdown(p func(string, ...any)) {
	if len(r.Parallel) == 0 {
		return
	}
	first := r.Parallel[0]
	p("\n## Several views on two cores\n\n")
	p("One commit stream through the Go API (`Tx.ReplaceRows` of random rows of t, one transaction per batch of %s changes) over the views %s maintained at once, the engine's views prepared by one worker and by %d workers (`DB.SetWorkers`) in rounds on the same database, alternating which goes first, each round one window of batches measured as the throughput columns below are; changes per second of each round, and the median round of %d workers over the median round of one (target ≥ %g×):\n\n",
		fmtN(first.Batch), strings.Join(first.Views, ", "), first.Workers, first.Workers, ParallelTarget)
	p("| N | status | one worker, ch/s | %d workers, ch/s | speed-up |\n|---|---|---|---|---|\n", first.Workers)
	for _, run := range r.Parallel {
		if run.Status != "ok" {
			p("| %s | **%s**: %s | | | |\n", fmtN(run.N), run.Status, mdEscape(run.Note))
			continue
		}
		mark := ""
		if run.N >= 1_000_000 {
			mark = " ✗"
			if run.Speedup() >= ParallelTarget {
				mark = " ✓"
			}
		}
		p("| %s | ok | %s | %s | %.2f×%s |\n", fmtN(run.N), rates(run.One), rates(run.Many), run.Speedup(), mark)
	}
}

// memoryColumns returns the memory and counted-as columns of c: a figure
// that could not be measured (or, in results written before that was
// marked, a negative one) reads "unmeasurable", with the reason beside it.
func memoryColumns(c Cell) (mem, method string) {
	if c.MemoryBytes < 0 {
		c.checkMemory()
	}
	if c.MemoryUnmeasurable {
		return "unmeasurable", c.MemoryMethod
	}
	return fmtBytes(c.MemoryBytes), c.MemoryMethod
}

func statusWord(c Cell, ok bool) string {
	if !ok {
		return "not run"
	}
	return c.Status
}

func mdEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// notes explain what each system's figures are.
const notes = `## What is measured

- **The same workload everywhere.** t(id PK 1..N, grp = id % 1000, k = 1 + id % (N/10), val uniform 0..999999, pad text(20)) and u(id PK 1..N/10, name, region), generated from one seed by the same generator (mulberry32) in Go and in JavaScript; one change picks an id uniformly and sets grp and val to new uniform values. Each system loads the data once per N; each view is then created, measured and dropped in turn, so a change maintains one view at a time.
- **Correctness before speed.** Every system's answer is compared with a recomputation from the harness's own copy of the data right after the view is created and again at the end of its run; a difference marks the row **invalid**. The JavaScript peers also run every view at N = 1,000 with 60 changes (some batched), comparing after each, before anything is timed.
- **deltaview (Go API)**: typed transactions commit, and the engine maintains the view: a single change is one ` + "`Tx.Replace(t, row…)`" + ` (the new row, found by its primary key), a batch one ` + "`Tx.ReplaceRows(t, rows)`" + ` of its new rows. **deltaview (SQL)**: the prepared statement ` + "`UPDATE t SET grp = $1, val = $2 WHERE id = $3`" + `, parsed and bound once (` + "`DB.Prepare`" + `), run with each change's values through ` + "`Tx.Exec`" + `, a batch in one transaction; the UPDATE finds its row through the primary key. Memory is the engine's own account of the view's operator state (` + "`deltaview_views.state_bytes`" + `); the results file also has the Go heap's growth across the view's creation (` + "`heap_delta_bytes`" + `).
- **SQLite re-query**: modernc.org/sqlite, in memory, in this process; each transaction's updates (a prepared UPDATE by the integer primary key), then the view's query run again, reading every row. The indexes that serve each query best are created with the view: covering (val, id, grp) for filter, (grp, val) for groupby, (grp) for groupcount, a partial (val DESC, id, grp) WHERE grp < 500 for topk; join reads u by its primary key. Memory is the database pages those indexes added.
- **PostgreSQL re-query** and **PostgreSQL REFRESH**: the machine's PostgreSQL, started by the harness for the run (temporary cluster, unix socket, fsync off) with the same indexes; updates are pipelined in one transaction; then the query again (every row read, simple protocol), or ` + "`REFRESH MATERIALIZED VIEW`" + `. Memory is the size of the indexes (and of the materialized view).
- **TanStack DB** (@tanstack/db, whose live queries compile to @tanstack/db-ivm's differential dataflow, so db-ivm is measured through it): local-only collections with indexes on k, val and grp, one live query collection per view, changes through ` + "`collection.update`" + ` (one call per batch); the live query is up to date when the call returns.
- **Zero (zqlite)** (@rocicorp/zero): Zero's query engine in-process through its zqlite export over an in-memory SQLite database; changes are pushed into the table source, which writes them to SQLite and through the view's operators. Zero's query language has no GROUP BY or aggregates, so groupby and groupcount cannot run; its join is the relationship ` + "`t.related('u')`" + ` (each t row with its u row), the nearest it has to an inner join.
- **d2ts** (@electric-sql/d2ts): a differential dataflow graph per view built from its operators (filter, map, reduce, innerJoin, topK); each transaction is one version. Its reduce and topK recompute a whole group from the group's values on every change: topk's group is every row with grp < 500.
- JavaScript memory is the V8 heap's growth across the view's creation, as the Go heap delta is counted: the heap's used bytes after forced full collections (node --expose-gc, repeated until a pass frees nothing more), read after the data is loaded and just before the view is created, then right after. A heap that shrank across the creation (more freed than the view added) gives no figure: the row reads **unmeasurable**, with the reason beside it. Node runs with the packages pinned by bench/peers/js/package-lock.json, installed by the harness (` + "`npm ci`" + `).
- **Batches** of each size are run until their time adds up to --batch-time (500 ms) per 250,000 rows of t (500 ms at 10k and 100k, 2 s at 1M), at least one batch: the heap of a garbage-collected system grows with N, and so does the number of changes between its collections; a window that grows with it holds their steady share. The window goes on, up to four times its length, until it holds 3·N changes, when the system's rate so far says it will (deltaview collects about every 1.2M changes at 1M rows: 2 s of its join's batches of 10,000 held one collection or none); the results file gives each figure's batches and seconds. Before each batch size's window one batch runs untimed, as three single changes do before the latencies.
- The machine is shared: the load average above says how busy it was. p99 figures of garbage-collected runtimes (Go, V8) include collections.
`
