package engine

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/value"
)

func itoa(i int) string { return strconv.Itoa(i) }

// TestTableChurnCompacts checks that a table whose rows are deleted and
// inserted over and over keeps memory in proportion to its rows: the holes
// deletions leave are closed between transactions, and the rows, their
// order and the key index survive it.
func TestTableChurnCompacts(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	run(`CREATE TABLE q (id int PRIMARY KEY, v int); CREATE MATERIALIZED VIEW c AS SELECT count(*) AS n FROM q`)
	for i := 0; i < 5000; i++ {
		run("INSERT INTO q VALUES (" + itoa(i) + ", " + itoa(i) + ")")
		if i >= 10 {
			run("DELETE FROM q WHERE id = " + itoa(i-10))
		}
	}
	tb := e.tables["q"]
	if got := len(tb.rows.rows); got > 2100 {
		t.Fatalf("a table of %d rows holds %d slots", tb.rows.Len(), got)
	}
	_, rows, _ := e.ViewRows("c")
	if rows[0][0].Int() != 10 || tb.rows.Len() != 10 {
		t.Fatalf("count %v, rows %d", rows[0][0], tb.rows.Len())
	}
	run("UPDATE q SET v = -1 WHERE id = 4995")
	var ids []int64
	tb.scan(func(_ uint64, r value.Row) bool { ids = append(ids, r[0].Int()); return true })
	for i, id := range ids {
		if id != int64(4990+i) {
			t.Fatalf("rows out of insertion order: %v", ids)
		}
	}
}

// TestKeyIndexesHoldTheStoredRows checks that an integer key's index
// entry, which holds the row itself, follows every way a row changes: a
// typed replace, an UPDATE of the key and of other columns, a delete and
// a re-insert, a rolled-back transaction, and the renumbering of a table
// that compacts.
func TestKeyIndexesHoldTheStoredRows(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		tb := e.tables["q"]
		n := 0
		tb.scan(func(id uint64, row value.Row) bool {
			n++
			for _, u := range tb.uniques {
				gotID, got, ok := tb.byKey(u, row)
				if !ok || gotID != id || &got[0] != &row[0] {
					t.Fatalf("%s: %s finds (%d, %v, %v) for row %d %v", when, u.name, gotID, got, ok, id, row)
				}
			}
			return true
		})
		for _, u := range tb.uniques {
			if u.len() != n {
				t.Fatalf("%s: %s holds %d keys for %d rows", when, u.name, u.len(), n)
			}
		}
	}
	run(`CREATE TABLE q (id int PRIMARY KEY, u bigint UNIQUE, v int);
		INSERT INTO q SELECT g, g * 10, 0 FROM generate_series(1, 3000) g`)
	check("after the insert")
	for i := range 5 {
		if err := sess.Replace("q", value.Row{value.NewInt(value.Int8, 7), value.NewInt(value.Int8, 70), value.NewInt(value.Int8, int64(i))}); err != nil {
			t.Fatal(err)
		}
	}
	check("after replaces")
	run("UPDATE q SET v = v + 1 WHERE id = 8; UPDATE q SET id = id + 5000 WHERE id <= 10; UPDATE q SET u = -u WHERE id > 2990")
	check("after updates")
	run("DELETE FROM q WHERE id = 12; INSERT INTO q VALUES (12, 120, 1)")
	check("after a delete and an insert")
	run("BEGIN; UPDATE q SET v = 9 WHERE id = 13; DELETE FROM q WHERE id = 14; INSERT INTO q VALUES (14, 140, 2); ROLLBACK")
	check("after a rollback")
	run("DELETE FROM q WHERE id > 100")
	if n := len(e.tables["q"].rows.rows); n > 200 {
		t.Fatalf("the table did not compact: %d slots", n)
	}
	check("after compaction")
}

