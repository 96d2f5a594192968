package tpch_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/tpch"
	"github.com/deltaview/deltaview/internal/value"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var (
	flagSF        = flag.Float64("tpch.sf", 0.002, "TPC-H scale factor of TestTPCH")
	flagRefreshes = flag.Int("tpch.refreshes", 3, "refresh pairs (RF1, RF2) of TestTPCH, each followed by a transaction of random updates")
	flagQueries   = flag.String("tpch.queries", "", "comma-separated query numbers of TestTPCH (default all 22, and 23: Q15 with a CTE)")
	flagCheck     = flag.Bool("tpch.check", true, "compare every view with PostgreSQL after every transaction (else only at the end)")
	flagHeap      = flag.String("tpch.heapprofile", "", "if set, a heap profile (live objects) written to this file after the views' creation")
	flagPGTimeout = flag.Duration("tpch.pgtimeout", 0, "if set, PostgreSQL's materialized views are created empty and built once, by the REFRESH at the end, each within this statement_timeout; the last check compares with them")
)

// TestTPCH loads TPC-H data into deltaview and PostgreSQL, creates the 22
// queries as materialized views (plain views in PostgreSQL), then applies
// the refresh functions and random updates, comparing every view with
// PostgreSQL after every transaction. -tpch.sf=1 runs the full scale.
func TestTPCH(t *testing.T) {
	sf := *flagSF
	g := tpch.New(sf, 17)
	conn := pgtest.Start(t).Conn(t)
	e := engine.New()
	h := &harness{t: t, conn: conn, sess: e.NewSession(), e: e, pgPid: conn.PgConn().PID()}

	// PostgreSQL runs each statement on one core, as deltaview does, so
	// that its backend's CPU time is all of its work.
	h.pgExec("SET max_parallel_workers_per_gather = 0")
	h.both(tpch.Schema)
	start := time.Now()
	for _, tb := range tpch.Tables {
		h.load(g, tb)
	}
	t.Logf("SF %g: loaded in %v", sf, time.Since(start).Round(time.Millisecond))
	h.pgExec("ANALYZE")
	h.both(tpch.Views)

	for n := 1; n <= 23; n++ {
		if !h.selected(n) {
			continue
		}
		var q, name string
		if n <= 22 {
			q, name = tpch.Query(n, sf), fmt.Sprintf("q%d", n)
		} else {
			q, name = tpch.Q15WithCTE, "q15cte" // Q15 as a CTE, numbered 23 for -tpch.queries
		}
		h.pgExec("CREATE VIEW " + name + " AS " + q)
		start, c0 := time.Now(), cpu()
		if err := h.dv("CREATE MATERIALIZED VIEW " + name + " AS " + q); err != nil {
			t.Errorf("%s refused: %v", name, err)
			continue
		}
		el, ec := time.Since(start), cpu()-c0
		state := h.stateBytes(name)
		h.stats = append(h.stats, viewStats{name: name, cpu: ec, wall: el, state: state})
		if *flagPGTimeout > 0 {
			h.pgExec("CREATE MATERIALIZED VIEW pg_" + name + " AS " + q + " WITH NO DATA")
			t.Logf("%s created in %v, CPU %v, state %s", name, el.Round(time.Millisecond), ec.Round(time.Millisecond), mb(state))
		} else {
			start, c0 = time.Now(), h.pgCPU()
			h.pgExec("CREATE MATERIALIZED VIEW pg_" + name + " AS " + q)
			pel, pc := time.Since(start), h.pgCPU()-c0
			t.Logf("%s created in %v, CPU %v, state %s (PostgreSQL CREATE MATERIALIZED VIEW: %v, CPU %v)", name, el.Round(time.Millisecond),
				ec.Round(time.Millisecond), mb(state), pel.Round(time.Millisecond), pc.Round(time.Millisecond))
		}
		h.views = append(h.views, name)
	}
	h.logMemory("after the views' creation")
	if *flagHeap != "" {
		h.writeHeapProfile(*flagHeap)
	}
	h.check("load")

	for i := range *flagRefreshes {
		h.txn(fmt.Sprintf("RF1 #%d", i+1), g.RF1(i))
		h.txn(fmt.Sprintf("RF2 #%d", i+1), g.RF2(i))
		h.txn(fmt.Sprintf("updates #%d", i+1), g.Updates(i, 20))
	}
	h.final = true
	if *flagPGTimeout > 0 {
		// PostgreSQL's views are built by the REFRESH, and the last check
		// reads them rather than running each query once more.
		h.pgRefreshSlowest()
		h.check("the last transaction")
	} else {
		h.check("the last transaction")
		if len(h.views) > 0 {
			h.pgRefreshSlowest()
		}
	}
	h.logMemory("at the end")
	h.logTable()
	var ok, late, sizes []string
	for _, v := range h.views {
		switch {
		case h.late[v]:
			late = append(late, v)
		case !h.wrong[v]:
			ok = append(ok, v)
		}
		_, rows, _ := e.ViewRows(v)
		sizes = append(sizes, fmt.Sprintf("%s:%d", v, len(rows)))
	}
	t.Logf("rows: %s", strings.Join(sizes, " "))
	if testing.Verbose() {
		h.sess.ExecScript(`SELECT view, sum(input_changes), sum(output_changes), sum(state_bytes) FROM deltaview_operators GROUP BY view`, func(r engine.Result) error {
			for _, row := range r.Rows {
				t.Logf("work: %s", dvKey(row))
			}
			return nil
		})
		// The operators holding the most state, where memory goes.
		h.sess.ExecScript(`SELECT view, operator_id, kind, state_bytes, rows FROM deltaview_operators ORDER BY state_bytes DESC LIMIT 30`, func(r engine.Result) error {
			for _, row := range r.Rows {
				t.Logf("state: %s", dvKey(row))
			}
			return nil
		})
	}
	t.Logf("%d views accepted and equal to PostgreSQL after every transaction: %s", len(ok), strings.Join(ok, " "))
	if len(late) > 0 {
		t.Logf("not compared at the end (PostgreSQL did not build them within %v): %s", *flagPGTimeout, strings.Join(late, " "))
	}
}

