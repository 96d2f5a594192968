package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// rangeScript creates t(id int8 PRIMARY KEY, a int8, b text) with n rows,
// a running over 0…n-1 in an order unlike id's, and, with index, an index
// on a.
func rangeScript(n int, index bool) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE t (id int8 PRIMARY KEY, a int8, b text);\nCOPY t FROM STDIN;\n")
	for i := range n {
		fmt.Fprintf(&b, "%d\t%d\tname-%d\n", i, int64(i)*7919%int64(n), i)
	}
	b.WriteString("\\.\n")
	if index {
		b.WriteString("CREATE INDEX t_a ON t (a);\n")
	}
	return b.String()
}

// BenchmarkRangeDelete deletes the k rows of t whose a lies in a range
// (DELETE … WHERE a BETWEEN $1 AND $2) and inserts them again, each in a
// transaction of its own: through the index on a ("index"), whose cost
// grows as O(k log n), and on a table without it ("scan"), O(n).
func BenchmarkRangeDelete(b *testing.B) {
	const k = 10
	for _, n := range []int{100_000, 1_000_000} {
		if testing.Short() && n > 100_000 {
			continue
		}
		for _, index := range []bool{true, false} {
			name := "scan"
			if index {
				name = "index"
			}
			b.Run(fmt.Sprintf("%s/N=%d/k=%d", name, n, k), func(b *testing.B) {
				e := engine.New()
				execAll(b, e, rangeScript(n, index))
				s := e.NewSession()
				del := prepare(b, s, "DELETE FROM t WHERE a BETWEEN $1 AND $2 RETURNING id, a, b")
				ins := prepare(b, s, "INSERT INTO t VALUES ($1, $2, $3)")
				args := make([]value.Value, 2)
				b.ReportAllocs()
				x := 0
				for b.Loop() {
					lo := int64(x * 104729 % (n - k))
					args[0], args[1] = value.NewInt(value.Int8, lo), value.NewInt(value.Int8, lo+k-1)
					res, err := s.ExecPrepared(del, args)
					if err != nil {
						b.Fatal(err)
					}
					if got := len(res[0].Rows); got != k {
						b.Fatalf("deleted %d rows, want %d", got, k)
					}
					for _, r := range res[0].Rows {
						if _, err := s.ExecPrepared(ins, r); err != nil {
							b.Fatal(err)
						}
					}
					x++
				}
			})
		}
	}
}