// TestReplaceOwesOldRowBytes checks the table's bytes through replaces by
// key, which leave the old row's bytes to be settled when the commit
// reads the row: in transactions that commit, that roll back, that
// replace one row twice and that fail on a duplicate of another unique
// key, the bytes are always those of the rows held.
func TestReplaceOwesOldRowBytes(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	check := func(when string) {
		t.Helper()
		tb := e.tables["q"]
		var want int64
		tb.scan(func(_ uint64, row value.Row) bool { want += dataflow.RowBytes(row); return true })
		if tb.bytes != want {
			t.Fatalf("%s: the table counts %d bytes, its rows hold %d", when, tb.bytes, want)
		}
	}
	row := func(id int, s string) value.Row {
		return value.Row{value.NewInt(value.Int8, int64(id)), value.NewText(value.Text, s), value.NewInt(value.Int8, int64(id))}
	}
	replaceAll := func(s string) {
		t.Helper()
		for id := 1; id <= 200; id++ {
			if err := sess.Replace("q", row(id, s+strings.Repeat("x", id%17))); err != nil {
				t.Fatal(err)
			}
		}
	}
	run(`CREATE TABLE q (id int PRIMARY KEY, s text, u int UNIQUE);
		CREATE MATERIALIZED VIEW f AS SELECT id, s FROM q WHERE u % 2 = 0;
		INSERT INTO q SELECT g, 'a', g FROM generate_series(1, 200) g`)
	check("after the insert")
	replaceAll("one row by one row ")
	check("after replaces in their own transactions")
	run("BEGIN")
	replaceAll("a longer text than before, ")
	run("ROLLBACK")
	check("after a rolled-back transaction")
	run("BEGIN")
	replaceAll("b")
	if err := sess.Replace("q", row(5, "twice")); err != nil {
		t.Fatal(err)
	}
	run("COMMIT")
	check("after a committed transaction")
	run("BEGIN")
	replaceAll("c")
	dup := row(7, "a duplicate of u")
	dup[2] = value.NewInt(value.Int8, 8)
	if err := sess.Replace("q", dup); err == nil {
		t.Fatal("a replace duplicating another row's unique key succeeded")
	}
	run("ROLLBACK")
	check("after a transaction that failed")
}

// TestLayoutAfterReplaces checks the layout a cold start makes of a table
// whose rows replaces have scattered: the rows keep their ids, order and
// values and lie in id order in memory; the key indexes (the integer
// ones hold the rows) and a CREATE INDEX refer to them where they now
// are; and the views built before it, over rows whose former copies they
// may still hold, and the one built after, stay equal to their queries
// through the changes that follow.
func TestLayoutAfterReplaces(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := scriptRows(t, sess)
	views := map[string]string{
		"whole": "SELECT * FROM q WHERE v < 50",
		"top":   "SELECT id, v FROM q ORDER BY v DESC, id LIMIT 5",
		"agg":   "SELECT v % 10 AS k, count(*) AS n, min(w) AS lo, max(w) AS hi FROM q GROUP BY v % 10",
	}
	check := func(when string) {
		t.Helper()
		for name, q := range views {
			got, want := run("SELECT * FROM "+name), run(q)
			if !strings.Contains(q, "ORDER BY") {
				slices.Sort(got)
				slices.Sort(want)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: view %s holds %d rows, its query gives %d:\n%v\n%v", when, name, len(got), len(want), got, want)
			}
		}
		tb := e.tables["q"]
		tb.scan(func(id uint64, row value.Row) bool {
			for _, u := range tb.uniques {
				gotID, got, ok := tb.byKey(u, row)
				if !ok || gotID != id || &got[0] != &row[0] {
					t.Fatalf("%s: %s finds (%d, %v, %v) for row %d %v", when, u.name, gotID, got, ok, id, row)
				}
			}
			return true
		})
		for _, ix := range tb.indexes {
			ix.ord.tr.Scan(func(en ordEntry) bool {
				if row, ok := tb.rows.Get(en.id); !ok || &row[0] != &en.row[0] {
					t.Fatalf("%s: %s refers to row %d elsewhere than the table holds it", when, ix.name, en.id)
				}
				return true
			})
		}
	}
	run(`CREATE TABLE q (id int PRIMARY KEY, u bigint UNIQUE, s text UNIQUE, v int, w int);
		CREATE INDEX q_v ON q (v);
		INSERT INTO q SELECT g, g * 10, 's' || g, g % 100, g FROM generate_series(1, 6000) g`)
	for name, q := range views {
		run("CREATE MATERIALIZED VIEW " + name + " AS " + q)
	}
	for i := range 4 {
		run("UPDATE q SET v = (v * 7 + " + itoa(i) + ") % 100, w = w + 1 WHERE id % 4 <> " + itoa(i))
	}
	tb := e.tables["q"]
	if !tb.rows.scattered() {
		t.Fatalf("%d rows replaced of %d: not scattered", tb.rows.moved, tb.rows.Len())
	}
	before := run("SELECT * FROM q")
	check("before the layout")

	views["after"] = "SELECT * FROM q WHERE w % 3 = 0" // keeps q's rows: laid out first
	run("CREATE MATERIALIZED VIEW after AS " + views["after"])
	if tb.rows.scattered() {
		t.Fatal("the cold start left the rows scattered")
	}
	if got := run("SELECT * FROM q"); !slices.Equal(got, before) {
		t.Fatal("the layout changed the rows or their order")
	}
	var prev value.Row
	adjacent := 0
	tb.scan(func(_ uint64, row value.Row) bool {
		if prev != nil && rowEnd(prev) == uintptr(unsafe.Pointer(&row[0])) {
			adjacent++
		}
		prev = row
		return true
	})
	if adjacent < tb.rows.Len()*9/10 {
		t.Fatalf("%d of %d rows follow the row before them in memory", adjacent, tb.rows.Len())
	}
	check("after the layout")

	run(`UPDATE q SET v = v + 1, s = s || 'x' WHERE id % 5 = 0;
		DELETE FROM q WHERE id % 7 = 0;
		INSERT INTO q SELECT g, g * 10, 's' || g, g % 100, g FROM generate_series(6001, 6100) g`)
	if err := sess.Replace("q", value.Row{value.NewInt(value.Int4, 1), value.NewInt(value.Int8, 10),
		value.NewText(value.Text, "s1"), value.NewInt(value.Int4, 99), value.NewInt(value.Int4, 3)}); err != nil {
		t.Fatal(err)
	}
	run("BEGIN; UPDATE q SET w = -w WHERE id < 100; ROLLBACK")
	check("after changes")

	// Later layouts copy only the rows replaced since the last, until
	// those copied out of a layout's slabs would pass half the rows: the
	// table grown to 30,000 rows, a fifth of them replaced, four times,
	// each followed by a cold start.
	run("INSERT INTO q SELECT g, g * 10, 's' || g, g % 100, g FROM generate_series(6101, 30000) g")
	places := func() map[uint64]uintptr {
		p := map[uint64]uintptr{}
		tb.scan(func(id uint64, row value.Row) bool {
			p[id] = uintptr(unsafe.Pointer(&row[0]))
			return true
		})
		return p
	}
	for round := range 4 {
		run("UPDATE q SET w = w + 1 WHERE id > 6100 AND id % 5 = 0")
		before := places()
		name := "again" + itoa(round)
		views[name] = "SELECT * FROM q WHERE w % 7 = " + itoa(round)
		run("CREATE MATERIALIZED VIEW " + name + " AS " + views[name])
		moved, replacedMoved := 0, 0
		for id, p := range places() {
			if p != before[id] {
				moved++
				if id > 6100 && id%5 == 0 {
					replacedMoved++
				}
			}
		}
		// From the second round on, each round's replaces leave a sixth
		// of the rows in slabs they no longer use; with the rows replaced
		// after the first layout, the fourth round passes half of them.
		if all := round == 3; all != (moved > tb.rows.Len()/2) || replacedMoved != 4780 {
			t.Fatalf("round %d: the layout moved %d rows of %d, %d of the 4,780 replaced", round, moved, tb.rows.Len(), replacedMoved)
		}
		check("after layout " + itoa(round))
	}
}

