package deltaview_test

import (
	"fmt"

	"github.com/deltaview/deltaview"
)

// Change events as change capture delivers them — here with unknown old
// rows, an unsent column and a key-only deletion — maintain a view of
// change-stream tables, which keep no copy of their rows.
func ExampleTx_Apply() {
	db := deltaview.Open()
	err := db.Exec(`
		CREATE TABLE addresses (aid int PRIMARY KEY, city text) WITH (change_stream = true);
		CREATE TABLE customers (cid int PRIMARY KEY, name text, aid int NOT NULL) WITH (change_stream = true);
		CREATE MATERIALIZED VIEW dim AS
			SELECT c.cid, c.name, a.city FROM customers c JOIN addresses a ON c.aid = a.aid;`)
	if err != nil {
		panic(err)
	}
	row := func(vs ...deltaview.Value) []deltaview.Value { return vs }
	I, T := deltaview.Int, deltaview.Text
	apply := func(table string, events ...deltaview.ChangeEvent) {
		tx, err := db.Begin()
		if err != nil {
			panic(err)
		}
		if err := tx.Apply(table, events...); err != nil {
			panic(err)
		}
		if err := tx.Commit(); err != nil {
			panic(err)
		}
	}
	apply("addresses",
		deltaview.Insert{Row: row(I(1), T("Essen"))},
		deltaview.Insert{Row: row(I(2), T("Paris"))})
	apply("customers",
		deltaview.Upsert{Row: row(I(1), T("Adam"), I(1))},
		deltaview.Upsert{Row: row(I(2), T("Bob"), I(2))})
	// Adam moves to Paris; his name was not sent.
	apply("customers", deltaview.PartialUpdate{Row: row(I(1), deltaview.Null, I(2)), Unknown: []string{"name"}})
	// Paris is renamed; Bob leaves, by key only.
	apply("addresses", deltaview.PartialUpdate{Row: row(I(2), T("Lutetia"))})
	apply("customers", deltaview.TruePartialDelete{Key: row(I(2))})

	rows, err := db.View("dim")
	if err != nil {
		panic(err)
	}
	for _, r := range rows.Rows {
		fmt.Println(r)
	}
	// Output:
	// [1 Adam Lutetia]
}
