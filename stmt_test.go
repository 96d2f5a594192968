package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// A prepared UPDATE runs with new values each time; the view follows.
func ExampleStmt() {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, v int);
		INSERT INTO t VALUES (1, 5), (2, 50);
		CREATE MATERIALIZED VIEW big AS SELECT id, v FROM t WHERE v > 10;`); err != nil {
		panic(err)
	}
	up, err := db.Prepare("UPDATE t SET v = $2 WHERE id = $1")
	if err != nil {
		panic(err)
	}
	fmt.Println(up.ParamTypes())
	for id, v := range map[int64]int64{1: 99, 2: 7} {
		if _, err := up.Exec(deltaview.Int(id), deltaview.Int(v)); err != nil {
			panic(err)
		}
	}
	rows, _ := db.View("big")
	fmt.Println(rows.Rows)
	// Output:
	// [integer integer]
	// [[1 99]]
}

func prepDB(t *testing.T) *deltaview.DB {
	t.Helper()
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, name varchar(5), d date, x numeric(6,2), n int);
		INSERT INTO t VALUES (1, 'a', '2024-01-01', 1.5, 10), (2, 'b', '2024-02-01', 2.5, 20);
		CREATE MATERIALIZED VIEW s AS SELECT count(*) AS c, sum(n) AS total FROM t;`); err != nil {
		t.Fatal(err)
	}
	return db
}