// TestRowStoreLayout checks a layout of a store big enough to be laid out
// on two goroutines, with holes, rows of no values and rows of different
// widths: every row keeps its id and values; the layout copies the rows
// replaced since they were put in place, and only those, each following
// the copy before it in memory but where a slab ends; once the rows
// copied out of its slabs would pass half of them, it copies them all.
func TestRowStoreLayout(t *testing.T) {
	const n = 150_000
	s := newRowStore()
	want := make([]string, n+1)
	for id := 1; id <= n; id++ {
		var row value.Row
		for c := range id % 7 {
			row = append(row, value.NewInt(value.Int8, int64(id*10+c)))
		}
		if id%11 == 0 {
			row = append(row, value.NewText(value.Text, "row "+itoa(id)))
		}
		s.Set(uint64(id), row)
		want[id] = failingRow(row)
	}
	for id := 3; id <= n; id += 5 {
		s.Delete(uint64(id))
		want[id] = ""
	}
	// check reads every row, and counts the breaks in memory order
	// between consecutive rows of those that pick selects.
	check := func(pick func(id int) bool) (breaks, picked int) {
		var prev value.Row
		for id := 1; id <= n; id++ {
			r, ok := s.Get(uint64(id))
			if got := ""; ok {
				if got = failingRow(r); got != want[id] {
					t.Fatalf("row %d: %s, want %s", id, got, want[id])
				}
			} else if want[id] != "" {
				t.Fatalf("row %d lost", id)
			}
			if len(r) == 0 || !pick(id) {
				continue
			}
			picked++
			if prev != nil && rowEnd(prev) != uintptr(unsafe.Pointer(&r[0])) {
				breaks++
			}
			prev = r
		}
		return breaks, picked
	}
	// replace replaces the rows of ids from, from+step, … and returns
	// how many it replaced.
	replace := func(from, step int) int {
		k := 0
		for id := from; id <= n; id += step {
			if r, ok := s.Get(uint64(id)); ok {
				s.Set(uint64(id), slices.Clone(r)) // a replace: the same values elsewhere
				k++
			}
		}
		return k
	}
	held := s.Len()
	places := func() []uintptr {
		p := make([]uintptr, n+1)
		for id := 1; id <= n; id++ {
			if r, ok := s.Get(uint64(id)); ok && len(r) > 0 {
				p[id] = uintptr(unsafe.Pointer(&r[0]))
			}
		}
		return p
	}

	// A third of the rows replaced: those are copied, the others stay.
	if k := replace(1, 3); k < held/4 || !s.scattered() {
		t.Fatalf("%d of %d rows replaced: not scattered", s.moved, s.Len())
	}
	before := places()
	if ids := s.layout(); len(ids) >= held/2 {
		t.Fatalf("%d rows of %d copied, want those replaced", len(ids), held)
	}
	if s.scattered() || s.Len() != held {
		t.Fatalf("after the layout: scattered %v, %d rows of %d", s.scattered(), s.Len(), held)
	}
	after := places()
	for id := 1; id <= n; id++ {
		if replaced := id%3 == 1; before[id] != 0 && (after[id] != before[id]) != replaced {
			t.Fatalf("row %d: replaced %v, but moved %v by the layout", id, replaced, after[id] != before[id])
		}
	}
	breaks, picked := check(func(id int) bool { return id%3 == 1 })
	if words := picked * 13; breaks > words/flatSlabWords+4 {
		t.Fatalf("%d breaks in memory order for about %d slabs", breaks, words/flatSlabWords)
	}

	// The same third again, twice: their copies' slabs hold the room of a
	// third of the rows, then of two thirds, more than half of them.
	replace(1, 3)
	if ids := s.layout(); len(ids) >= held/2 {
		t.Fatalf("%d rows of %d copied, want those replaced", len(ids), held)
	}
	check(func(int) bool { return false })
	replace(1, 3)
	valued := 0 // rows of values: a row of none is not copied
	for _, p := range places() {
		if p != 0 {
			valued++
		}
	}
	if ids := s.layout(); len(ids) != valued {
		t.Fatalf("%d rows of %d copied, want all", len(ids), valued)
	}
	breaks, _ = check(func(int) bool { return true })
	if words := held * 13; breaks > words/flatSlabWords+4 {
		t.Fatalf("%d breaks in memory order for about %d slabs", breaks, words/flatSlabWords)
	}
}

