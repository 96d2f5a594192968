package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// lookupScript creates t(id int8 PRIMARY KEY, a, b) with n rows and
// li(o, l, q) with PRIMARY KEY (o, l), four lines per order, n rows,
// and the view tv holding t's rows.
func lookupScript(n int) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE t (id int8 PRIMARY KEY, a int4, b text);\nCOPY t FROM STDIN;\n")
	for i := range n {
		fmt.Fprintf(&b, "%d\t%d\tname-%d\n", i, i%1000, i)
	}
	b.WriteString("\\.\nCREATE TABLE li (o int8, l int4, q int4, PRIMARY KEY (o, l));\nCOPY li FROM STDIN;\n")
	for i := range n {
		fmt.Fprintf(&b, "%d\t%d\t%d\n", i/4, i%4+1, i)
	}
	b.WriteString("\\.\nCREATE MATERIALIZED VIEW tv AS SELECT id, a, b FROM t WHERE a >= 0;\n")
	return b.String()
}

func prepare(tb testing.TB, s *engine.Session, text string) *engine.Prepared {
	tb.Helper()
	st, err := sql.Parse(text)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := s.Prepare(st)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkPointLookup runs ad-hoc prepared queries by key: "pkey" finds
// its row through the primary key, "scan" is the same query written so
// that no index applies (id + 0 = $1), the cost of every lookup before
// indexes served ad-hoc queries; "prefix" finds an order's lines through
// the leading column of a composite key, and "delete-prefix" deletes an
// order's lines by it and inserts them again. "view" reads a materialized
// view by a column (through the index the first read builds), "view-scan"
// the same written so that no index applies.
func BenchmarkPointLookup(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		if testing.Short() && n > 10_000 {
			continue
		}
		e := engine.New()
		execAll(b, e, lookupScript(n))
		s := e.NewSession()
		queries := []struct{ name, text string }{
			{"pkey", "SELECT * FROM t WHERE id = $1"},
			{"scan", "SELECT * FROM t WHERE id + 0 = $1"},
			{"prefix", "SELECT * FROM li WHERE o = $1"},
			{"view", "SELECT * FROM tv WHERE id = $1"},
			{"view-scan", "SELECT * FROM tv WHERE id + 0 = $1"},
		}
		for _, q := range queries {
			b.Run(fmt.Sprintf("%s/N=%d", q.name, n), func(b *testing.B) {
				p := prepare(b, s, q.text)
				args := []value.Value{value.Null}
				keys := n
				if q.name == "prefix" {
					keys = n / 4
				}
				if _, err := s.ExecPrepared(p, args); err != nil { // builds the index a lookup uses
					b.Fatal(err)
				}
				b.ReportAllocs()
				k := 0
				for b.Loop() {
					args[0] = value.NewInt(value.Int8, int64(k*7919%keys))
					res, err := s.ExecPrepared(p, args)
					if err != nil {
						b.Fatal(err)
					}
					if want := min(1, keys) * map[bool]int{true: 4, false: 1}[q.name == "prefix"]; len(res[0].Rows) != want {
						b.Fatalf("%d rows, want %d", len(res[0].Rows), want)
					}
					k++
				}
			})
		}
		b.Run(fmt.Sprintf("delete-prefix/N=%d", n), func(b *testing.B) {
			del := prepare(b, s, "DELETE FROM li WHERE o = $1")
			ins := prepare(b, s, "INSERT INTO li VALUES ($1, 1, 0), ($1, 2, 0), ($1, 3, 0), ($1, 4, 0)")
			args := []value.Value{value.Null}
			b.ReportAllocs()
			k := 0
			for b.Loop() {
				args[0] = value.NewInt(value.Int8, int64(k*7919%(n/4)))
				res, err := s.ExecPrepared(del, args)
				if err != nil {
					b.Fatal(err)
				}
				if res[0].Tag != "DELETE 4" {
					b.Fatalf("%s, want DELETE 4", res[0].Tag)
				}
				if _, err := s.ExecPrepared(ins, args); err != nil {
					b.Fatal(err)
				}
				k++
			}
		})
	}
}

// TestPointLookupAllocsFlat checks, without timing anything, that a lookup
// by key, and by the leading column of a composite key, does no work per
// row of the table: its allocations are the same at 1k and 40k rows.
func TestPointLookupAllocsFlat(t *testing.T) {
	allocs := func(n int, text string) float64 {
		e := engine.New()
		execAll(t, e, lookupScript(n))
		s := e.NewSession()
		p := prepare(t, s, text)
		args := []value.Value{value.NewInt(value.Int8, 42)}
		return testing.AllocsPerRun(50, func() {
			if _, err := s.ExecPrepared(p, args); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, q := range []string{"SELECT * FROM t WHERE id = $1", "SELECT * FROM li WHERE o = $1", "DELETE FROM li WHERE o = $1 + 1000000"} {
		small, large := allocs(1_000, q), allocs(40_000, q)
		if large > small {
			t.Errorf("%s: %v allocations at 40k rows, %v at 1k", q, large, small)
		}
	}
}
