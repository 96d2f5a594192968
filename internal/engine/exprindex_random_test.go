package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestExprIndexRandom compares with PostgreSQL random ad-hoc SELECTs,
// UPDATEs and DELETEs whose WHERE compares indexed expressions (a + 1,
// lower(c), a * b, d * 2) with constants, and conjuncts that imply, or
// nearly imply, the predicates of partial indexes, under random indexes
// on expressions and partial ones (some unique), created and dropped as
// the test goes, and random INSERTs: the rows an index finds must be
// those of a scan.
func TestExprIndexRandom(t *testing.T) {
	tw, r := randomTwin(t, 29)
	tw.tags = true

	tw.both(`CREATE TABLE t (id int PRIMARY KEY, a int, b smallint, c text, d numeric)`)
	next := 301
	val := func(x string) string {
		if r.IntN(10) == 0 {
			return "NULL"
		}
		switch x {
		case "a", "b", "a + 1":
			return fmt.Sprint(r.IntN(10) - 1)
		case "a * b":
			return fmt.Sprint(r.IntN(30) - 2)
		case "c":
			return fmt.Sprintf("'%c%d'", "cC"[r.IntN(2)], r.IntN(6))
		case "lower(c)":
			return fmt.Sprintf("'c%d'", r.IntN(6))
		}
		return fmt.Sprintf("%d.%d", r.IntN(8), r.IntN(2)*5) // d, d * 2
	}
	row := func(id int) string {
		return fmt.Sprintf("(%d, %s, %s, %s, %s)", id, val("a"), val("b"), val("c"), val("d"))
	}
	var vals []string
	for id := 1; id <= 300; id++ {
		vals = append(vals, row(id))
	}
	tw.both("INSERT INTO t VALUES " + strings.Join(vals, ", "))

	// The index definitions drawn from, and the predicates' conjuncts
	// that imply (or not) theirs.
	defs := []string{
		"((a + 1))", "(lower(c))", "((a * b), c)", "((d * 2))", "(lower(c), (a + 1))",
		"(b) WHERE a > 3", "(c) WHERE a IS NOT NULL", "(lower(c), a) WHERE b < 4",
		"((a + 1)) WHERE d >= 2", "(a) WHERE lower(c) = 'c2'", "(id) WHERE c IS NULL",
	}
	uniqueDefs := []string{"(lower(c), id)", "((a * 1000 + id))", "(id, (a + 1)) WHERE b > 2"}
	exprs := []string{"a + 1", "lower(c)", "a * b", "d * 2", "a", "b", "c"}
	implied := []string{"a > 5", "a > 3", "a >= 4", "a = 7", "a IS NOT NULL", "b < 2", "b <= 3", "b = 3", "b < 4",
		"d >= 2", "d > 2.5", "d = 2", "lower(c) = 'c2'", "c IS NULL", "a >= 3", "b < 5", "d > 1"}
	term := func() string {
		if r.IntN(4) == 0 {
			return implied[r.IntN(len(implied))]
		}
		x := exprs[r.IntN(len(exprs))]
		switch r.IntN(9) {
		case 0, 1, 2:
			return x + " = " + val(x)
		case 3:
			return x + " < " + val(x)
		case 4:
			return val(x) + " <= " + x
		case 5:
			return x + " >= " + val(x)
		case 6:
			return x + " BETWEEN " + val(x) + " AND " + val(x)
		case 7:
			return x + " IS NULL"
		}
		return x + " > " + val(x)
	}
	pred := func() string { return conjunction(r, term) }
	used := 0
	explained := func(p string) string {
		if indexScanned(tw, p) {
			used++
		}
		return p
	}
	var indexes []string
	for step := 0; step < 700; step++ {
		switch k := r.IntN(20); {
		case k == 0 || len(indexes) == 0:
			name, q := fmt.Sprintf("ix%d", step), ""
			if r.IntN(4) == 0 {
				q = fmt.Sprintf("CREATE UNIQUE INDEX %s ON t %s", name, uniqueDefs[r.IntN(len(uniqueDefs))])
			} else {
				q = fmt.Sprintf("CREATE INDEX %s ON t %s", name, defs[r.IntN(len(defs))])
			}
			code := tw.run(q).code
			if pgCode := tw.runPG(q).code; code != pgCode {
				t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", q, code, pgCode)
			}
			if code == "" {
				indexes = append(indexes, name)
			}
		case k == 1 && len(indexes) > 1:
			i := r.IntN(len(indexes))
			tw.both("DROP INDEX " + indexes[i])
			indexes = slices.Delete(indexes, i, i+1)
		case k < 6:
			c := []string{"a", "b", "c", "d"}[r.IntN(4)]
			tw.both(fmt.Sprintf("UPDATE t SET %s = %s WHERE %s", c, val(c), explained(pred())))
		case k < 9:
			tw.both("DELETE FROM t WHERE " + explained(pred()))
		case k < 12:
			var vs []string
			for range 1 + r.IntN(6) {
				vs = append(vs, row(next))
				next++
			}
			tw.both("INSERT INTO t VALUES " + strings.Join(vs, ", "))
		case k < 14:
			tw.both("SELECT count(*), min(id), max(id) FROM t WHERE " + pred())
		default:
			tw.both("SELECT * FROM t WHERE " + explained(pred()) + " ORDER BY id")
		}
	}
	tw.both("SELECT * FROM t ORDER BY id")
	t.Logf("%d predicates found their rows through an index", used)
	if used < 50 {
		t.Fatalf("only %d predicates found their rows through an index", used)
	}
}