type harness struct {
	t     *testing.T
	conn  *pgx.Conn
	e     *engine.Engine
	sess  *engine.Session
	views []string
	wrong map[string]bool
	pgPid uint32
	final bool // the last check, made even without -tpch.check
	stats []viewStats
	txns  []string        // one table line per transaction
	late  map[string]bool // views whose REFRESH hit -tpch.pgtimeout
}

// viewStats is what TestTPCH measures of one view.
type viewStats struct {
	name        string
	cpu, wall   time.Duration // deltaview's creation
	state       int64         // deltaview's state after creation, bytes
	pgCPU, pgEl time.Duration // PostgreSQL's REFRESH MATERIALIZED VIEW
	pgLate      bool          // the REFRESH hit the timeout
	pgRefreshed bool
}

func (h *harness) selected(n int) bool {
	if *flagQueries == "" {
		return true
	}
	for _, s := range strings.Split(*flagQueries, ",") {
		if strings.TrimSpace(s) == strconv.Itoa(n) {
			return true
		}
	}
	return false
}

func (h *harness) pgExec(q string) {
	h.t.Helper()
	if _, err := h.conn.PgConn().Exec(context.Background(), q).ReadAll(); err != nil {
		h.t.Fatalf("postgres: %v\n%s", err, q)
	}
}

func (h *harness) dv(q string) error {
	return h.sess.ExecScript(q, func(engine.Result) error { return nil })
}

func (h *harness) both(q string) {
	h.t.Helper()
	h.pgExec(q)
	if err := h.dv(q); err != nil {
		h.t.Fatalf("deltaview: %v\n%s", err, q)
	}
}

// load copies a table's generated rows into both systems, streaming them
// from the generator.
func (h *harness) load(g *tpch.Gen, table string) {
	h.t.Helper()
	copyStmt := "COPY " + table + " FROM STDIN"
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(g.WriteTable(table, pw)) }()
	if _, err := h.conn.PgConn().CopyFrom(context.Background(), pr, copyStmt); err != nil {
		h.t.Fatalf("postgres: %s: %v", copyStmt, err)
	}
	st, err := sql.Parse(copyStmt)
	if err != nil {
		h.t.Fatal(err)
	}
	dr, dw := io.Pipe()
	go func() { dw.CloseWithError(g.WriteTable(table, dw)) }()
	if _, err := h.sess.ExecCopyData(st, dr); err != nil {
		h.t.Fatalf("deltaview: %s: %v", copyStmt, err)
	}
}

