package store_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/deltaview/deltaview"
	_ "github.com/deltaview/deltaview/store"
)

// A database kept in a file: the second OpenFile finds the table, its
// rows and the view, rebuilt from them.
func Example() {
	dir, _ := os.MkdirTemp("", "deltaview")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "app.db")

	db, err := deltaview.OpenFile(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	db.Exec(`CREATE TABLE orders (id int PRIMARY KEY, amount numeric(10,2));
		CREATE MATERIALIZED VIEW total AS SELECT count(*) AS n, sum(amount) AS amount FROM orders;
		INSERT INTO orders VALUES (1, 12.50), (2, 7)`)
	db.Close()

	db, err = deltaview.OpenFile(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	db.Exec(`INSERT INTO orders VALUES (3, 0.25)`)
	rows, _ := db.View("total")
	fmt.Println(rows.Rows[0][0], rows.Rows[0][1])
	// Output: 3 19.75
}
