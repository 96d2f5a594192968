package engine_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// TestDMLSubqueryPrepared runs prepared INSERT, UPDATE and DELETE
// statements whose subqueries read parameters, several times with other
// values, in deltaview and in PostgreSQL (parameters sent as text), and
// compares the returned rows, the SQLSTATE of a failure and the tables
// after each run.
func TestDMLSubqueryPrepared(t *testing.T) {
	if _, err := pgtest.FindBinDir(); err != nil && os.Getenv("CI") != "true" {
		t.Skip("PostgreSQL is not installed")
	}
	pg := pgtest.Start(t).Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setupBoth(t, run, runPG, `CREATE TABLE t (id int PRIMARY KEY, a int, b text);
CREATE TABLE u (id int PRIMARY KEY, tid int, z int);
INSERT INTO t VALUES (1, 10, 'x'), (2, 20, 'y'), (3, 30, 'z'), (4, NULL, 'w');
INSERT INTO u VALUES (1, 1, 5), (2, 1, 7), (3, 2, 9), (4, NULL, 1)`)
	s := e.NewSession()
	defer s.Close()
	cases := []struct {
		stmt string
		args [][]string
	}{
		{"UPDATE t SET a = (SELECT max(z) FROM u WHERE u.tid = $1) + $2 WHERE id IN (SELECT tid FROM u WHERE z > $2) RETURNING id, a",
			[][]string{{"1", "6"}, {"2", "0"}, {"9", "100"}}},
		{"DELETE FROM u WHERE z < (SELECT a FROM t WHERE id = $1) - $2 RETURNING id, (SELECT count(*) FROM u WHERE tid = $1)",
			[][]string{{"3", "25"}, {"1", "0"}}},
		{"INSERT INTO u VALUES ($1, (SELECT max(id) FROM t WHERE a > $2), $2) ON CONFLICT (id) DO UPDATE SET z = (SELECT sum(a) FROM t WHERE id <= u.tid) + $2 WHERE EXISTS (SELECT 1 FROM t WHERE t.id = excluded.tid) RETURNING *",
			[][]string{{"7", "5"}, {"7", "1"}, {"8", "1000"}, {"1", "0"}}},
		{"UPDATE t SET b = (SELECT string_agg(z::text, ',' ORDER BY z) FROM u WHERE u.tid = t.id AND z > $1) WHERE a IS NOT NULL AND id = ANY (SELECT tid FROM u WHERE z >= $1) RETURNING *",
			[][]string{{"1"}, {"6"}}},
		{"UPDATE t SET a = (SELECT z FROM u WHERE tid = $1)", [][]string{{"1"}, {"2"}}},
	}
	for _, c := range cases {
		st, err := sql.Parse(c.stmt)
		if err != nil {
			t.Fatal(err)
		}
		p, err := e.Prepare(st)
		if err != nil {
			t.Fatalf("%s: %v", c.stmt, err)
		}
		for _, args := range c.args {
			vals := make([]value.Value, len(args))
			raw := make([][]byte, len(args))
			for i, a := range args {
				vals[i], raw[i] = value.NewText(value.Text, a), []byte(a)
			}
			var got []string
			code := ""
			res, err := s.ExecPrepared(p, vals)
			if err != nil {
				code = pgerr.Code(err)
			} else {
				got = rowTexts(res[len(res)-1].Rows)
			}
			var want []string
			codePG := ""
			r := pg.PgConn().ExecParams(ctx, c.stmt, raw, nil, nil, nil).Read()
			if r.Err != nil {
				codePG = pgerr.Code(pgerr.Wrap(r.Err))
			} else {
				want = pgTexts(pgRows(r))
			}
			if code != codePG {
				t.Fatalf("%s %v: deltaview fails with %q, PostgreSQL with %q", c.stmt, args, code, codePG)
			}
			if !slices.Equal(sorted(got), sorted(want)) {
				t.Fatalf("%s %v: deltaview returns\n%s\nPostgreSQL\n%s", c.stmt, args, show(sorted(got)), show(sorted(want)))
			}
			for _, q := range []string{"SELECT * FROM t", "SELECT * FROM u"} {
				a, _ := run(q)
				b, _ := runPG(q)
				if !slices.Equal(sorted(a), sorted(b)) {
					t.Fatalf("after %s %v: %s holds\n%s\nin PostgreSQL\n%s", c.stmt, args, q, show(sorted(a)), show(sorted(b)))
				}
			}
		}
	}
}
