package pgrepl_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
	_ "github.com/deltaview/deltaview/internal/sink" // CREATE FOREIGN TABLE
)

// randTable is a table of the randomized tests: keyed or not, its
// identity DEFAULT or FULL, with a column of values large enough to be
// TOASTed out of line, which most updates leave unchanged.
type randTable struct {
	name  string
	keyed bool
	full  bool
	next  int // the next fresh key
}

// A view of the randomized tests: its deltaview and upstream queries.
type randView struct{ name, query string }

// randomWorkload runs txs random upstream transactions against a
// subscription and, after each commit, once deltaview has applied it,
// compares every view with the same query upstream, and a keyed view's
// foreign table (in a second database) with the view. With faults, the
// walsender and the foreign table's connection are terminated at random
// points. It returns the number of
// upstream transactions committed.
func randomWorkload(t *testing.T, seed uint64, txs int, faults, changeStream bool) (committed, terminated int) {
	r := rand.New(rand.NewPCG(seed, 7))
	conn, connStr := upstream(t)
	tables := []*randTable{
		{name: "kd", keyed: true},             // primary key, identity DEFAULT
		{name: "kf", keyed: true, full: true}, // primary key, identity FULL
		{name: "nf", full: true},              // no key, identity FULL
	}
	var ddl strings.Builder
	for _, tb := range tables {
		key := ""
		if tb.keyed {
			key = " PRIMARY KEY"
		}
		fmt.Fprintf(&ddl, "CREATE TABLE %s (id int%s, grp int NOT NULL, val bigint, amt numeric(12,2), big text);\n", tb.name, key)
		fmt.Fprintf(&ddl, "ALTER TABLE %s ALTER COLUMN big SET STORAGE EXTERNAL;\n", tb.name)
		if tb.full {
			fmt.Fprintf(&ddl, "ALTER TABLE %s REPLICA IDENTITY FULL;\n", tb.name)
		}
	}
	ddl.WriteString("CREATE PUBLICATION p FOR TABLE kd, kf, nf;\n")
	exec(t, conn, ddl.String())
	// Some rows before the subscription, for the initial copy.
	for _, tb := range tables {
		exec(t, conn, insertSQL(r, tb, 20))
	}
	views := []randView{
		{"v_grp_kd", "SELECT grp, count(*) AS n, sum(val) AS s, sum(amt) AS a FROM kd GROUP BY grp"},
		{"v_grp_kf", "SELECT grp, count(*) AS n, sum(val) AS s, max(length(big)) AS b FROM kf GROUP BY grp"},
		{"v_grp_nf", "SELECT grp, count(*) AS n, sum(val) AS s, sum(amt) AS a FROM nf GROUP BY grp"},
		{"v_sel_kd", "SELECT id, val, amt, length(big) AS bl, substr(big, 1, 6) AS bh FROM kd WHERE val % 3 <> 0"},
		{"v_sel_nf", "SELECT id, grp, val, length(big) AS bl FROM nf WHERE grp < 4"},
		{"v_join", "SELECT kd.id, kf.id AS fid, kd.val + kf.val AS v FROM kd JOIN kf ON kd.grp = kf.grp AND kd.val % 5 = kf.val % 5"},
		{"v_distinct", "SELECT DISTINCT grp, val % 4 AS m FROM nf"},
	}
	e := engine.New()
	defer e.Close()
	with := ""
	if changeStream {
		with = " WITH (change_stream = true)"
	}
	dv(t, e, "CREATE SUBSCRIPTION s CONNECTION '"+connStr+"' PUBLICATION p"+with)
	for _, v := range views {
		dv(t, e, "CREATE MATERIALIZED VIEW "+v.name+" AS "+v.query)
	}
	// A keyed view is kept in a table of a second database too, through
	// a foreign table whose connection the faults terminate as well.
	target := pgtest.Start(t).Conn(t)
	var opts []string
	for _, kv := range strings.Fields(pgtest.Start(t).ConnString(target.Config().Database)) {
		k, v, _ := strings.Cut(kv, "=")
		opts = append(opts, k+" '"+v+"'")
	}
	dv(t, e, "CREATE SERVER wh FOREIGN DATA WRAPPER postgres OPTIONS ("+strings.Join(opts, ", ")+", application_name 'dvsink')")
	dv(t, e, "CREATE FOREIGN TABLE sel_kd_out () SERVER wh OPTIONS (view 'v_sel_kd')")
	compare := func(at int) {
		t.Helper()
		waitApplied(t, e, conn, "s")
		for _, v := range views {
			if !sameRows(t, e, conn, "SELECT * FROM "+v.name, v.query) {
				t.Fatalf("after upstream transaction %d (seed %d)", at, seed)
			}
		}
		waitSinks(t, e)
		if got, want := pgRows(t, target, "SELECT * FROM sel_kd_out"), dvRows(t, e, "SELECT * FROM v_sel_kd"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("after upstream transaction %d (seed %d): sel_kd_out:\n%s\nv_sel_kd:\n%s", at, seed, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	compare(0)
	for i := 1; i <= txs; i++ {
		script, commit := randomTx(r, tables, changeStream)
		exec(t, conn, script)
		if commit {
			committed++
		}
		if faults && r.IntN(10) == 0 {
			// Terminate the walsender, sometimes before deltaview has
			// applied the transaction, sometimes after.
			rows := pgRows(t, conn, "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = 's' AND active_pid IS NOT NULL")
			terminated += len(rows)
			if r.IntN(2) == 0 {
				pgRows(t, target, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dvsink'")
			}
		}
		compare(i)
	}
	st := status(t, e, "s")
	if st.txs > int64(committed) {
		t.Errorf("deltaview applied %d transactions, upstream committed %d", st.txs, committed)
	}
	dv(t, e, "DROP FOREIGN TABLE sel_kd_out; DROP SUBSCRIPTION s")
	return committed, terminated
}

// bigText is a value larger than the TOAST threshold.
func bigText(r *rand.Rand) string {
	return fmt.Sprintf("repeat('%x', %d)", r.Uint32(), 300+r.IntN(200))
}

func insertSQL(r *rand.Rand, tb *randTable, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s VALUES ", tb.name)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		id := tb.next
		tb.next++
		if !tb.keyed && r.IntN(4) == 0 && id > 0 {
			id = r.IntN(id) // duplicate ids in a table without a key
		}
		big := "NULL"
		switch r.IntN(3) {
		case 0:
			big = bigText(r)
		case 1:
			big = "'short" + strconv.Itoa(r.IntN(10)) + "'"
		}
		fmt.Fprintf(&b, "(%d, %d, %d, %d.%02d, %s)", id, r.IntN(6), r.IntN(100), r.IntN(1000), r.IntN(100), big)
	}
	return b.String()
}

// randomTx returns a random upstream transaction and whether it commits.
// For change-stream tables, which keep no rows, it leaves out what needs
// them: TRUNCATE, and changes of key that leave a value unchanged.
func randomTx(r *rand.Rand, tables []*randTable, changeStream bool) (string, bool) {
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	n := 1 + r.IntN(4)
	if r.IntN(40) == 0 {
		n = 50 + r.IntN(100) // a large transaction
	}
	for range n {
		tb := tables[r.IntN(len(tables))]
		where := fmt.Sprintf("id %% %d = %d", 2+r.IntN(9), r.IntN(3))
		if r.IntN(3) > 0 && tb.next > 0 {
			where = fmt.Sprintf("id = %d", r.IntN(tb.next))
		}
		switch k := r.IntN(100); {
		case k < 30:
			b.WriteString(insertSQL(r, tb, 1+r.IntN(5)))
		case k < 55: // big left unchanged: TOASTed values arrive as unchanged
			fmt.Fprintf(&b, "UPDATE %s SET val = val + %d, grp = (grp + %d) %% 6 WHERE %s", tb.name, 1+r.IntN(9), r.IntN(2), where)
		case k < 62:
			fmt.Fprintf(&b, "UPDATE %s SET big = %s WHERE %s", tb.name, bigText(r), where)
		case k < 70:
			fmt.Fprintf(&b, "UPDATE %s SET amt = NULL, big = NULL WHERE %s", tb.name, where)
		case k < 80: // a change of key
			if tb.keyed && tb.next > 0 {
				set := ""
				if changeStream && !tb.full {
					set = ", big = " + bigText(r)
				}
				fmt.Fprintf(&b, "UPDATE %s SET id = %d%s WHERE id = %d", tb.name, tb.next, set, r.IntN(tb.next))
				tb.next++
			} else {
				fmt.Fprintf(&b, "UPDATE %s SET id = id + 1 WHERE %s", tb.name, where)
			}
		case k < 97:
			fmt.Fprintf(&b, "DELETE FROM %s WHERE %s", tb.name, where)
		case changeStream && tb.keyed:
			fmt.Fprintf(&b, "DELETE FROM %s", tb.name)
		default:
			fmt.Fprintf(&b, "TRUNCATE %s", tb.name)
		}
		b.WriteString(";\n")
	}
	if r.IntN(15) == 0 {
		b.WriteString("ROLLBACK")
		return b.String(), false
	}
	b.WriteString("COMMIT")
	return b.String(), true
}

// randomTxs is the number of upstream transactions of a randomized test:
// PGREPL_TXS, else 2,000 (200 with -short).
func randomTxs() int {
	if n, err := strconv.Atoi(os.Getenv("PGREPL_TXS")); err == nil {
		return n
	}
	if testing.Short() {
		return 200
	}
	return 2000
}

// TestRandomized runs random upstream transactions (insertions, updates
// that leave TOASTed values unchanged, changes of key, deletions,
// TRUNCATE, rollbacks, large transactions) over tables with and without
// a primary key under identity DEFAULT and FULL, and checks after each
// commit that every view equals its query upstream.
func TestRandomized(t *testing.T) {
	seed := uint64(1)
	if s, err := strconv.ParseUint(os.Getenv("PGREPL_SEED"), 10, 64); err == nil {
		seed = s
	}
	committed, _ := randomWorkload(t, seed, randomTxs(), false, false)
	t.Logf("seed %d: %d upstream transactions committed, views equal after each", seed, committed)
}

// TestRandomizedFaults is TestRandomized with the walsender terminated
// at random points: deltaview reconnects, resumes from the last
// confirmed position, and the views converge with nothing doubled.
func TestRandomizedFaults(t *testing.T) {
	committed, terminated := randomWorkload(t, 2, randomTxs(), true, false)
	t.Logf("%d upstream transactions committed, walsender terminated %d times, views equal after each", committed, terminated)
}

// TestRandomizedChangeStream is TestRandomized with the keyed tables
// subscribed as change-stream tables: views over them take the partial
// changes as they come (partial propagation) or keep a keyed copy
// (normalisation), and equal their queries upstream either way.
func TestRandomizedChangeStream(t *testing.T) {
	committed, _ := randomWorkload(t, 3, randomTxs(), false, true)
	t.Logf("%d upstream transactions committed, views equal after each", committed)
}
