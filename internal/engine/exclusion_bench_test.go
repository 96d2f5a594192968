package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// BenchmarkExclusionInsert inserts n bookings in one INSERT … SELECT
// into a table with no EXCLUDE constraint, with `during WITH &&` alone,
// and with `room WITH =, during WITH &&` over 1,000 rooms: ns/row is
// the cost of a row written, the constraint's test included. The
// ranges are disjoint and written in a scattered order.
func BenchmarkExclusionInsert(b *testing.B) {
	shapes := []struct{ name, excl string }{
		{"none", ""},
		{"range", ", EXCLUDE USING gist (during WITH &&)"},
		{"room+range", ", EXCLUDE USING gist (room WITH =, during WITH &&)"},
	}
	for _, n := range []int{10_000, 100_000} {
		for _, sh := range shapes {
			b.Run(fmt.Sprintf("rows=%d/%s", n, sh.name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					e := engine.New()
					execAll(b, e, "CREATE EXTENSION btree_gist; CREATE TABLE bk (id int PRIMARY KEY, room int, during tsrange"+sh.excl+")")
					b.StartTimer()
					execAll(b, e, fmt.Sprintf(`INSERT INTO bk SELECT g, g %% 1000,
  tsrange(timestamp '2020-01-01' + ((g * 7919) %% %[1]d) * interval '1 hour', timestamp '2020-01-01' + ((g * 7919) %% %[1]d) * interval '1 hour' + interval '30 minutes')
  FROM generate_series(1, %[1]d) g`, n))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/row")
			})
		}
	}
}
