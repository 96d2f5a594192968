package sqlite_test

import (
	"database/sql"
	"fmt"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/sink/sqlite"
)

// A dimension view, maintained from partial change events, is kept in a
// SQLite table.
func Example() {
	lite, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		panic(err)
	}
	lite.SetMaxOpenConns(1)
	db := deltaview.Open()
	err = db.Exec(`
		CREATE TABLE addresses (aid int PRIMARY KEY, city text) WITH (change_stream = true);
		CREATE TABLE customers (cid int PRIMARY KEY, name text, aid int NOT NULL) WITH (change_stream = true);
		CREATE MATERIALIZED VIEW dim AS SELECT c.cid, c.name, a.city FROM customers c JOIN addresses a ON c.aid = a.aid;`)
	if err != nil {
		panic(err)
	}
	if _, err := db.SinkTo("dim", sqlite.Database(lite).Table("dim")); err != nil {
		panic(err)
	}
	err = db.Exec(`
COPY addresses FROM STDIN WITH (FORMAT upsert);
{"key": 1, "value": {"city": "Essen"}}
\.
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op": "c", "after": {"cid": 7, "name": "Adam", "aid": 1}}
\.
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"op": "u", "before": null, "after": {"aid": 1, "city": "Bonn"}}
\.
`)
	if err != nil {
		panic(err)
	}
	var name, city string
	if err := lite.QueryRow(`SELECT name, city FROM dim WHERE cid = 7`).Scan(&name, &city); err != nil {
		panic(err)
	}
	fmt.Println(name, city)
	// Output: Adam Bonn
}
