package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestIndexRandom compares with PostgreSQL random ad-hoc SELECTs, UPDATEs
// and DELETEs whose WHERE has equalities, ranges, BETWEEN and IS NULL on
// columns of random indexes, some unique (created and dropped as the test
// goes), and random INSERTs, over a
// table of few distinct values and NULLs under random changes: the rows an
// index finds must be those of a scan.
func TestIndexRandom(t *testing.T) {
	tw, r := randomTwin(t, 17)
	tw.tags = true

	tw.both(`CREATE TABLE t (id int PRIMARY KEY, a int, b smallint, c text, d numeric, e int)`)
	next := 301 // the next row's id
	val := func(col string) string {
		if r.IntN(8) == 0 {
			return "NULL"
		}
		switch col {
		case "a":
			return fmt.Sprint(r.IntN(12) - 2)
		case "b":
			if r.IntN(20) == 0 {
				return "100000" // beyond smallint: no index bound
			}
			return fmt.Sprint(r.IntN(8))
		case "c":
			return fmt.Sprintf("'c%d'", r.IntN(9))
		case "e": // nearly distinct: a unique index on it may hold
			return fmt.Sprint(r.IntN(100000))
		case "id":
			return fmt.Sprint(r.IntN(next + 10))
		}
		return fmt.Sprintf("%d.%d", r.IntN(5), r.IntN(2)*5)
	}
	cols := []string{"a", "b", "c", "d", "e"}
	row := func(id int) string {
		return fmt.Sprintf("(%d, %s, %s, %s, %s, %s)", id, val("a"), strings.ReplaceAll(val("b"), "100000", "7"), val("c"), val("d"), val("e"))
	}
	var vals []string
	for id := 1; id <= 300; id++ {
		vals = append(vals, row(id))
	}
	tw.both("INSERT INTO t VALUES " + strings.Join(vals, ", "))
	termCols := append([]string{"id"}, cols...) // the primary key's ranges too
	term := func() string {
		c := termCols[r.IntN(len(termCols))]
		switch r.IntN(9) {
		case 0, 1:
			return c + " = " + val(c)
		case 2:
			return c + " < " + val(c)
		case 3:
			return c + " <= " + val(c)
		case 4:
			return val(c) + " < " + c
		case 5:
			return c + " >= " + val(c)
		case 6:
			return c + " BETWEEN " + val(c) + " AND " + val(c)
		case 7:
			return c + " IS NULL"
		}
		return c + " > " + val(c)
	}
	pred := func() string { return conjunction(r, term) }
	// used counts the predicates an index serves, as EXPLAIN says.
	used := 0
	explained := func(p string) string {
		if indexScanned(tw, p) {
			used++
		}
		return p
	}
	var indexes []string
	uniques := 0
	for step := 0; step < 600; step++ {
		switch k := r.IntN(20); {
		case k == 0 || len(indexes) == 0:
			n := 1 + r.IntN(3)
			perm := r.Perm(len(cols))[:n]
			var on []string
			for _, i := range perm {
				on = append(on, cols[i])
			}
			name, unique := fmt.Sprintf("ix%d", step), ""
			if r.IntN(3) == 0 {
				unique = "UNIQUE " // mostly refused (23505), else enforced
			}
			q := fmt.Sprintf("CREATE %sINDEX %s ON t (%s)", unique, name, strings.Join(on, ", "))
			if tw.run(q).code == "" {
				indexes = append(indexes, name)
				if unique != "" {
					uniques++
				}
			}
			if code := tw.runPG(q).code; (code == "") != slices.Contains(indexes, name) {
				t.Fatalf("%s: PostgreSQL gives %q", q, code)
			}
		case k == 1 && len(indexes) > 1:
			i := r.IntN(len(indexes))
			tw.both("DROP INDEX " + indexes[i])
			indexes = slices.Delete(indexes, i, i+1)
		case k < 6:
			c := cols[r.IntN(len(cols))]
			v := val(c)
			if c == "b" && v == "100000" {
				v = "7"
			}
			tw.both(fmt.Sprintf("UPDATE t SET %s = %s WHERE %s", c, v, pred()))
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
	t.Logf("%d predicates found their rows through an index; %d unique indexes made", used, uniques)
	if used < 50 {
		t.Fatalf("only %d predicates found their rows through an index", used)
	}
}

// conjunction joins one or more terms by AND, each after the first drawn
// with chance 2/3.
func conjunction(r *rand.Rand, term func() string) string {
	ts := []string{term()}
	for r.IntN(3) > 0 {
		ts = append(ts, term())
	}
	return strings.Join(ts, " AND ")
}

// indexScanned reports whether deltaview finds the rows of table t that
// p accepts through an index, as EXPLAIN of a DELETE says.
func indexScanned(tw *pgTwin, p string) bool {
	got := tw.run("EXPLAIN DELETE FROM t WHERE " + p).rows
	return len(got) == 2 && strings.Contains(got[1], "Index Scan")
}
