package deltaview_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestChunkedCommitFile: a database kept in a file, changed by batches
// of replacements big enough to commit in chunks (one of them failing in
// a view, so that its chunks are taken back), holds when opened again the
// rows and views of the same batches applied in memory.
func TestChunkedCommitFile(t *testing.T) {
	const schema = `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
		INSERT INTO t SELECT g, g % 10, g FROM generate_series(1, 5000) g;
		CREATE MATERIALIZED VIEW low AS SELECT id, val FROM t WHERE val < 1000;
		CREATE MATERIALIZED VIEW top AS SELECT id, val FROM t ORDER BY val DESC, id LIMIT 3;
		CREATE MATERIALIZED VIEW inv AS SELECT id, 100000 / (val - 77777) AS q FROM t;`
	batch := func(db *deltaview.DB, b int) error {
		tx, err := db.Begin()
		if err != nil {
			return err
		}
		var rows [][]deltaview.Value
		for i := range 3000 {
			id := 1 + (i*7919+b*31)%5000
			val := (id*13 + b*101) % 9000
			if b == 2 && i == 2500 {
				val = 77777 // inv divides by zero: the commit fails
			}
			rows = append(rows, []deltaview.Value{deltaview.Int(int64(id)), deltaview.Int(int64(b)), deltaview.Int(int64(val))})
		}
		if err := tx.ReplaceRows("t", rows); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	}
	db, path := openFileDB(t, "chunked.db")
	mem := deltaview.Open()
	for _, x := range []*deltaview.DB{db, mem} {
		if err := x.Exec(schema); err != nil {
			t.Fatal(err)
		}
	}
	for b := range 4 {
		err1, err2 := batch(db, b), batch(mem, b)
		if (err1 == nil) != (b != 2) || (err2 == nil) != (b != 2) {
			t.Fatalf("batch %d: %v, in memory %v", b, err1, err2)
		}
	}
	db = reopenFileDB(t, db, path)
	defer db.Close()
	for _, v := range []string{"low", "top", "inv"} {
		a, err1 := mem.View(v)
		b, err2 := db.View(v)
		if err1 != nil || err2 != nil || fmt.Sprint(a.Rows) != fmt.Sprint(b.Rows) {
			t.Fatalf("view %s opened again: %v %v, other rows than in memory", v, err1, err2)
		}
	}
	a, err1 := mem.Query("SELECT sum(grp), sum(val), count(*) FROM t")
	b, err2 := db.Query("SELECT sum(grp), sum(val), count(*) FROM t")
	if err1 != nil || err2 != nil || fmt.Sprint(a.Rows) != fmt.Sprint(b.Rows) {
		t.Fatalf("t opened again: %v %v, %v against %v", err1, err2, b, a)
	}
}
