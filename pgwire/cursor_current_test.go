package pgwire_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestWhereCurrentOf runs UPDATE and DELETE WHERE CURRENT OF a cursor of
// the transaction block over both protocols (the extended one keeps the
// statements' bindings while the cursor moves) and compares every step's
// rows or SQLSTATE with PostgreSQL's.
func TestWhereCurrentOf(t *testing.T) {
	steps := []string{
		`CREATE TABLE c1 (id int PRIMARY KEY, v text)`,
		`CREATE TABLE c2 (id int)`,
		`INSERT INTO c1 VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')`,
		`UPDATE c1 SET v = 'z' WHERE CURRENT OF c`,
		`BEGIN`,
		`DECLARE c1 CURSOR FOR SELECT * FROM c1 WHERE id > 1 ORDER BY id FOR UPDATE`,
		`UPDATE c1 SET v = 'z' WHERE CURRENT OF c1`,
		`ROLLBACK`,
		`BEGIN`,
		`DECLARE c2 CURSOR FOR SELECT v, id FROM c1 x WHERE id > 1 ORDER BY id FOR UPDATE`,
		`FETCH c2`,
		`UPDATE c1 SET v = v || '!' WHERE CURRENT OF c2 RETURNING *`,
		`UPDATE c1 SET v = v || '!' WHERE CURRENT OF c2 RETURNING *`,
		`FETCH 2 FROM c2`,
		`DELETE FROM c1 WHERE CURRENT OF c2 RETURNING id`,
		`DELETE FROM c1 WHERE CURRENT OF c2 RETURNING id`,
		`DELETE FROM c2 WHERE CURRENT OF c2`,
		`FETCH c2`,
		`DELETE FROM c1 WHERE CURRENT OF c2`,
		`SELECT * FROM c1 ORDER BY id`,
		`COMMIT`,
		`BEGIN`,
		`DECLARE c3 CURSOR FOR SELECT * FROM c1`,
		`FETCH ALL c3`,
		`DELETE FROM c1 WHERE CURRENT OF c3`,
		`ROLLBACK`,
		`BEGIN`,
		`DECLARE c4 CURSOR FOR SELECT * FROM c1 ORDER BY v`,
		`FETCH c4`,
		`DELETE FROM c1 WHERE CURRENT OF c4`,
		`ROLLBACK`,
		`BEGIN`,
		`DECLARE c5 CURSOR FOR SELECT count(*) FROM c1`,
		`FETCH c5`,
		`DELETE FROM c1 WHERE CURRENT OF c5`,
		`ROLLBACK`,
		`BEGIN`,
		`DELETE FROM c1 WHERE CURRENT OF nosuch`,
		`ROLLBACK`,
		`SELECT * FROM c1 ORDER BY id`,
	}
	run := func(t *testing.T, c *pgx.Conn, mode pgx.QueryExecMode) []string {
		var out []string
		for _, q := range steps {
			out = append(out, q+" → "+stepResult(t, c, q, mode))
		}
		return out
	}
	compareProtocols(t, run)
}

// compareProtocols runs run over the simple and the extended protocol,
// on a new deltaview server and on PostgreSQL (a new database), and
// fails unless both give the same lines.
func compareProtocols(t *testing.T, run func(t *testing.T, c *pgx.Conn, mode pgx.QueryExecMode) []string) {
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeCacheStatement} {
		t.Run(mode.String(), func(t *testing.T) {
			got := run(t, connect(t, startServer(t, deltaview.Open())), mode)
			if _, err := pgtest.FindBinDir(); err != nil && os.Getenv("CI") != "true" {
				t.Skip("no PostgreSQL to compare with")
			}
			want := run(t, pgtest.Start(t).Conn(t), mode)
			if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
				t.Fatalf("deltaview:\n%s\nPostgreSQL:\n%s", g, w)
			}
		})
	}
}

// stepResult runs q and renders its rows, or its error's SQLSTATE.
func stepResult(t *testing.T, c *pgx.Conn, q string, mode pgx.QueryExecMode) string {
	t.Helper()
	rows, err := c.Query(ctx(t), q, mode)
	if err == nil {
		var out []string
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			out = append(out, fmt.Sprint(vals...))
		}
		err = rows.Err()
		if err == nil {
			return fmt.Sprintf("%s %q", rows.CommandTag(), out)
		}
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("%s: %v", q, err)
	}
	return "ERROR " + pe.Code + " " + pe.Message
}

// TestWhereCurrentOfPinsRows keeps a cursor's ctids while another session
// deletes most of the table and commits, which would otherwise renumber
// its rows: UPDATE WHERE CURRENT OF still changes the cursor's row.
func TestWhereCurrentOfPinsRows(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	a, b := connect(t, addr), connect(t, addr)
	mustExec(t, a, `CREATE TABLE big (id int PRIMARY KEY, v text)`)
	mustExec(t, a, `INSERT INTO big SELECT i, 'v' FROM generate_series(1, 3000) i`)
	mustExec(t, a, `BEGIN`)
	mustExec(t, a, `DECLARE c CURSOR FOR SELECT id FROM big WHERE id > 2990`)
	mustExec(t, a, `FETCH 2 FROM c`)
	mustExec(t, b, `DELETE FROM big WHERE id < 2990`)
	var id int32
	if err := a.QueryRow(ctx(t), `UPDATE big SET v = 'x' WHERE CURRENT OF c RETURNING id`).Scan(&id); err != nil || id != 2992 {
		t.Fatalf("UPDATE WHERE CURRENT OF: id %d, %v; want 2992", id, err)
	}
	mustExec(t, a, `COMMIT`)
	// The cursor gone, the next commit renumbers the table.
	mustExec(t, b, `DELETE FROM big WHERE id = 2990`)
	var n int
	if err := b.QueryRow(ctx(t), `SELECT count(*) FROM big WHERE v = 'x' AND id = 2992`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("after commit: %d rows, %v", n, err)
	}
}
