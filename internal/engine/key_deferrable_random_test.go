package engine_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestKeyDeferrableRandom compares with PostgreSQL random transactions
// over a table whose primary key and unique key are DEFERRABLE (one
// INITIALLY DEFERRED), with SET CONSTRAINTS, shifts of the keys that
// collide within a statement (UPDATE … SET pos = pos + 1), inserts,
// deletes, reads by key and savepoints, committed or rolled back: each
// statement must succeed or fail (SQLSTATE) as PostgreSQL's does, and
// give its rows, and a materialized view over the table must equal a
// read of the table after every transaction.
func TestKeyDeferrableRandom(t *testing.T) {
	if _, err := pgtest.FindBinDir(); err != nil {
		t.Skip("PostgreSQL is not installed")
	}
	pg := pgtest.Start(t).Conn(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	seed := uint64(time.Now().UnixNano())
	if s := envInt("KEY_DEFERRABLE_RANDOM_SEED", 0); s != 0 {
		seed = uint64(s)
	}
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 31))

	e := engine.New()
	sess := e.NewSession()
	defer sess.Close()
	run := func(sql string) ([]string, string) {
		var rows []value.Row
		err := sess.ExecScript(sql, func(res engine.Result) error {
			rows = res.Rows
			return nil
		})
		if err != nil {
			return nil, pgerr.Code(err)
		}
		return rowTexts(rows), ""
	}
	runPG := func(sql string) ([]string, string) {
		rs, err := pg.PgConn().Exec(ctx, sql).ReadAll()
		if err != nil {
			var pe *pgconn.PgError
			if !errors.As(err, &pe) {
				t.Fatalf("%s: PostgreSQL: %v", sql, err)
			}
			return nil, pe.Code
		}
		return pgTexts(pgRows(rs[len(rs)-1])), ""
	}
	both := func(sql string) string {
		t.Helper()
		got, gotErr := run(sql)
		want, wantErr := runPG(sql)
		switch {
		case gotErr != wantErr:
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", sql, gotErr, wantErr)
		case !slices.Equal(got, want):
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", sql, show(got), show(want))
		}
		return gotErr
	}
	both(`CREATE TABLE t (id int PRIMARY KEY DEFERRABLE INITIALLY DEFERRED, pos int CONSTRAINT t_pos UNIQUE DEFERRABLE, g int)`)
	for i := 1; i <= 12; i++ {
		both(fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d)", i, i, i%3))
	}
	run("CREATE MATERIALIZED VIEW tv AS SELECT g, count(*) AS n, sum(pos) AS s FROM t GROUP BY g")
	stmt := func() string {
		switch r.IntN(9) {
		case 0:
			return fmt.Sprintf("UPDATE t SET pos = pos + %d WHERE g = %d", 1+r.IntN(2), r.IntN(3))
		case 1:
			return fmt.Sprintf("UPDATE t SET pos = pos - %d", r.IntN(3))
		case 2:
			return fmt.Sprintf("UPDATE t SET id = id + 1 WHERE id >= %d", r.IntN(14))
		case 3:
			return fmt.Sprintf("INSERT INTO t VALUES (%d, %d, %d)", r.IntN(16), r.IntN(16), r.IntN(3))
		case 4:
			return fmt.Sprintf("DELETE FROM t WHERE pos = %d", r.IntN(16))
		case 5:
			return fmt.Sprintf("SELECT id, pos, g FROM t WHERE pos = %d ORDER BY id", r.IntN(16))
		case 6:
			return fmt.Sprintf("SELECT id, pos, g FROM t WHERE id = %d ORDER BY pos", r.IntN(16))
		case 7:
			return []string{"SET CONSTRAINTS ALL DEFERRED", "SET CONSTRAINTS ALL IMMEDIATE", "SET CONSTRAINTS t_pos DEFERRED",
				"SET CONSTRAINTS t_pos IMMEDIATE", "SET CONSTRAINTS t_pkey IMMEDIATE"}[r.IntN(5)]
		}
		return fmt.Sprintf("UPDATE t SET pos = %d WHERE id = %d", r.IntN(16), r.IntN(16))
	}
	failed, commits := 0, 0
	for range 250 {
		block := r.IntN(3) > 0
		if block {
			both("BEGIN")
		}
		for range 1 + r.IntN(5) {
			if block && r.IntN(8) == 0 {
				both("SAVEPOINT s")
				both(stmt())
				both("ROLLBACK TO s")
				continue
			}
			if both(stmt()) != "" {
				failed++
			}
		}
		if block {
			end := "COMMIT"
			if r.IntN(5) == 0 {
				end = "ROLLBACK"
			}
			if both(end) == "" && end == "COMMIT" {
				commits++
			}
		}
		got, _ := run("SELECT * FROM tv ORDER BY g")
		want, _ := run("SELECT g, count(*) AS n, sum(pos) AS s FROM t GROUP BY g ORDER BY g")
		if !slices.Equal(got, want) {
			t.Fatalf("the view %s, its query %s", show(got), show(want))
		}
	}
	both("SELECT * FROM t ORDER BY id")
	t.Logf("%d statements failed, %d blocks committed", failed, commits)
	if failed < 20 || commits < 20 {
		t.Fatalf("only %d statements failed and %d blocks committed", failed, commits)
	}
}