func mustPrepare(t *testing.T, db *deltaview.DB, q string) *deltaview.Stmt {
	t.Helper()
	s, err := db.Prepare(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

func viewText(t *testing.T, db *deltaview.DB, name string) string {
	t.Helper()
	rows, err := db.View(name)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(rows.Rows)
}

func TestPreparedStatements(t *testing.T) {
	db := prepDB(t)
	ins := mustPrepare(t, db, "INSERT INTO t VALUES ($1, $2, $3, $4, $5)")
	if got := fmt.Sprint(ins.ParamTypes()); got != "[integer character varying(5) date numeric(6,2) integer]" {
		t.Errorf("parameter types %s", got)
	}
	// Text arguments are read as the parameter's type; numbers are
	// converted as an assignment converts them.
	n, err := ins.Exec(deltaview.Int(3), deltaview.Text("c"), deltaview.Text("2024-03-01"), deltaview.Float(3.256), deltaview.Text("30"))
	if err != nil || n != 1 {
		t.Fatalf("insert: %d, %v", n, err)
	}
	sel := mustPrepare(t, db, "SELECT id, name, d, x FROM t WHERE n >= $1 AND name <> $2 ORDER BY id")
	rows, err := sel.Query(deltaview.Int(20), deltaview.Text("b"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rows.Rows); got != "[[3 c 2024-03-01 3.26]]" {
		t.Errorf("select: %s", got)
	}
	up := mustPrepare(t, db, "UPDATE t SET n = n + $2 WHERE id = $1 RETURNING n")
	rows, err = up.Query(deltaview.Int(1), deltaview.Int(5))
	if err != nil || fmt.Sprint(rows.Rows) != "[[15]]" {
		t.Fatalf("update returning: %v, %v", rows, err)
	}
	if n, err := up.Exec(deltaview.Int(99), deltaview.Int(5)); err != nil || n != 0 {
		t.Errorf("update of a missing key: %d, %v", n, err)
	}
	del := mustPrepare(t, db, "DELETE FROM t WHERE id = $1")
	if n, err := del.Exec(deltaview.Int(2)); err != nil || n != 1 {
		t.Errorf("delete: %d, %v", n, err)
	}
	if got := viewText(t, db, "s"); got != "[[2 45]]" {
		t.Errorf("view after prepared changes: %s", got)
	}
	// A parameter used untyped only in the select list is text.
	one := mustPrepare(t, db, "SELECT $1 AS p")
	rows, err = one.Query(deltaview.Int(7))
	if err != nil || fmt.Sprint(rows.Columns, rows.Rows) != "[{p text}] [[7]]" {
		t.Errorf("SELECT $1: %v, %v", rows, err)
	}
	// NULL binds to any parameter.
	if n, err := ins.Exec(deltaview.Int(4), deltaview.Null, deltaview.Null, deltaview.Null, deltaview.Null); err != nil || n != 1 {
		t.Errorf("insert of NULLs: %d, %v", n, err)
	}
}

func TestPreparedErrors(t *testing.T) {
	db := prepDB(t)
	ins := mustPrepare(t, db, "INSERT INTO t (id, name, n) VALUES ($1, $2, $3)")
	for _, c := range []struct {
		args []deltaview.Value
		code string
	}{
		{[]deltaview.Value{deltaview.Int(5)}, "08P01"},                                                          // too few
		{[]deltaview.Value{deltaview.Int(5), deltaview.Text("e"), deltaview.Int(1), deltaview.Int(1)}, "08P01"}, // too many
		{[]deltaview.Value{deltaview.Int(1 << 40), deltaview.Text("e"), deltaview.Int(1)}, "22003"},             // out of int range
		{[]deltaview.Value{deltaview.Int(5), deltaview.Text("toolong"), deltaview.Int(1)}, "22001"},             // varchar(5)
		{[]deltaview.Value{deltaview.Text("five"), deltaview.Text("e"), deltaview.Int(1)}, "22P02"},             // not an integer
		{[]deltaview.Value{deltaview.Bool(true), deltaview.Text("e"), deltaview.Int(1)}, "42804"},               // wrong type
		{[]deltaview.Value{deltaview.Int(1), deltaview.Text("e"), deltaview.Int(1)}, "23505"},                   // duplicate key
	} {
		if _, err := ins.Exec(c.args...); deltaview.Code(err) != c.code {
			t.Errorf("%v: got %v (%s), want %s", c.args, err, deltaview.Code(err), c.code)
		}
	}
	if got := viewText(t, db, "s"); got != "[[2 30]]" {
		t.Errorf("failed executions changed the view: %s", got)
	}
	for _, c := range []struct{ q, code string }{
		{"SELECT id FROM t WHERE n = $2", "42P18"},                               // $1 is never used
		{"SELECT 1 WHERE $1 IS NULL", "42P18"},                                   // nothing gives $1 a type
		{"CREATE MATERIALIZED VIEW v AS SELECT id FROM t WHERE n > $1", "42P02"}, // not in a view
		{"CREATE TABLE u (a int DEFAULT $1)", "42P02"},
		{"SELECT id FROM t WHERE id = $0", "42P02"},
		{"SELECT id FROM t WHERE nope = $1", "42703"},
	} {
		if _, err := db.Prepare(c.q); deltaview.Code(err) != c.code {
			t.Errorf("%s: got %v (%s), want %s", c.q, err, deltaview.Code(err), c.code)
		}
	}
}

// A statement is bound again after the catalog changes: the same text
// then runs against the new table, with its new column types.
func TestPreparedRebinds(t *testing.T) {
	db := prepDB(t)
	sel := mustPrepare(t, db, "SELECT count(*) FROM t WHERE n > $1")
	if err := db.Exec(`DROP MATERIALIZED VIEW s; DROP TABLE t;
		CREATE TABLE t (id int PRIMARY KEY, n text);
		INSERT INTO t VALUES (1, 'b'), (2, 'c');`); err != nil {
		t.Fatal(err)
	}
	rows, err := sel.Query(deltaview.Text("a"))
	if err != nil || fmt.Sprint(rows.Rows) != "[[2]]" {
		t.Fatalf("after the table changed: %v, %v", rows, err)
	}
	if got := fmt.Sprint(sel.ParamTypes()); got != "[text]" {
		t.Errorf("parameter types after rebinding: %s", got)
	}
	if err := db.Exec("DROP TABLE t"); err != nil {
		t.Fatal(err)
	}
	if _, err := sel.Query(deltaview.Text("a")); deltaview.Code(err) != "42P01" {
		t.Errorf("after the table was dropped: %v", err)
	}
}

// Inside a Tx, a failing statement undoes only itself; in a SQL
// transaction block it fails the block, as in PostgreSQL.
func TestPreparedInTransactions(t *testing.T) {
	db := prepDB(t)
	ins := mustPrepare(t, db, "INSERT INTO t (id, n) VALUES ($1, $2)")
	commit := mustPrepare(t, db, "COMMIT")
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ins, deltaview.Int(3), deltaview.Int(100)); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ins, deltaview.Int(1), deltaview.Int(100)); deltaview.Code(err) != "23505" {
		t.Fatalf("duplicate key inside a Tx: %v", err)
	}
	if err := tx.Insert("t", deltaview.Int(4), deltaview.Null, deltaview.Null, deltaview.Null, deltaview.Int(1000)); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(commit); deltaview.Code(err) != "25001" {
		t.Errorf("COMMIT through Tx.Exec: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := viewText(t, db, "s"); got != "[[4 1130]]" {
		t.Errorf("view after the Tx: %s", got)
	}

	// A block spans calls in a session; on the DB, each statement is a
	// transaction of its own and BEGIN is refused.
	if _, err := commit.Exec(); deltaview.Code(err) != "25001" {
		t.Errorf("COMMIT through Stmt.Exec: %v", err)
	}
	sess := db.Session()
	defer sess.Close()
	if err := sess.Exec("BEGIN"); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.ExecStmt(ins, deltaview.Int(5), deltaview.Int(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.ExecStmt(ins, deltaview.Int(5), deltaview.Int(1)); deltaview.Code(err) != "23505" {
		t.Fatalf("duplicate key in a block: %v", err)
	}
	if _, err := sess.ExecStmt(ins, deltaview.Int(6), deltaview.Int(1)); deltaview.Code(err) != "25P02" {
		t.Errorf("statement after a failure in a block: %v", err)
	}
	if _, err := sess.ExecStmt(commit); err != nil {
		t.Fatal(err)
	}
	if sess.InTransaction() {
		t.Error("COMMIT of a failed block left it open")
	}
	if got := viewText(t, db, "s"); got != "[[4 1130]]" {
		t.Errorf("a failed block changed the view: %s", got)
	}
}

// Each parameter takes its type from its first use that needs one.
func TestPreparedParamTypes(t *testing.T) {
	db := prepDB(t)
	for _, c := range []struct{ q, types string }{
		{"SELECT $1::int", "[integer]"},
		{"SELECT id FROM t WHERE id IN ($1, $2)", "[integer integer]"},
		{"SELECT id FROM t ORDER BY id LIMIT $1 OFFSET $2", "[bigint bigint]"},
		{"SELECT id FROM t WHERE name LIKE $1", "[text]"},
		{"SELECT id FROM t WHERE n + $1 > $2", "[integer integer]"},
		{"SELECT count(*) FROM t WHERE d > $1 GROUP BY n HAVING sum(n) > $2", "[date bigint]"},
		{"SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t t2 WHERE t2.n = $1)", "[integer]"},
		{"SELECT * FROM (SELECT id, n FROM t WHERE n > $1) s", "[integer]"},
		{"SELECT CASE WHEN $1 THEN 1 ELSE 2 END", "[boolean]"},
		{"INSERT INTO t (id, n) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET n = excluded.n + $3", "[integer integer integer]"},
		{"DELETE FROM t WHERE n > $1 RETURNING id, $2::text", "[integer text]"},
	} {
		s, err := db.Prepare(c.q)
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if got := fmt.Sprint(s.ParamTypes()); got != c.types {
			t.Errorf("%s: %s, want %s", c.q, got, c.types)
		}
	}
}
