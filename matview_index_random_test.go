package deltaview_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/deltaview/deltaview"
)

// TestMatViewUniqueIndexRandom applies random transactions to a table
// under a materialized view with a UNIQUE index and checks each against a
// model: a transaction commits exactly when the view's rows keep their
// keys distinct (NULLs apart), and one that fails (23505) changes
// nothing; reads through the view's indexes equal a scan.
func TestMatViewUniqueIndexRandom(t *testing.T) {
	db := deltaview.Open()
	defer db.Close()
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, g int, h int);
CREATE MATERIALIZED VIEW mv AS SELECT id, g, h FROM t WHERE id % 5 <> 0;
CREATE UNIQUE INDEX mv_g ON mv (g);
CREATE INDEX mv_h ON mv (h)`); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(17))
	model := map[int][2]*int{} // id → g, h
	val := func(n int) *int {
		if rng.Intn(6) == 0 {
			return nil
		}
		v := rng.Intn(n)
		return &v
	}
	lit := func(p *int) string {
		if p == nil {
			return "NULL"
		}
		return fmt.Sprint(*p)
	}
	holds := func(m map[int][2]*int) bool {
		seen := map[int]bool{}
		for id, r := range m {
			if id%5 == 0 || r[0] == nil {
				continue
			}
			if seen[*r[0]] {
				return false
			}
			seen[*r[0]] = true
		}
		return true
	}
	var committed, refused int
	for step := 0; step < 400; step++ {
		next := map[int][2]*int{}
		for k, v := range model {
			next[k] = v
		}
		script := "BEGIN;\n"
		for i := rng.Intn(3) + 1; i > 0; i-- {
			id := rng.Intn(30)
			if _, ok := next[id]; ok {
				if rng.Intn(3) == 0 {
					delete(next, id)
					script += fmt.Sprintf("DELETE FROM t WHERE id = %d;\n", id)
				} else {
					g, h := val(40), val(4)
					next[id] = [2]*int{g, h}
					script += fmt.Sprintf("UPDATE t SET g = %s, h = %s WHERE id = %d;\n", lit(g), lit(h), id)
				}
				continue
			}
			g, h := val(40), val(4)
			next[id] = [2]*int{g, h}
			script += fmt.Sprintf("INSERT INTO t VALUES (%d, %s, %s);\n", id, lit(g), lit(h))
		}
		script += "COMMIT"
		err := db.Exec(script)
		want := holds(next)
		switch {
		case want && err != nil:
			t.Fatalf("step %d: %v\n%s", step, err, script)
		case !want && deltaview.Code(err) != "23505":
			t.Fatalf("step %d: got %v, want 23505\n%s", step, err, script)
		case want:
			model = next
			committed++
		default:
			refused++
		}
		if err != nil {
			db.Exec("ROLLBACK") //nolint:errcheck // the failed COMMIT ended the block
		}
		rs, err := db.Query("SELECT count(*) FROM t")
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(rs.Rows); got != fmt.Sprintf("[[%d]]", len(model)) {
			t.Fatalf("step %d: t has %s rows, the model %d", step, got, len(model))
		}
		k := rng.Intn(40)
		for _, q := range []string{"g = %d", "h = %d"} {
			w := fmt.Sprintf(q, k%map[string]int{"g = %d": 40, "h = %d": 4}[q])
			a, err1 := db.Query("SELECT * FROM mv WHERE " + w + " ORDER BY id")
			b, err2 := db.Query("SELECT * FROM (SELECT * FROM mv OFFSET 0) s WHERE " + w + " ORDER BY id")
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if fmt.Sprint(a.Rows) != fmt.Sprint(b.Rows) {
				t.Fatalf("step %d: %s through the index %v, by a scan %v", step, w, a.Rows, b.Rows)
			}
		}
	}
	if committed < 50 || refused < 50 {
		t.Fatalf("%d transactions committed, %d refused: the test exercises too little", committed, refused)
	}
}