// txn applies statements as one transaction on both systems and compares
// the views; it logs deltaview's time for the commit with its views'
// maintenance and PostgreSQL's for the statements alone.
func (h *harness) txn(what string, stmts []string) {
	h.t.Helper()
	script := "BEGIN;\n" + strings.Join(stmts, ";\n") + ";\nCOMMIT"
	start := time.Now()
	h.pgExec(script)
	pel := time.Since(start)
	start, c0 := time.Now(), cpu()
	if err := h.dv(script); err != nil {
		h.t.Fatalf("%s: deltaview: %v", what, err)
	}
	el, c := time.Since(start), cpu()-c0
	h.t.Logf("%s (%d statements): %v, CPU %v, with %d views maintained (PostgreSQL, without views: %v)", what, len(stmts),
		el.Round(time.Millisecond), c.Round(time.Millisecond), len(h.views), pel.Round(time.Millisecond))
	h.txns = append(h.txns, fmt.Sprintf("| %s (%d statements) | %v | %v | %v |", what, len(stmts), c.Round(time.Millisecond),
		el.Round(time.Millisecond), pel.Round(time.Millisecond)))
	h.check(what)
}

func (h *harness) check(what string) {
	h.t.Helper()
	if (!*flagCheck && !h.final) || len(h.views) == 0 {
		return
	}
	if h.wrong == nil {
		h.wrong = map[string]bool{}
	}
	var q strings.Builder
	for _, v := range h.views {
		switch {
		case h.final && *flagPGTimeout > 0 && h.late[v]:
			fmt.Fprintf(&q, "SELECT 1 WHERE false;") // not built in time: not compared
		case h.final && *flagPGTimeout > 0:
			fmt.Fprintf(&q, "SELECT * FROM pg_%s;", v)
		default:
			fmt.Fprintf(&q, "SELECT * FROM %s;", v)
		}
	}
	res, err := h.conn.PgConn().Exec(context.Background(), q.String()).ReadAll()
	if err != nil {
		h.t.Fatalf("postgres: %v", err)
	}
	for i, v := range h.views {
		if h.final && h.late[v] {
			h.t.Logf("%s not compared: PostgreSQL did not build it within %v", v, *flagPGTimeout)
			continue
		}
		var want []string
		for _, r := range res[i].Rows {
			want = append(want, pgKey(r))
		}
		slices.Sort(want)
		_, rows, err := h.e.ViewRows(v)
		if err != nil {
			h.t.Fatal(err)
		}
		got := make([]string, len(rows))
		for j, r := range rows {
			got[j] = dvKey(r)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) && !h.wrong[v] {
			h.wrong[v] = true
			h.t.Errorf("after %s: %s differs from PostgreSQL:\n%s", what, v, diff(got, want))
		}
	}
}

// pgRefreshSlowest times REFRESH MATERIALIZED VIEW of each query in
// PostgreSQL and logs the slowest.
func (h *harness) pgRefreshSlowest() {
	var worst, worstCPU time.Duration
	var which string
	if *flagPGTimeout > 0 {
		h.pgExec(fmt.Sprintf("SET statement_timeout = %d", flagPGTimeout.Milliseconds()))
		defer h.pgExec("SET statement_timeout = 0")
	}
	for i, v := range h.views {
		start, c0 := time.Now(), h.pgCPU()
		_, err := h.conn.PgConn().Exec(context.Background(), "REFRESH MATERIALIZED VIEW pg_"+v).ReadAll()
		el, c := time.Since(start), h.pgCPU()-c0
		if i < len(h.stats) && h.stats[i].name == v {
			h.stats[i].pgCPU, h.stats[i].pgEl, h.stats[i].pgRefreshed = c, el, true
		}
		if err != nil {
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "57014" {
				h.t.Fatalf("postgres: REFRESH MATERIALIZED VIEW pg_%s: %v", v, err)
			}
			if h.late == nil {
				h.late = map[string]bool{}
			}
			h.late[v] = true
			if i < len(h.stats) && h.stats[i].name == v {
				h.stats[i].pgLate = true
			}
			h.t.Logf("PostgreSQL REFRESH MATERIALIZED VIEW %s: more than %v (CPU %v by then)", v, *flagPGTimeout, c.Round(time.Millisecond))
		} else {
			h.t.Logf("PostgreSQL REFRESH MATERIALIZED VIEW %s: %v, CPU %v", v, el.Round(time.Millisecond), c.Round(time.Millisecond))
		}
		if c > worstCPU || (c == worstCPU && el > worst) {
			worst, worstCPU, which = el, c, v
		}
	}
	h.t.Logf("slowest PostgreSQL REFRESH MATERIALIZED VIEW: %s, %v, CPU %v", which, worst.Round(time.Millisecond), worstCPU.Round(time.Millisecond))
}

