package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestKeptReplacements checks the replacements a transaction keeps until
// it commits or reads (pending.go) against the same changes made by SQL
// statements, which write at once: over random transactions of typed
// replacements (the same key several times, back to its row, keys that
// do not exist, rows that break NOT NULL or CHECK), typed inserts and
// deletes, reads inside the transaction, reads by another session,
// rollbacks, on a table whose key is its only index and on one with
// another index, the views' deltas, rows and the tables' rows agree
// after every transaction, with one worker and with two.
func TestKeptReplacements(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { testKeptReplacements(t, workers) })
	}
}

func testKeptReplacements(t *testing.T, workers int) {
	views := map[string]string{
		"filtered": `SELECT id, grp, val FROM t WHERE val < 300`,
		"grouped":  `SELECT grp, count(*), sum(val), min(val) FROM t GROUP BY grp`,
		"top":      `SELECT id, val FROM t ORDER BY val DESC, id LIMIT 5`,
		"joined":   `SELECT t.id, w.note FROM t JOIN w ON t.grp = w.id WHERE t.val > 500`,
		"wsum":     `SELECT count(*), sum(id) FROM w WHERE note > 'n5'`,
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range views {
			if !yield(n) {
				return
			}
		}
	})
	type side struct {
		e      *engine.Engine
		s      *engine.Session
		deltas map[string][]string
	}
	open := func(workers int) *side {
		e := engine.New()
		e.SetWorkers(workers)
		if workers > 1 {
			engine.SetParallelMin(e, 0)
		}
		x := &side{e: e, s: e.NewSession(), deltas: map[string][]string{}}
		script := `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL CHECK (val >= 0));
			CREATE TABLE w (id int PRIMARY KEY, note text);
			CREATE INDEX w_note ON w (note);
			INSERT INTO t SELECT g, g % 10, (g * 7919) % 1000 FROM generate_series(1, 2000) g;
			INSERT INTO w SELECT g, 'n' || (g % 10) FROM generate_series(0, 9) g;`
		for _, n := range names {
			script += fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS %s;\n", n, views[n])
		}
		if err := x.s.ExecScript(script, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
		for _, v := range names {
			if _, err := e.Subscribe(v, func(ts uint64, d zset.ZSet) {
				for _, en := range d {
					x.deltas[v] = append(x.deltas[v], fmt.Sprintf("%d %s %d", ts, en.Row, en.W))
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		return x
	}
	query := func(_ *side, s *engine.Session, q string) string { return sortedResult(t, s, q) }
	kept, eager := open(workers), open(1)
	other := kept.e.NewSession()
	// The model: t's rows by id, and w's notes.
	rows := map[int64][2]int64{}
	for g := int64(1); g <= 2000; g++ {
		rows[g] = [2]int64{g % 10, (g * 7919) % 1000}
	}
	notes := map[int64]string{}
	for g := int64(0); g <= 9; g++ {
		notes[g] = fmt.Sprintf("n%d", g%10)
	}
	nextID := int64(2001)
	i4 := func(v int64) value.Value { return value.NewInt(value.Int4, v) }
	rng := rand.New(rand.NewPCG(7, 20))
	const readT = `SELECT count(*), sum(val), sum(grp * id), max(val) FROM t`
	for txn := range 80 {
		committed := query(kept, other, readT)
		if err := kept.s.Begin(); err != nil {
			t.Fatal(err)
		}
		var sqlTx strings.Builder
		sqlTx.WriteString("BEGIN;")
		model := func() map[int64][2]int64 { return rows }() // changed in place; restored on rollback
		saved := map[int64][2]int64{}
		for id, r := range rows {
			saved[id] = r
		}
		savedNotes := map[int64]string{}
		for id, n := range notes {
			savedNotes[id] = n
		}
		size := 1 + rng.IntN(40)
		if txn%4 == 3 {
			size = 200 + rng.IntN(400)
		}
		for range size {
			switch op := rng.IntN(100); {
			case op < 70: // a replacement, often of a key replaced before
				id := 1 + rng.Int64N(nextID+5)
				g, v := rng.Int64N(10), rng.Int64N(1000)
				if op < 10 { // back to the row the key had
					if r, ok := saved[id]; ok {
						g, v = r[0], r[1]
					}
				}
				bad := rng.IntN(20) == 0
				if bad {
					v = -1
				}
				err := kept.s.Replace("t", value.Row{i4(id), i4(g), i4(v)})
				_, exists := model[id]
				switch {
				case !exists:
					if pgerr.Code(err) != "02000" {
						t.Fatalf("transaction %d: replacing missing key %d: %v", txn, id, err)
					}
				case bad:
					if pgerr.Code(err) != pgerr.CheckViolation {
						t.Fatalf("transaction %d: replacing key %d by a row failing CHECK: %v", txn, id, err)
					}
				case err != nil:
					t.Fatalf("transaction %d: replacing key %d: %v", txn, id, err)
				default:
					model[id] = [2]int64{g, v}
					fmt.Fprintf(&sqlTx, "UPDATE t SET grp = %d, val = %d WHERE id = %d;", g, v, id)
				}
			case op < 73: // NOT NULL
				id := 1 + rng.Int64N(nextID)
				if _, ok := model[id]; !ok {
					continue
				}
				if err := kept.s.Replace("t", value.Row{i4(id), value.Null, i4(1)}); pgerr.Code(err) != pgerr.NotNullViolation {
					t.Fatalf("transaction %d: a NULL grp: %v", txn, err)
				}
			case op < 78: // a typed insert, then replacements of it
				id := nextID
				nextID++
				g, v := rng.Int64N(10), rng.Int64N(1000)
				if err := kept.s.Insert("t", value.Row{i4(id), i4(g), i4(v)}); err != nil {
					t.Fatal(err)
				}
				model[id] = [2]int64{g, v}
				fmt.Fprintf(&sqlTx, "INSERT INTO t VALUES (%d, %d, %d);", id, g, v)
			case op < 83: // a typed delete
				id := 1 + rng.Int64N(nextID)
				r, ok := model[id]
				if !ok {
					continue
				}
				if err := kept.s.Delete("t", value.Row{i4(id), i4(r[0]), i4(r[1])}); err != nil {
					t.Fatalf("transaction %d: deleting %d: %v", txn, id, err)
				}
				delete(model, id)
				fmt.Fprintf(&sqlTx, "DELETE FROM t WHERE id = %d;", id)
			case op < 88: // the table with another index
				id := rng.Int64N(12)
				note := fmt.Sprintf("n%d", rng.IntN(10))
				err := kept.s.Replace("w", value.Row{i4(id), value.NewText(value.Text, note)})
				if _, ok := notes[id]; !ok {
					if pgerr.Code(err) != "02000" {
						t.Fatalf("transaction %d: replacing missing w %d: %v", txn, id, err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				notes[id] = note
				fmt.Fprintf(&sqlTx, "UPDATE w SET note = '%s' WHERE id = %d;", note, id)
			case op >= 88 && size > 100 && rng.IntN(30) > 0:
				// Big transactions read now and then: a read scans t.
			case op < 94: // a read in the transaction sees its writes
				if rng.IntN(2) == 0 {
					if got, want := query(kept, kept.s, `SELECT count(*) FROM t`), fmt.Sprint(value.Row{value.NewInt(value.Int8, int64(len(model)))}); got != want {
						t.Fatalf("transaction %d: the transaction reads %s rows, its model %s", txn, got, want)
					}
					continue
				}
				id := 1 + rng.Int64N(nextID)
				want := ""
				if r, ok := model[id]; ok {
					want = fmt.Sprint(value.Row{i4(r[0]), i4(r[1])})
				}
				if got := query(kept, kept.s, fmt.Sprintf(`SELECT grp, val FROM t WHERE id = %d`, id)); got != want {
					t.Fatalf("transaction %d: the transaction reads %q for key %d, wrote %q", txn, got, id, want)
				}
			default: // another session reads the committed state
				if got := query(kept, other, readT); got != committed {
					t.Fatalf("transaction %d: another session reads %s, committed %s", txn, got, committed)
				}
			}
		}
		if rng.IntN(8) == 0 {
			kept.s.Rollback()
			for id := range rows {
				delete(rows, id)
			}
			for id, r := range saved {
				rows[id] = r
			}
			notes = savedNotes
		} else {
			if err := kept.s.Commit(); err != nil {
				t.Fatalf("transaction %d: %v", txn, err)
			}
			sqlTx.WriteString("COMMIT;")
			if err := eager.s.ExecScript(sqlTx.String(), func(engine.Result) error { return nil }); err != nil {
				t.Fatalf("transaction %d: %v", txn, err)
			}
		}
		for _, q := range []string{`SELECT * FROM t`, `SELECT * FROM w`} {
			if a, b := query(kept, kept.s, q), query(eager, eager.s, q); a != b {
				t.Fatalf("transaction %d: %s differs", txn, q)
			}
		}
	}
	for _, v := range names {
		a, b := kept.deltas[v], eager.deltas[v]
		if len(a) == 0 {
			t.Errorf("view %s never changed", v)
		}
		if !slices.Equal(a, b) {
			t.Fatalf("view %s: %d delta lines kept, %d written at once, or others\n%s", v, len(a), len(b), firstDiff(a, b))
		}
		_, x, _ := kept.e.ViewRows(v)
		_, y, _ := eager.e.ViewRows(v)
		if fmt.Sprint(x) != fmt.Sprint(y) {
			t.Fatalf("view %s holds other rows", v)
		}
		if got, want := query(kept, kept.s, "SELECT * FROM "+v), query(kept, kept.s, views[v]); got != want {
			t.Fatalf("view %s holds %s, its query gives %s", v, got, want)
		}
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("line %d: %q against %q", i, a[i], b[i])
		}
	}
	return "one is a prefix of the other"
}

// sortedResult runs q in s and returns its rows printed, sorted and
// joined by spaces.
func sortedResult(t *testing.T, s *engine.Session, q string) string {
	t.Helper()
	var out []string
	if err := s.ExecScript(q, func(r engine.Result) error {
		for _, row := range r.Rows {
			out = append(out, fmt.Sprint(row))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}
