package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
)

const benchRows = 1_000_000

// csvRows returns n rows of t(id int8, a int4, b text, c int4) as CSV.
func csvRows(n int) string {
	var b strings.Builder
	b.Grow(n * 32)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,%d,name-%d,%d\n", i, i%1000, i%5000, i%100000)
	}
	return b.String()
}

func copyInto(tb testing.TB, e *engine.Engine, table, opts, data string) {
	tb.Helper()
	s, err := sql.Parse("COPY " + table + " FROM STDIN WITH (" + opts + ")")
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := e.NewSession().ExecCopyData(s, strings.NewReader(data)); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkColdStart creates a filtered projection view over a table of a
// million rows: rows/s is rows read per second of cold start.
func BenchmarkColdStart(b *testing.B) {
	e := engine.New()
	execAll(b, e, "CREATE TABLE t (id int8 PRIMARY KEY, a int4, b text, c int4)")
	copyInto(b, e, "t", "FORMAT csv", csvRows(benchRows))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		execAll(b, e, "CREATE MATERIALIZED VIEW v AS SELECT id, b FROM t WHERE a < 500")
		b.StopTimer()
		execAll(b, e, "DROP MATERIALIZED VIEW v")
		b.StartTimer()
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCopy loads a million CSV rows into a table with a primary key
// and a view over it: rows/s is rows loaded per second, view maintained.
func BenchmarkCopy(b *testing.B) {
	data := csvRows(benchRows)
	for _, withView := range []bool{false, true} {
		b.Run(fmt.Sprintf("view=%v", withView), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := engine.New()
				execAll(b, e, "CREATE TABLE t (id int8 PRIMARY KEY, a int4, b text, c int4)")
				if withView {
					execAll(b, e, "CREATE MATERIALIZED VIEW v AS SELECT id, b FROM t WHERE a < 500")
				}
				b.StartTimer()
				copyInto(b, e, "t", "FORMAT csv", data)
			}
			b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