// stateBytes returns the bytes of a view's operator state.
func (h *harness) stateBytes(view string) int64 {
	var n int64
	h.sess.ExecScript("SELECT sum(state_bytes) FROM deltaview_operators WHERE view = '"+view+"'", func(r engine.Result) error {
		if len(r.Rows) == 1 && !r.Rows[0][0].IsNull() {
			n, _ = strconv.ParseInt(string(value.AppendText(nil, r.Rows[0][0])), 10, 64)
		}
		return nil
	})
	return n
}

// writeHeapProfile writes a profile of the live heap to file; the
// engine is still reachable, so its tables and views are in it.
func (h *harness) writeHeapProfile(file string) {
	h.t.Helper()
	runtime.GC()
	f, err := os.Create(file)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		h.t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	h.t.Logf("live heap after a collection: %s", mb(int64(ms.HeapAlloc)))
	runtime.KeepAlive(h.e)
}

// logMemory logs the tables' bytes, the views' state and the Go heap.
func (h *harness) logMemory(when string) {
	var tables, views int64
	h.sess.ExecScript("SELECT sum(bytes) FROM deltaview_tables", func(r engine.Result) error {
		if len(r.Rows) == 1 && !r.Rows[0][0].IsNull() {
			tables, _ = strconv.ParseInt(string(value.AppendText(nil, r.Rows[0][0])), 10, 64)
		}
		return nil
	})
	for _, v := range h.views {
		views += h.stateBytes(v)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	h.t.Logf("memory %s: tables %s, views' state %s, Go heap in use %s, peak RSS %s", when, mb(tables), mb(views),
		mb(int64(ms.HeapInuse)), mb(ru.Maxrss*1024))
}

// logTable logs the figures as the tables of docs/benchmarks.md.
func (h *harness) logTable() {
	var b strings.Builder
	b.WriteString("\n| view | deltaview CPU | deltaview wall | state | PostgreSQL REFRESH CPU | PostgreSQL REFRESH wall |\n|---|---|---|---|---|---|\n")
	for _, s := range h.stats {
		pg := "| - | - |"
		switch {
		case s.pgLate:
			pg = fmt.Sprintf("| more than %v | more than %v |", s.pgCPU.Round(time.Second), *flagPGTimeout)
		case s.pgRefreshed:
			pg = fmt.Sprintf("| %v | %v |", s.pgCPU.Round(time.Millisecond), s.pgEl.Round(time.Millisecond))
		}
		fmt.Fprintf(&b, "| %s | %v | %v | %s %s\n", s.name, s.cpu.Round(time.Millisecond), s.wall.Round(time.Millisecond), mb(s.state), pg)
	}
	b.WriteString("\n| transaction | deltaview CPU | deltaview wall | PostgreSQL wall, no views |\n|---|---|---|---|\n")
	for _, l := range h.txns {
		b.WriteString(l + "\n")
	}
	h.t.Log(b.String())
}

func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }

// cpu returns the CPU time this process has used: on a shared machine
// the figures compare CPU, which other processes' load does not inflate.
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pgCPU returns the CPU time PostgreSQL's backend serving the connection
// has used, from /proc (0 where it cannot be read).
func (h *harness) pgCPU() time.Duration {
	if h.pgPid == 0 {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", h.pgPid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * (time.Second / 100) // USER_HZ
}

func pgKey(r [][]byte) string {
	var b strings.Builder
	for i, v := range r {
		if i > 0 {
			b.WriteByte('|')
		}
		if v == nil {
			b.WriteString("NULL")
		} else {
			b.WriteString(strconv.Quote(string(v)))
		}
	}
	return b.String()
}

func dvKey(r value.Row) string {
	var b strings.Builder
	for i, v := range r {
		if i > 0 {
			b.WriteByte('|')
		}
		if v.IsNull() {
			b.WriteString("NULL")
		} else {
			b.WriteString(strconv.Quote(string(value.AppendText(nil, v))))
		}
	}
	return b.String()
}

func diff(got, want []string) string {
	var b strings.Builder
	n := 0
	for _, s := range got {
		if !slices.Contains(want, s) && n < 10 {
			fmt.Fprintf(&b, "  deltaview only: %s\n", s)
			n++
		}
	}
	for _, s := range want {
		if !slices.Contains(got, s) && n < 20 {
			fmt.Fprintf(&b, "  postgres only:  %s\n", s)
			n++
		}
	}
	fmt.Fprintf(&b, "  (%d rows here, %d in PostgreSQL)", len(got), len(want))
	return b.String()
}
