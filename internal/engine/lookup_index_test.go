package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestLookupIndexesFollowChanges checks that the indexes ad-hoc reads
// build on first use, a table's on the leading column of its composite
// key and a view's on a column, hold exactly the stored rows after every
// kind of change: inserts, updates of the indexed column and of others,
// deletes, rolled-back transactions, a table that compacts, and a view
// column that turns unselective.
func TestLookupIndexesFollowChanges(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	run(`CREATE TABLE li (o int, l int, q int, PRIMARY KEY (o, l));
		CREATE MATERIALIZED VIEW per_o AS SELECT o, count(*) AS n FROM li GROUP BY o;
		CREATE MATERIALIZED VIEW qs AS SELECT q, o FROM li;
		INSERT INTO li SELECT g / 4, g % 4, g % 50 FROM generate_series(0, 399) g;
		SELECT * FROM li WHERE o = 3; SELECT * FROM per_o WHERE o = 3; SELECT * FROM qs WHERE q = 3`)
	check := func(when string) {
		t.Helper()
		tb := e.tables["li"]
		if len(tb.prefixes) != 1 {
			t.Fatalf("%s: %d prefix indexes", when, len(tb.prefixes))
		}
		p := tb.prefixes[0]
		n := 0
		tb.scan(func(id uint64, row value.Row) bool {
			n++
			found := 0
			p.each(row[0], func(got uint64) {
				if got == id {
					found++
				}
			})
			if found != 1 {
				t.Fatalf("%s: row %d %v found %d times by its prefix", when, id, row, found)
			}
			return true
		})
		held := 0
		for _, first := range p.ints {
			for id := first; id != 0; id = p.next[id] {
				held++
			}
		}
		if held != n {
			t.Fatalf("%s: the prefix index holds %d ids for %d rows", when, held, n)
		}
		for _, name := range []string{"per_o", "qs"} {
			v := e.views[name].(*zview)
			for _, x := range v.lookups {
				want := map[string]int64{}
				v.c.View.Rows(func(r value.Row, w int64) bool {
					if !r[x.col].IsNull() {
						want[zset.FormatRow(r)] = w
					}
					return true
				})
				got := map[string]int64{}
				for _, g := range x.groups {
					for _, en := range append([]zset.Entry{g.first}, g.more...) {
						if en.W <= 0 || hashOf(en.Row, x.col) != hashOf(g.first.Row, x.col) {
							t.Fatalf("%s: %s holds %v", when, name, en)
						}
						got[zset.FormatRow(en.Row)] += en.W
					}
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("%s: %s's index holds %v, the view %v", when, name, got, want)
				}
			}
		}
	}
	check("after the first reads")
	if len(e.views["per_o"].(*zview).lookups) != 1 || len(e.views["qs"].(*zview).lookups) != 1 {
		t.Fatal("the views were not indexed")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		o, l := rng.IntN(120), rng.IntN(5)
		var stmt string
		switch rng.IntN(6) {
		case 0:
			stmt = fmt.Sprintf("DELETE FROM li WHERE o = %d", o)
		case 1:
			stmt = fmt.Sprintf("INSERT INTO li VALUES (%d, %d, %d) ON CONFLICT DO NOTHING", o, l, rng.IntN(60))
		case 2:
			stmt = fmt.Sprintf("UPDATE li SET o = o + 200 WHERE o = %d", o)
		case 3:
			stmt = fmt.Sprintf("UPDATE li SET q = q + 1 WHERE o = %d AND l = %d", o, l)
		case 4:
			stmt = fmt.Sprintf("BEGIN; DELETE FROM li WHERE o = %d; INSERT INTO li VALUES (%d, 9, 1); ROLLBACK", o, o)
		case 5:
			stmt = fmt.Sprintf("SELECT * FROM li WHERE o = %d; SELECT * FROM qs WHERE q = %d", o, l)
		}
		if err := sess.ExecScript(stmt, func(Result) error { return nil }); err != nil && !strings.Contains(err.Error(), "duplicate key") {
			t.Fatalf("%s: %v", stmt, err)
		}
		check(fmt.Sprintf("step %d, after %s", i, stmt))
	}
	run("DELETE FROM li WHERE o < 1000; INSERT INTO li SELECT g + 1000, 1, 7 FROM generate_series(1, 100) g; INSERT INTO li VALUES (5, 1, 1), (5, 2, 1)")
	if qs := e.views["qs"].(*zview); len(qs.lookups) != 0 || len(qs.unselective) != 1 {
		t.Fatalf("qs keeps %d indexes, %v unselective, after 100 rows with one q", len(qs.lookups), qs.unselective)
	}
	run("INSERT INTO li SELECT g + 2000, 1, g FROM generate_series(1, 3000) g; DELETE FROM li WHERE o >= 2000")
	if tb := e.tables["li"]; len(tb.rows.rows) > 1000 || tb.prefixes != nil {
		t.Fatalf("the table did not compact, or kept its prefix index: %d slots", len(tb.rows.rows))
	}
	run("SELECT * FROM li WHERE o = 5")
	check("after the table compacted")
}

// TestLookupIndexesConcurrentReaders has readers build and use the lookup
// indexes while a writer changes the table (run it with -race).
func TestLookupIndexesConcurrentReaders(t *testing.T) {
	e := New()
	w := e.NewSession()
	if err := w.ExecScript(`CREATE TABLE li (o int, l int, PRIMARY KEY (o, l));
		CREATE MATERIALIZED VIEW per_o AS SELECT o, count(*) AS n FROM li GROUP BY o;
		INSERT INTO li SELECT g / 4, g % 4 FROM generate_series(0, 399) g`, func(Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for r := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := e.NewSession()
			for i := range 200 {
				q := fmt.Sprintf("SELECT * FROM li WHERE o = %d; SELECT * FROM per_o WHERE o = %d", (i+r)%100, i%100)
				if err := s.ExecScript(q, func(Result) error { return nil }); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range 200 {
		q := fmt.Sprintf("BEGIN; DELETE FROM li WHERE o = %d; INSERT INTO li VALUES (%d, 7); COMMIT", i%100, i%100)
		if err := w.ExecScript(q, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
