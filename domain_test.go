package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview"
)

// TestDomainTypedAPI: the typed API checks a column's domain as INSERT
// and UPDATE do (23514, 23502), a failed change leaves nothing, and a
// view over the column sees only the changes that passed.
func TestDomainTypedAPI(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	if err := db.Exec(`CREATE DOMAIN qty AS int NOT NULL CHECK (VALUE >= 0);
		CREATE TABLE stock (id int PRIMARY KEY, q qty);
		CREATE MATERIALIZED VIEW total AS SELECT sum(q) AS s FROM stock`); err != nil {
		t.Fatal(err)
	}
	try := func(want string, change func(tx *deltaview.Tx) error) {
		t.Helper()
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		err = change(tx)
		if err == nil {
			err = tx.Commit()
		} else {
			tx.Rollback()
		}
		if got := code(err); got != want {
			t.Errorf("error %v (SQLSTATE %q), want SQLSTATE %q", err, got, want)
		}
	}
	ok := ""
	try(ok, func(tx *deltaview.Tx) error { return tx.Insert("stock", deltaview.Int(1), deltaview.Int(5)) })
	try("23514", func(tx *deltaview.Tx) error { return tx.Insert("stock", deltaview.Int(2), deltaview.Int(-1)) })
	try("23502", func(tx *deltaview.Tx) error { return tx.Insert("stock", deltaview.Int(2), deltaview.Null) })
	try("23514", func(tx *deltaview.Tx) error {
		return tx.Update("stock", []deltaview.Value{deltaview.Int(1), deltaview.Int(5)}, []deltaview.Value{deltaview.Int(1), deltaview.Int(-5)})
	})
	try("23514", func(tx *deltaview.Tx) error { return tx.Replace("stock", deltaview.Int(1), deltaview.Int(-2)) })
	try(ok, func(tx *deltaview.Tx) error { return tx.Replace("stock", deltaview.Int(1), deltaview.Int(7)) })
	r, err := db.Query("SELECT s FROM total")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 1 || r.Rows[0][0].String() != "7" {
		t.Errorf("total after the changes: %v, want 7", r.Rows)
	}
}

func code(err error) string {
	if err == nil {
		return ""
	}
	return deltaview.Code(err)
}
