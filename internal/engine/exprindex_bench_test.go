package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// exprKeyScript creates t(id int8 PRIMARY KEY, email text, a int8) with n
// rows, email in mixed case, and, with index, indexes on lower(email),
// on a + 1 and a partial one on a for the rows of id < 100.
func exprKeyScript(n int, index bool) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE t (id int8 PRIMARY KEY, email text, a int8);\nCOPY t FROM STDIN;\n")
	for i := range n {
		fmt.Fprintf(&b, "%d\tUser%d@Example.org\t%d\n", i, i, int64(i)*7919%int64(n))
	}
	b.WriteString("\\.\n")
	if index {
		b.WriteString("CREATE INDEX t_lower ON t (lower(email));\nCREATE INDEX t_a1 ON t ((a + 1));\nCREATE INDEX t_low ON t (a) WHERE id < 100;\n")
	}
	return b.String()
}

// TestExprIndexVisits checks that DELETE and UPDATE by an indexed
// expression, and by a column under a partial index's predicate, read
// only the rows they find at 100,000 rows (pg_stat_all_tables: no
// sequential scan, one row fetched through an index per statement).
func TestExprIndexVisits(t *testing.T) {
	const n = 100_000
	e := engine.New()
	execAll(t, e, exprKeyScript(n, true))
	stats := func() string {
		t.Helper()
		rs := execAll(t, e, "SELECT seq_scan, seq_tup_read, idx_scan, idx_tup_fetch FROM pg_stat_all_tables WHERE relname = 't'")
		return strings.NewReplacer("\x00", "", "|", " ").Replace(rowTexts(rs[0].Rows)[0])
	}
	before := stats()
	rs := execAll(t, e, `DELETE FROM t WHERE lower(email) = 'user777@example.org';
		UPDATE t SET email = 'x' WHERE a + 1 = 5001;
		DELETE FROM t WHERE a = 7919 AND id < 100`)
	for i, want := range []string{"DELETE 1", "UPDATE 1", "DELETE 1"} {
		if rs[i].Tag != want {
			t.Fatalf("statement %d: %s, want %s", i, rs[i].Tag, want)
		}
	}
	after := stats()
	var s0, r0, i0, f0, s1, r1, i1, f1 int
	fmt.Sscan(before, &s0, &r0, &i0, &f0)
	fmt.Sscan(after, &s1, &r1, &i1, &f1)
	if s1 != s0 || r1 != r0 || i1-i0 != 3 || f1-f0 != 3 {
		t.Fatalf("pg_stat_all_tables (seq_scan, seq_tup_read, idx_scan, idx_tup_fetch) went from %s to %s: want 3 index scans of one row each, no sequential scan", before, after)
	}
}

// BenchmarkExprKeyDelete deletes the row of t whose lower(email) is given
// (DELETE … WHERE lower(email) = $1) and inserts it again, each in a
// transaction of its own: through the index on lower(email) ("index"),
// O(log n), and on a table without it ("scan"), O(n).
func BenchmarkExprKeyDelete(b *testing.B) {
	for _, n := range []int{100_000} {
		for _, index := range []bool{true, false} {
			name := "scan"
			if index {
				name = "index"
			}
			b.Run(fmt.Sprintf("%s/N=%d", name, n), func(b *testing.B) {
				e := engine.New()
				execAll(b, e, exprKeyScript(n, index))
				s := e.NewSession()
				del := prepare(b, s, "DELETE FROM t WHERE lower(email) = $1 RETURNING id, email, a")
				ins := prepare(b, s, "INSERT INTO t VALUES ($1, $2, $3)")
				args := make([]value.Value, 1)
				b.ReportAllocs()
				x := 0
				for b.Loop() {
					args[0] = value.NewText(value.Text, fmt.Sprintf("user%d@example.org", x*104729%n))
					res, err := s.ExecPrepared(del, args)
					if err != nil {
						b.Fatal(err)
					}
					if got := len(res[0].Rows); got != 1 {
						b.Fatalf("deleted %d rows, want 1", got)
					}
					if _, err := s.ExecPrepared(ins, res[0].Rows[0]); err != nil {
						b.Fatal(err)
					}
					x++
				}
			})
		}
	}
}
