package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// BenchmarkPartitionedUpdate updates one row by key, in a transaction of
// its own, of a table of 100,000 rows with a view over it: a plain table
// ("plain"), and the same table partitioned by month into parts
// partitions ("parts=P"), whose every write is routed; the view reads the
// partitioned table, and another reads one partition.
func BenchmarkPartitionedUpdate(b *testing.B) {
	const n = 100_000
	for _, parts := range []int{0, 12, 120} {
		name := "plain"
		if parts > 0 {
			name = fmt.Sprintf("parts=%d", parts)
		}
		b.Run(name, func(b *testing.B) {
			var sb strings.Builder
			if parts == 0 {
				sb.WriteString("CREATE TABLE ev (id int8, m int, amt int, PRIMARY KEY (id, m));\n")
			} else {
				sb.WriteString("CREATE TABLE ev (id int8, m int, amt int, PRIMARY KEY (id, m)) PARTITION BY RANGE (m);\n")
				for p := range parts {
					fmt.Fprintf(&sb, "CREATE TABLE ev_%d PARTITION OF ev FOR VALUES FROM (%d) TO (%d);\n", p, p, p+1)
				}
			}
			sb.WriteString("COPY ev FROM STDIN;\n")
			for i := range n {
				fmt.Fprintf(&sb, "%d\t%d\t%d\n", i, i%max(parts, 1), i%100)
			}
			sb.WriteString("\\.\nCREATE MATERIALIZED VIEW per_m AS SELECT m, sum(amt) AS s FROM ev GROUP BY m;\n")
			if parts > 0 {
				sb.WriteString("CREATE MATERIALIZED VIEW first AS SELECT count(*) AS n FROM ev_0;\n")
			}
			e := engine.New()
			execAll(b, e, sb.String())
			s := e.NewSession()
			up := prepare(b, s, "UPDATE ev SET amt = amt + 1 WHERE id = $1 AND m = $2")
			args := make([]value.Value, 2)
			b.ReportAllocs()
			x := 0
			for b.Loop() {
				id := int64(x * 7919 % n)
				args[0], args[1] = value.NewInt(value.Int8, id), value.NewInt(value.Int4, id%int64(max(parts, 1)))
				if _, err := s.ExecPrepared(up, args); err != nil {
					b.Fatal(err)
				}
				x++
			}
		})
	}
}