// TestLayoutAfterKeptReplaces checks that replacements a transaction
// kept and wrote at its commit (pending.go), which write the row store's
// slots directly, count as replaces: after an eighth of the rows was
// replaced that way, with one worker and with two (the write then split
// between two goroutines), the table is scattered, and the next cold
// start of a view that keeps its rows lays it out and builds the view its
// query gives.
func TestLayoutAfterKeptReplaces(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run("workers="+itoa(workers), func(t *testing.T) {
			e := New()
			e.SetWorkers(workers)
			e.parallelMin = 0
			sess := e.NewSession()
			run := scriptRows(t, sess)
			const n = 40000
			run(`CREATE TABLE q (id int PRIMARY KEY, v int NOT NULL);
				INSERT INTO q SELECT g, g % 100 FROM generate_series(1, ` + itoa(n) + `) g;
				CREATE MATERIALIZED VIEW before AS SELECT v, count(*) FROM q GROUP BY v`)
			tb := e.tables["q"]
			if !tb.buffers() {
				t.Fatal("q does not keep its replacements")
			}
			for round := range 2 {
				if err := sess.Begin(); err != nil {
					t.Fatal(err)
				}
				for i := range n / 8 {
					id := int64((i*7919+round)%n + 1)
					row := value.Row{value.NewInt(value.Int4, id), value.NewInt(value.Int4, (id*3+int64(round))%100)}
					if err := sess.Replace("q", row); err != nil {
						t.Fatal(err)
					}
				}
				if err := sess.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			if !tb.rows.scattered() {
				t.Fatalf("%d rows replaced of %d: not scattered", tb.rows.moved, tb.rows.Len())
			}
			q := "SELECT * FROM q WHERE v < 50" // keeps q's rows
			run("CREATE MATERIALIZED VIEW after AS " + q)
			if tb.rows.scattered() {
				t.Fatal("the cold start left the rows scattered")
			}
			got, want := run("SELECT * FROM after"), run(q)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("the view holds %v, its query gives %v", got, want)
			}
		})
	}
}

