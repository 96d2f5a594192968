package deltaview_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/deltaview/deltaview"
)

// A view is maintained from each committed transaction's changes; a
// subscriber receives the view's delta.
func Example() {
	db := deltaview.Open()
	err := db.Exec(`
		CREATE TABLE orders (id int PRIMARY KEY, cust text, amount int);
		INSERT INTO orders VALUES (1, 'ann', 20), (2, 'bob', 5);
		CREATE MATERIALIZED VIEW big AS SELECT id, cust FROM orders WHERE amount > 10;`)
	if err != nil {
		panic(err)
	}
	// Deltas arrive on the subscription's own goroutine, after the commit.
	deltas := make(chan deltaview.Delta, 1)
	cancel, err := db.Subscribe("big", func(d deltaview.Delta) { deltas <- d })
	if err != nil {
		panic(err)
	}
	defer cancel()

	// bob's order grows past 10: it enters the view.
	if err := db.Exec(`UPDATE orders SET amount = 50 WHERE id = 2`); err != nil {
		panic(err)
	}
	d := <-deltas
	for _, c := range d.Changes {
		fmt.Printf("ts=%d %+d %v\n", d.TS, c.Diff, c.Row)
	}
	rows, _ := db.View("big")
	fmt.Println(len(rows.Rows), "rows")
	// Output:
	// ts=2 +1 [2 bob]
	// 2 rows
}

// Typed changes go through a transaction, without SQL.
func ExampleTx() {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, v text);
		CREATE MATERIALIZED VIEW upper_v AS SELECT id, upper(v) AS v FROM t;`); err != nil {
		panic(err)
	}
	tx, _ := db.Begin()
	tx.Insert("t", deltaview.Int(1), deltaview.Text("a"))
	tx.Insert("t", deltaview.Int(2), deltaview.Text("b"))
	tx.Delete("t", deltaview.Int(1), deltaview.Text("a"))
	if err := tx.Commit(); err != nil {
		panic(err)
	}
	rows, _ := db.View("upper_v")
	fmt.Println(rows.Columns[1].Name, rows.Rows)
	// Output: v [[2 B]]
}

// Errors carry a SQLSTATE; views refuse what they cannot maintain.
func ExampleCode() {
	db := deltaview.Open()
	db.Exec(`CREATE TABLE t (id int PRIMARY KEY, ts timestamptz)`)
	err := db.Exec(`CREATE MATERIALIZED VIEW recent AS SELECT id, random() FROM t`)
	fmt.Println(deltaview.Code(err), err)
	// Output: 0A000 volatile function random() cannot be maintained in a view
}

// A view of the rows of the last hour: rows leave it as the clock passes
// their instant, each instant a step of its own. Here the clock is pinned.
func ExampleDB_SetClock() {
	db := deltaview.Open()
	defer db.Close()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	if err := db.SetClock(t0); err != nil {
		panic(err)
	}
	if err := db.Exec(`CREATE TABLE orders (id int PRIMARY KEY, ts timestamptz);
		INSERT INTO orders VALUES (1, '2026-01-01 11:15:00+00'), (2, '2026-01-01 11:45:00+00');
		CREATE MATERIALIZED VIEW last_hour AS SELECT id FROM orders WHERE ts > now() - interval '1 hour'`); err != nil {
		panic(err)
	}
	got := make(chan deltaview.Delta, 2)
	cancel, _ := db.Subscribe("last_hour", func(d deltaview.Delta) { got <- d })
	if err := db.SetClock(t0.Add(time.Hour)); err != nil {
		panic(err)
	}
	for range 2 {
		d := <-got
		fmt.Println("ts", d.TS, d.Changes)
	}
	cancel()
	rows, _ := db.View("last_hour")
	fmt.Println(rows.Rows)
	// Output:
	// ts 2 [{[1] -1}]
	// ts 3 [{[2] -1}]
	// []
}

// A session keeps a transaction open across calls; other sessions read
// the committed state meanwhile, without waiting for it.
func ExampleDB_Session() {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, v int);
		INSERT INTO t VALUES (1, 10)`); err != nil {
		panic(err)
	}
	s := db.Session()
	defer s.Close()
	if err := s.Exec(`BEGIN; UPDATE t SET v = 11 WHERE id = 1; INSERT INTO t VALUES (2, 20)`); err != nil {
		panic(err)
	}
	mine, _ := s.Query(`SELECT * FROM t ORDER BY id`)
	others, _ := db.Query(`SELECT * FROM t ORDER BY id`)
	fmt.Println("in the transaction:", mine.Rows, "elsewhere:", others.Rows)
	if err := s.Exec(`COMMIT`); err != nil {
		panic(err)
	}
	others, _ = db.Query(`SELECT * FROM t ORDER BY id`)
	fmt.Println("after COMMIT:", others.Rows)
	// Output:
	// in the transaction: [[1 11] [2 20]] elsewhere: [[1 10]]
	// after COMMIT: [[1 11] [2 20]]
}

