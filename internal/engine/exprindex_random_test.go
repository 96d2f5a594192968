package engine_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestExprIndexRandom compares with PostgreSQL random ad-hoc SELECTs,
// UPDATEs and DELETEs whose WHERE compares indexed expressions (a + 1,
// lower(c), a * b, d * 2) with constants, and conjuncts that imply, or
// nearly imply, the predicates of partial indexes, under random indexes
// on expressions and partial ones (some unique), created and dropped as
// the test goes, and random INSERTs: the rows an index finds must be
// those of a scan.
func TestExprIndexRandom(t *testing.T) {
	if _, err := pgtest.FindBinDir(); err != nil {
		t.Skip("PostgreSQL is not installed")
	}
	pg := pgtest.Start(t).Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	seed := uint64(time.Now().UnixNano())
	if s := envInt("EXPR_INDEX_RANDOM_SEED", 0); s != 0 {
		seed = uint64(s)
	}
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 29))

	e := engine.New()
	sess := e.NewSession()
	defer sess.Close()
	run := func(sql string) ([]string, string, string) {
		var rows []value.Row
		var tag string
		err := sess.ExecScript(sql, func(res engine.Result) error {
			rows, tag = res.Rows, res.Tag
			return nil
		})
		if err != nil {
			return nil, "", pgerr.Code(err)
		}
		return rowTexts(rows), tag, ""
	}
	runPG := func(sql string) ([]string, string, string) {
		rs, err := pg.PgConn().Exec(ctx, sql).ReadAll()
		if err != nil {
			var pe *pgconn.PgError
			if !errors.As(err, &pe) {
				t.Fatalf("%s: PostgreSQL: %v", sql, err)
			}
			return nil, "", pe.Code
		}
		last := rs[len(rs)-1]
		return pgTexts(pgRows(last)), last.CommandTag.String(), ""
	}
	both := func(sql string) {
		t.Helper()
		got, gotTag, gotErr := run(sql)
		want, wantTag, wantErr := runPG(sql)
		switch {
		case gotErr != wantErr:
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", sql, gotErr, wantErr)
		case gotTag != wantTag && gotErr == "":
			t.Fatalf("%s: deltaview %s, PostgreSQL %s", sql, gotTag, wantTag)
		case !slices.Equal(got, want):
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", sql, show(got), show(want))
		}
	}

	both(`CREATE TABLE t (id int PRIMARY KEY, a int, b smallint, c text, d numeric)`)
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
	both("INSERT INTO t VALUES " + strings.Join(vals, ", "))

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
	pred := func() string {
		ts := []string{term()}
		for r.IntN(3) > 0 {
			ts = append(ts, term())
		}
		return strings.Join(ts, " AND ")
	}
	used := 0
	explained := func(p string) string {
		got, _, _ := run("EXPLAIN DELETE FROM t WHERE " + p)
		if len(got) == 2 && strings.Contains(got[1], "Index Scan") {
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
			_, _, code := run(q)
			if _, _, pgCode := runPG(q); code != pgCode {
				t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", q, code, pgCode)
			}
			if code == "" {
				indexes = append(indexes, name)
			}
		case k == 1 && len(indexes) > 1:
			i := r.IntN(len(indexes))
			both("DROP INDEX " + indexes[i])
			indexes = slices.Delete(indexes, i, i+1)
		case k < 6:
			c := []string{"a", "b", "c", "d"}[r.IntN(4)]
			both(fmt.Sprintf("UPDATE t SET %s = %s WHERE %s", c, val(c), explained(pred())))
		case k < 9:
			both("DELETE FROM t WHERE " + explained(pred()))
		case k < 12:
			var vs []string
			for range 1 + r.IntN(6) {
				vs = append(vs, row(next))
				next++
			}
			both("INSERT INTO t VALUES " + strings.Join(vs, ", "))
		case k < 14:
			both("SELECT count(*), min(id), max(id) FROM t WHERE " + pred())
		default:
			both("SELECT * FROM t WHERE " + explained(pred()) + " ORDER BY id")
		}
	}
	both("SELECT * FROM t ORDER BY id")
	t.Logf("%d predicates found their rows through an index", used)
	if used < 50 {
		t.Fatalf("only %d predicates found their rows through an index", used)
	}
}
