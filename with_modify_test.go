package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// A statement with data-modifying WITH items, prepared with parameters:
// the parts run once per execution, the result is the main statement's,
// and the view sees the whole statement at one commit. In a transaction
// it is undone by Rollback.
func TestPreparedWithModifying(t *testing.T) {
	db := prepDB(t)
	if err := db.Exec(`CREATE TABLE gone (id int PRIMARY KEY, n int, why text);
		CREATE MATERIALIZED VIEW g AS SELECT count(*) AS c, sum(n) AS total FROM gone;`); err != nil {
		t.Fatal(err)
	}
	move := mustPrepare(t, db, `WITH d AS (DELETE FROM t WHERE id = $1 RETURNING id, n)
		INSERT INTO gone SELECT id, n, $2::text FROM d RETURNING id, why`)
	if got := fmt.Sprint(move.ParamTypes()); got != "[integer text]" {
		t.Errorf("parameter types %s", got)
	}
	rows, err := move.Query(deltaview.Int(1), deltaview.Text("old"))
	if err != nil || fmt.Sprint(rows.Rows) != "[[1 old]]" {
		t.Fatalf("move: %v, %v", rows, err)
	}
	if n, err := move.Exec(deltaview.Int(1), deltaview.Text("again")); err != nil || n != 0 {
		t.Errorf("move of a row already moved: %d, %v", n, err)
	}
	if got := viewText(t, db, "s") + viewText(t, db, "g"); got != "[[1 20]][[1 10]]" {
		t.Errorf("views after the move: %s", got)
	}
	// A SELECT main statement reads the table as it was.
	bump := mustPrepare(t, db, `WITH u AS (UPDATE t SET n = n + $1 RETURNING n)
		SELECT (SELECT sum(n) FROM t) AS before, (SELECT sum(n) FROM u) AS after`)
	rows, err = bump.Query(deltaview.Int(5))
	if err != nil || fmt.Sprint(rows.Rows) != "[[20 25]]" {
		t.Fatalf("bump: %v, %v", rows, err)
	}

	// In a transaction: a failing execution undoes all its parts and
	// leaves the transaction's earlier changes; Rollback undoes the rest.
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(move, deltaview.Int(2), deltaview.Text("tx")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("t", deltaview.Int(1), deltaview.Null, deltaview.Null, deltaview.Null, deltaview.Int(7)); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(move, deltaview.Int(1), deltaview.Text("dup")); deltaview.Code(err) != "23505" {
		t.Fatalf("move onto a key taken: %v", err)
	}
	left := mustPrepare(t, db, `SELECT id, n FROM t ORDER BY id`)
	if rows, err := tx.Query(left); err != nil || fmt.Sprint(rows.Rows) != "[[1 7]]" {
		t.Errorf("rows in the transaction after the failed move: %v, %v", rows, err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := viewText(t, db, "s") + viewText(t, db, "g"); got != "[[1 25]][[1 10]]" {
		t.Errorf("views after the rollback: %s", got)
	}
}