// Run returns every statement's result, to print as psql does.
func ExampleSession_Run() {
	db := deltaview.Open()
	s := db.Session()
	defer s.Close()
	err := s.Run(`CREATE TABLE t (id int, name text);
		INSERT INTO t VALUES (1, 'ann'), (2, NULL);
		SELECT * FROM t ORDER BY id`, func(r *deltaview.Result) error {
		fmt.Println(r.Tag)
		return r.Print(os.Stdout, deltaview.PrintOptions{Format: "csv", Null: "NULL"})
	})
	if err != nil {
		fmt.Print(deltaview.FormatError(err))
	}
	err = s.Run("SELECT nope FROM t", func(*deltaview.Result) error { return nil })
	fmt.Print(deltaview.FormatError(err))
	// Output:
	// CREATE TABLE
	// INSERT 0 2
	// SELECT 2
	// id,name
	// 1,ann
	// 2,NULL
	//
	// ERROR:  column "nope" does not exist (SQLSTATE 42703)
	// LINE 1: SELECT nope FROM t
	//                ^
}

// A subscription that starts from the view's rows, then follows its
// deltas; a subscriber told that it lagged starts over the same way.
func ExampleDB_SubscribeWith() {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE orders (id int PRIMARY KEY, cust text, amount int);
		INSERT INTO orders VALUES (1, 'ann', 20), (2, 'bob', 5);
		CREATE MATERIALIZED VIEW big AS SELECT id, cust FROM orders WHERE amount > 10;`); err != nil {
		panic(err)
	}
	deltas := make(chan deltaview.Delta, 8)
	cancel, err := db.SubscribeWith("big", deltaview.SubscribeOptions{Snapshot: true, Queue: 100},
		func(d deltaview.Delta) { deltas <- d })
	if err != nil {
		panic(err)
	}
	defer cancel()
	if err := db.Exec(`DELETE FROM orders WHERE id = 1`); err != nil {
		panic(err)
	}
	for range 2 {
		d := <-deltas
		if errors.Is(d.Err, deltaview.ErrLagged) {
			return // subscribe again with Snapshot to start over
		}
		fmt.Println("ts", d.TS, d.Changes)
	}
	// Output:
	// ts 1 [{[1 ann] 1}]
	// ts 2 [{[1 ann] -1}]
}

// The database-wide memory budget; a commit that crosses it succeeds and
// raises a notice, which a Session's Run hands out with the statement's
// Result.
func ExampleDB_SetMaxMemory() {
	db := deltaview.Open()
	db.SetMaxMemory(64 << 10)
	s := db.Session()
	defer s.Close()
	err := s.Run(`
		CREATE TABLE t (id int PRIMARY KEY, v text);
		CREATE MATERIALIZED VIEW ids AS SELECT id, v FROM t GROUP BY id, v;
		INSERT INTO t SELECT g, 'row ' || g FROM generate_series(1, 1000) g;`,
		func(r *deltaview.Result) error {
			for _, n := range r.Notices {
				// The notice names the bytes held and the budget.
				fmt.Println(r.Tag+":", strings.Contains(n, "over deltaview.max_memory = 64kB"))
			}
			return nil
		})
	fmt.Println(err)
	// Output:
	// INSERT 0 1000: true
	// <nil>
}

// Memory reports each view's state and the total, each piece once.
func ExampleDB_Memory() {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, g int);
		INSERT INTO t SELECT i, i % 3 FROM generate_series(1, 30) i;
		CREATE MATERIALIZED VIEW per_g AS SELECT g, count(*) FROM t GROUP BY g;`); err != nil {
		panic(err)
	}
	m := db.Memory()
	fmt.Println(m.Views["per_g"].Bytes > 0, m.Total.Bytes >= m.Views["per_g"].Bytes)
	// Output: true true
}

// COPY … FROM 'file' reads through the opener the program sets.
func ExampleDB_SetFileOpener() {
	db := deltaview.Open()
	db.SetFileOpener(func(name string) (io.ReadCloser, error) {
		if name != "people.csv" {
			return nil, os.ErrNotExist
		}
		return io.NopCloser(strings.NewReader("1,ann\n2,bob\n")), nil
	})
	if err := db.Exec(`
		CREATE TABLE people (id int PRIMARY KEY, name text);
		COPY people FROM 'people.csv' WITH (FORMAT csv);`); err != nil {
		panic(err)
	}
	rows, _ := db.Query(`SELECT name FROM people ORDER BY id`)
	fmt.Println(rows.Rows)
	// Output: [[ann] [bob]]
}

// ExplainView prints a live view's plan with its figures.
func ExampleDB_ExplainView() {
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE t (id int PRIMARY KEY, g int);
		CREATE MATERIALIZED VIEW per_g AS SELECT g, count(*) FROM t GROUP BY g;`); err != nil {
		panic(err)
	}
	lines, err := db.ExplainView("per_g")
	fmt.Println(len(lines) > 0, err)
	_, err = db.ExplainView("nope")
	fmt.Println(deltaview.Code(err))
	// Output:
	// true <nil>
	// 42P01
}

// A commit in which one view refills its MIN reserves from their index
// more often than the threshold raises a notice.
func ExampleDB_SetRefillNotice() {
	db := deltaview.Open()
	db.SetRefillNotice(10)
	s := db.Session()
	defer s.Close()
	err := s.Run(`
		CREATE TABLE t (id int PRIMARY KEY, g int, v int);
		INSERT INTO t SELECT i, i % 50, i FROM generate_series(1, 5000) i;
		CREATE MATERIALIZED VIEW lo AS SELECT g, min(v) FROM t GROUP BY g;
		DELETE FROM t WHERE v <= 4900;`,
		func(r *deltaview.Result) error {
			if len(r.Notices) > 0 {
				fmt.Println(r.Tag, len(r.Notices))
			}
			return nil
		})
	fmt.Println(err)
	// Output:
	// DELETE 4900 1
	// <nil>
}
