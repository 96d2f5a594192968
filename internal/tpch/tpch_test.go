package tpch_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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
	flagQueries   = flag.String("tpch.queries", "", "comma-separated query numbers of TestTPCH (default all 22)")
	flagCheck     = flag.Bool("tpch.check", true, "compare every view with PostgreSQL after every transaction")
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
	h := &harness{t: t, conn: conn, sess: e.NewSession(), e: e}

	h.both(tpch.Schema)
	start := time.Now()
	for _, tb := range tpch.Tables {
		h.load(g, tb)
	}
	t.Logf("SF %g: loaded in %v", sf, time.Since(start).Round(time.Millisecond))
	h.pgExec("ANALYZE")
	h.both(tpch.Views)

	for n := 1; n <= 22; n++ {
		if !h.selected(n) {
			continue
		}
		q := tpch.Query(n, sf)
		name := fmt.Sprintf("q%d", n)
		h.pgExec("CREATE VIEW " + name + " AS " + q)
		start := time.Now()
		if err := h.dv("CREATE MATERIALIZED VIEW " + name + " AS " + q); err != nil {
			t.Errorf("Q%d refused: %v", n, err)
			continue
		}
		el := time.Since(start)
		start = time.Now()
		h.pgExec("CREATE MATERIALIZED VIEW pg_" + name + " AS " + q)
		pel := time.Since(start)
		t.Logf("Q%d created in %v (PostgreSQL: %v)", n, el.Round(time.Millisecond), pel.Round(time.Millisecond))
		h.views = append(h.views, name)
	}
	h.check("load")

	for i := range *flagRefreshes {
		h.txn(fmt.Sprintf("RF1 #%d", i+1), g.RF1(i))
		h.txn(fmt.Sprintf("RF2 #%d", i+1), g.RF2(i))
		h.txn(fmt.Sprintf("updates #%d", i+1), g.Updates(i, 20))
	}
	if len(h.views) > 0 {
		h.pgRefreshSlowest()
	}
	var ok, sizes []string
	for _, v := range h.views {
		if !h.wrong[v] {
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
	}
	t.Logf("%d of 22 queries accepted and equal to PostgreSQL after every transaction: %s", len(ok), strings.Join(ok, " "))
}

type harness struct {
	t     *testing.T
	conn  *pgx.Conn
	e     *engine.Engine
	sess  *engine.Session
	views []string
	wrong map[string]bool
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
	start = time.Now()
	if err := h.dv(script); err != nil {
		h.t.Fatalf("%s: deltaview: %v", what, err)
	}
	h.t.Logf("%s (%d statements): %v with %d views maintained (PostgreSQL without views: %v)", what, len(stmts),
		time.Since(start).Round(time.Millisecond), len(h.views), pel.Round(time.Millisecond))
	h.check(what)
}

func (h *harness) check(what string) {
	h.t.Helper()
	if !*flagCheck || len(h.views) == 0 {
		return
	}
	if h.wrong == nil {
		h.wrong = map[string]bool{}
	}
	var q strings.Builder
	for _, v := range h.views {
		fmt.Fprintf(&q, "SELECT * FROM %s;", v)
	}
	res, err := h.conn.PgConn().Exec(context.Background(), q.String()).ReadAll()
	if err != nil {
		h.t.Fatalf("postgres: %v", err)
	}
	for i, v := range h.views {
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
	var worst time.Duration
	var which string
	for _, v := range h.views {
		start := time.Now()
		h.pgExec("REFRESH MATERIALIZED VIEW pg_" + v)
		if el := time.Since(start); el > worst {
			worst, which = el, v
		}
	}
	h.t.Logf("slowest PostgreSQL REFRESH MATERIALIZED VIEW: %s, %v", which, worst.Round(time.Millisecond))
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