// TestLayoutColdStart checks which cold starts lay a scattered table out
// before their feed (the view may keep the table's rows) and which leave
// it as it is (the view keeps none: groupings, projections), and that
// either way the table's key and ordered indexes point at its rows, and
// the views hold what their queries give, then and after more changes.
func TestLayoutColdStart(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := scriptRows(t, sess)
	run(`CREATE TABLE q (id int PRIMARY KEY, s text UNIQUE, v int, w int);
		CREATE INDEX q_v ON q (v);
		CREATE TABLE r (id int PRIMARY KEY, x text);
		INSERT INTO q SELECT g, 's' || g, g % 100, g FROM generate_series(1, 40000) g;
		INSERT INTO r SELECT g, 'x' || g FROM generate_series(0, 99) g`)
	tb := e.tables["q"]
	views := []struct {
		name, q string
		keeps   bool // the view may keep q's rows
	}{
		{"agg", "SELECT v % 10 AS k, count(*) AS n, sum(w) AS t, min(w) AS lo, max(w) AS hi FROM q GROUP BY v % 10", false},
		{"cnt", "SELECT v, count(*) AS n FROM q WHERE w % 3 = 0 GROUP BY v", false},
		{"proj", "SELECT id, v + w AS vw FROM q", false},
		{"whole", "SELECT * FROM q WHERE v < 50", true},
		{"top", "SELECT id, v FROM q ORDER BY v DESC, id LIMIT 5", true},
		{"joined", "SELECT q.id, r.x FROM q JOIN r ON q.v = r.id", true},
	}
	check := func(when string) {
		t.Helper()
		for _, v := range views {
			got, want := run("SELECT * FROM "+v.name), run(v.q)
			if !strings.Contains(v.q, "ORDER BY") {
				slices.Sort(got)
				slices.Sort(want)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: view %s holds %d rows, its query gives %d", when, v.name, len(got), len(want))
			}
		}
		tb.scan(func(id uint64, row value.Row) bool {
			for _, u := range tb.uniques {
				gotID, got, ok := tb.byKey(u, row)
				if !ok || gotID != id || &got[0] != &row[0] {
					t.Fatalf("%s: %s finds (%d, %v, %v) for row %d %v", when, u.name, gotID, got, ok, id, row)
				}
			}
			return true
		})
		for _, ix := range tb.indexes {
			ix.ord.tr.Scan(func(en ordEntry) bool {
				if row, ok := tb.rows.Get(en.id); !ok || &row[0] != &en.row[0] {
					t.Fatalf("%s: %s refers to row %d elsewhere than the table holds it", when, ix.name, en.id)
				}
				return true
			})
		}
	}
	all := views
	for i, v := range all {
		views = all[:i]
		run("UPDATE q SET w = w + 1 WHERE id % 3 <> " + itoa(i%3))
		if !tb.rows.scattered() {
			t.Fatalf("before %s: %d rows replaced of %d: not scattered", v.name, tb.rows.moved, tb.rows.Len())
		}
		before := run("SELECT * FROM q")
		run("CREATE MATERIALIZED VIEW " + v.name + " AS " + v.q)
		views = all[:i+1]
		if got := keepsRows(e.views[v.name].(*zview).c, "q"); got != v.keeps {
			t.Errorf("%s: keepsRows = %v, want %v", v.name, got, v.keeps)
		}
		// A top-k seeded from the index its build loads reads the table
		// once and does not lay it out (buildView).
		laysOut := v.keeps && v.name != "top"
		if tb.rows.scattered() == laysOut {
			t.Fatalf("%s: keeps the rows %v, and the cold start left them scattered %v", v.name, v.keeps, tb.rows.scattered())
		}
		if got := run("SELECT * FROM q"); !slices.Equal(got, before) {
			t.Fatalf("%s: the layout changed the rows or their order", v.name)
		}
		check("after " + v.name)
	}
	run(`UPDATE q SET v = v + 1, s = s || 'x' WHERE id % 5 = 0;
		DELETE FROM q WHERE id % 7 = 0;
		INSERT INTO q SELECT g, 's' || g, g % 100, g FROM generate_series(40001, 40100) g`)
	check("after changes")
}

// scriptRows returns a function that runs a script in sess, failing the
// test on an error, and returns the rows of its result sets as
// failingRow prints them.
func scriptRows(t *testing.T, sess *Session) func(sql string) []string {
	return func(sql string) []string {
		t.Helper()
		var out []string
		err := sess.ExecScript(sql, func(r Result) error {
			for _, row := range r.Rows {
				out = append(out, failingRow(row))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
}
