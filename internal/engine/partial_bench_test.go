package engine_test

import (
	"fmt"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// The dimension view of issue 6's benchmark: N customers joined to N/10
// addresses, fed partial updates of both, maintained by partial
// propagation or by normalisation.

const dimTables = `
CREATE TABLE addresses (aid int PRIMARY KEY, city text, country text) WITH (change_stream = true);
CREATE TABLE customers (cid int PRIMARY KEY, name text, disc int, aid int NOT NULL) WITH (change_stream = true);
`

const dimView = "SELECT c.cid, c.name, a.city FROM customers c JOIN addresses a ON c.aid = a.aid"

func i4(n int64) value.Value   { return value.NewInt(value.Int4, n) }
func txt(s string) value.Value { return value.NewText(value.Text, s) }

func customer(i, n int64, name string) value.Row {
	return value.Row{i4(i), txt(name), i4(i % 7), i4(i % (n / 10))}
}

func address(i int64, city string) value.Row { return value.Row{i4(i), txt(city), txt("DE")} }

// loadDim builds an engine holding the view maintained by mode, and loads
// n customers and n/10 addresses in transactions of 64k events.
func loadDim(tb testing.TB, n int64, mode string) *engine.Engine {
	tb.Helper()
	e := engine.New()
	sess := e.NewSession()
	if err := sess.ExecScript(dimTables+fmt.Sprintf("CREATE MATERIALIZED VIEW dim WITH (propagation = %s) AS %s;", mode, dimView), func(engine.Result) error { return nil }); err != nil {
		tb.Fatal(err)
	}
	load := func(table string, rows int64, row func(int64) value.Row) {
		const batch = 1 << 16
		for lo := int64(0); lo < rows; lo += batch {
			b := make(delta.Batch, 0, batch)
			for i := lo; i < min(rows, lo+batch); i++ {
				b = append(b, delta.Insert{Row: row(i)})
			}
			if err := sess.ApplyChanges(table, b); err != nil {
				tb.Fatal(err)
			}
		}
	}
	load("addresses", n/10, func(i int64) value.Row { return address(i, "Essen") })
	load("customers", n, func(i int64) value.Row { return customer(i, n, "Adam") })
	return e
}

// dimState returns the bytes a view's maintenance keeps: for partial
// propagation the operators' state, for normalisation the keyed copies of
// the tables and the dataflow's arrangements; and the view's rows.
func dimState(e *engine.Engine) (maint, rows int64) {
	if ops, r, ok := e.PartialState("dim"); ok {
		return ops.Bytes, r.Bytes
	}
	// The dataflow's figure includes the view's integrated rows.
	return e.StoredBytes("customers") + e.StoredBytes("addresses") + e.Memory().Views["dim"].Bytes, 0
}

// partialChange is the i-th change of the benchmark: a partial update
// (new row, old unknown) of a customer's name, or of an address's city,
// which reaches the ten customers living there. Every change sets a value
// not set before, so that each one changes the view at every N.
func partialChange(i, n int64) (string, delta.Change) {
	v := "v" + strconv.FormatInt(i, 10)
	if i%2 == 0 {
		return "customers", delta.PartialUpdate{Row: customer((i*7919)%n, n, v)}
	}
	return "addresses", delta.PartialUpdate{Row: address((i*104729)%(n/10), v)}
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDimensionView measures the cost of one partial change (a
// transaction of one event) by both methods at N = 10k, 100k and 1M
// customers, and reports the state each keeps.
func BenchmarkDimensionView(b *testing.B) {
	for _, n := range []int64{10_000, 100_000, 1_000_000} {
		if n == 1_000_000 && testing.Short() {
			continue
		}
		for _, mode := range []string{"partial", "normalise"} {
			b.Run(fmt.Sprintf("%s/N=%d", mode, n), func(b *testing.B) {
				e := loadDim(b, n, mode)
				sess := e.NewSession()
				// The changes are made before the clock starts: what is
				// measured is the engine's work, allocations included.
				tables, changes := make([]string, b.N), make([]delta.Batch, b.N)
				for i := range b.N {
					table, c := partialChange(int64(i), n)
					tables[i], changes[i] = table, delta.Batch{c}
				}
				// The load's garbage is collected before the clock starts:
				// a collection of it during the changes is no cost of
				// theirs (their own allocations are counted).
				runtime.GC()
				b.ReportAllocs()
				b.ResetTimer()
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					if err := sess.ApplyChanges(tables[i], changes[i]); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				// On a shared machine the time on the CPU (the process's,
				// the collector's included) says more than the time on the
				// clock.
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
				maint, rows := dimState(e)
				b.ReportMetric(float64(maint), "state-bytes")
				b.ReportMetric(float64(maint)/float64(n), "state-bytes/customer")
				if rows > 0 {
					b.ReportMetric(float64(rows), "view-bytes")
				}
			})
		}
	}
}

// TestDimensionViewState: at 20,000 customers partial propagation keeps
// less state than normalisation (without counting the view's own rows,
// which both keep), and both maintain the same rows under the same
// partial changes.
func TestDimensionViewState(t *testing.T) {
	const n = 20_000
	p, q := loadDim(t, n, "partial"), loadDim(t, n, "normalise")
	for i := int64(0); i < 200; i++ {
		table, c := partialChange(i, n)
		for _, e := range []*engine.Engine{p, q} {
			if err := e.NewSession().ApplyChanges(table, delta.Batch{c}); err != nil {
				t.Fatal(err)
			}
		}
	}
	_, pr, _ := p.ViewRows("dim")
	_, qr, _ := q.ViewRows("dim")
	if len(pr) != n || len(qr) != n {
		t.Fatalf("rows: partial %d, normalised %d, want %d", len(pr), len(qr), n)
	}
	for i := range pr {
		if value.CompareRows(pr[i], qr[i]) != 0 {
			t.Fatalf("row %d: partial %v, normalised %v", i, pr[i], qr[i])
		}
	}
	pm, prows := dimState(p)
	qm, _ := dimState(q)
	// The dataflow's figure holds the view's rows too, in its Integrate:
	// compare like with like, each without the rows it keeps.
	var qrows int64
	err := q.NewSession().ExecScript(`SELECT kind, state_bytes FROM deltaview_operators WHERE view = 'dim' ORDER BY operator_id`, func(r engine.Result) error {
		for _, row := range r.Rows {
			t.Logf("normalisation: %s %d bytes", row[0], row[1].Int())
			if row[0].String() == "Integrate" {
				qrows = row[1].Int()
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	qm -= qrows
	t.Logf("state at %d customers: partial propagation %d bytes, normalisation %d bytes (view rows %d and %d bytes)", n, pm, qm, prows, qrows)
	if pm >= qm {
		t.Fatalf("partial propagation keeps %d bytes, normalisation %d", pm, qm)
	}
}
