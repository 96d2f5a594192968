package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestReadThroughTwin runs random transactions through two engines, one
// whose joins' indexes of t keep row ids and read the rows from the table
// (shared_through.go) and one whose indexes keep the rows, and checks
// after every transaction that each subscriber received the same deltas,
// that every view holds the same rows and equals its query run afresh,
// that the error's SQLSTATE is the same, and that the indexes hold the
// same number of rows and weight. The transactions change t and u
// together (so that a join reads t's index while t changes: the rows as
// of the commit before come from the change), keep or move t's join key,
// change t's primary key, delete and insert, fail in a view after some of
// their changes (division by zero), and replace many rows through the
// typed API, which commits in chunks of keys. Once with one worker and
// once with two, whose waves stage and commit the index early.
func TestReadThroughTwin(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { testReadThroughTwin(t, workers) })
	}
}

func testReadThroughTwin(t *testing.T, workers int) {
	// t is big enough for its index to load on another goroutine.
	const nt, nu = 20000, 300
	views := []struct{ name, q string }{
		{"j", "SELECT t.id, t.v, u.name FROM t JOIN u ON t.k = u.id"},
		{"rev", "SELECT u.name, t.id, t.s FROM u JOIN t ON u.id = t.k WHERE u.id < 200"},
		{"self", "SELECT a.id, b.v FROM t a JOIN t b ON a.k = b.id"},
		{"failing", "SELECT t.id, 1000 / (t.v - 777) AS q, u.name FROM t JOIN u ON t.k = u.id"},
	}
	type side struct {
		e      *Engine
		s      *Session
		deltas map[string][]string
	}
	open := func(off bool) *side {
		readThroughOff = off
		defer func() { readThroughOff = false }()
		e := New()
		e.SetWorkers(workers)
		if workers > 1 {
			e.parallelMin = 0
		}
		e.chunkRows = 64
		x := &side{e: e, s: e.NewSession(), deltas: map[string][]string{}}
		script := fmt.Sprintf(`CREATE TABLE t (id int PRIMARY KEY, k int, v int NOT NULL, s text);
			CREATE TABLE u (id int PRIMARY KEY, name text);
			INSERT INTO u SELECT g, 'n' || g FROM generate_series(1, %d) g;
			INSERT INTO t SELECT g, CASE WHEN g %% 101 = 0 THEN NULL ELSE 1 + g %% %d END, (g * 7919) %% 1000, 's' || g
				FROM generate_series(1, %d) g WHERE (g * 7919) %% 1000 <> 777;`, nu, nu+20, nt)
		for _, v := range views {
			script += fmt.Sprintf("CREATE MATERIALIZED VIEW %s AS %s;\n", v.name, v.q)
		}
		if err := x.s.ExecScript(script, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
		for _, v := range views {
			if _, err := e.Subscribe(v.name, func(ts uint64, d zset.ZSet) {
				for _, en := range d {
					x.deltas[v.name] = append(x.deltas[v.name], fmt.Sprintf("%d %s %d", ts, en.Row, en.W))
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		return x
	}
	through, rows := open(false), open(true)
	n := 0
	for _, si := range through.e.shared.list {
		if si.through {
			n++
		}
	}
	for _, si := range rows.e.shared.list {
		if si.through {
			t.Fatal("an index reads through with readThroughOff")
		}
	}
	if n != 1 {
		t.Fatalf("%d indexes read through the table, want t's on k", n)
	}
	query := func(x *side, q string) ([]string, error) {
		var out []string
		err := x.s.ExecScript(q, func(r Result) error {
			for _, row := range r.Rows {
				out = append(out, failingRow(row))
			}
			return nil
		})
		slices.Sort(out)
		return out, err
	}
	rng := rand.New(rand.NewPCG(7, uint64(workers)))
	nextID := int64(nt + 1)
	for txn := range 60 {
		var b strings.Builder
		b.WriteString("BEGIN;\n")
		var typed [][]value.Value
		if txn%5 == 3 {
			// A small change of t and of the u rows its keys point at, in
			// one step: the join reads the rows as of the commit before
			// from the change itself.
			for range 1 + rng.IntN(3) {
				id := 1 + rng.Int64N(nt)
				fmt.Fprintf(&b, "UPDATE t SET v = v + 3, s = s || 'y' WHERE id = %d;\n", id)
				fmt.Fprintf(&b, "UPDATE u SET name = name || '?' WHERE id = (SELECT k FROM t WHERE id = %d);\n", id)
			}
		}
		others := 1 + rng.IntN(6)
		if txn%5 == 3 {
			others = 0
		}
		for range others {
			id := 1 + rng.Int64N(nt)
			switch rng.IntN(11) {
			case 0, 1, 2: // the key kept: what the index drops
				fmt.Fprintf(&b, "UPDATE t SET v = %d WHERE id %% %d = %d;\n", rng.IntN(1000), 50+rng.IntN(400), rng.IntN(50))
			case 3: // the key moved
				fmt.Fprintf(&b, "UPDATE t SET k = %d, v = v + 1 WHERE id = %d;\n", 1+rng.IntN(nu+20), id)
			case 4: // the primary key moved, the join key kept
				fmt.Fprintf(&b, "UPDATE t SET id = %d WHERE id = %d;\n", nextID, id)
				nextID++
			case 5:
				fmt.Fprintf(&b, "DELETE FROM t WHERE id %% 997 = %d;\n", rng.IntN(997))
			case 6:
				fmt.Fprintf(&b, "INSERT INTO t VALUES (%d, %d, %d, 'x');\n", nextID, 1+rng.IntN(nu+20), rng.IntN(1000))
				nextID++
			case 7: // the other side: reads t's index in the same step
				fmt.Fprintf(&b, "UPDATE u SET name = name || '!' WHERE id %% 37 = %d;\n", rng.IntN(37))
			case 8:
				fmt.Fprintf(&b, "DELETE FROM u WHERE id = %d;\n", 1+rng.IntN(nu+20))
			case 9:
				fmt.Fprintf(&b, "INSERT INTO u VALUES (%d, 'new') ON CONFLICT (id) DO UPDATE SET name = 'again';\n", 1+rng.IntN(nu+20))
			case 10: // a self-join's both sides: a row pointing at a changed row
				fmt.Fprintf(&b, "UPDATE t SET v = v + 2, k = CASE WHEN k IS NULL THEN 5 ELSE k END WHERE id BETWEEN %d AND %d;\n", id, id+30)
			}
		}
		if txn%4 == 1 && txn%5 != 3 {
			// Many typed replacements, most keeping their key: a commit
			// in chunks. Of ids the table holds (a missing one fails the
			// call).
			present, err := query(through, fmt.Sprintf("SELECT id FROM t WHERE id <= %d ORDER BY id", nt))
			if err != nil {
				t.Fatal(err)
			}
			for range 200 + rng.IntN(1500) {
				var id int64
				fmt.Sscan(present[rng.IntN(len(present))], &id)
				v := int64(rng.IntN(1000))
				if rng.IntN(300) == 0 {
					v = 777 // fails the view "failing" in some chunk
				}
				k := value.NewInt(value.Int4, 1+id%int64(nu+20))
				if id%101 == 0 {
					k = value.Null
				}
				typed = append(typed, []value.Value{value.NewInt(value.Int4, id), k, value.NewInt(value.Int4, v), value.NewText(value.Text, "s")})
			}
		} else if rng.IntN(8) == 0 {
			fmt.Fprintf(&b, "UPDATE t SET v = 777 WHERE id = %d;\n", 1+rng.Int64N(nt)) // fails "failing"
		}
		var errs [2]string
		for i, x := range []*side{through, rows} {
			err := x.s.ExecScript(b.String(), func(Result) error { return nil })
			if err == nil && typed != nil {
				err = x.s.ReplaceRows("t", typed)
			}
			if err == nil {
				err = x.s.Commit()
			} else {
				x.s.Rollback()
			}
			if err != nil {
				errs[i] = pgerr.Code(err)
			}
		}
		if errs[0] != errs[1] {
			t.Fatalf("txn %d: errors %q and %q", txn, errs[0], errs[1])
		}
		for _, v := range views {
			if !slices.Equal(through.deltas[v.name], rows.deltas[v.name]) {
				t.Fatalf("txn %d: %s: deltas differ:\n%s\nagainst\n%s", txn, v.name,
					strings.Join(through.deltas[v.name], "\n"), strings.Join(rows.deltas[v.name], "\n"))
			}
			got, err := query(through, "SELECT * FROM "+v.name)
			if err != nil {
				t.Fatal(err)
			}
			want, err := query(rows, "SELECT * FROM "+v.name)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("txn %d: %s holds %d rows, its twin %d", txn, v.name, len(got), len(want))
			}
			if v.name != "failing" {
				fresh, err := query(through, v.q)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, fresh) {
					t.Fatalf("txn %d: %s holds %d rows, its query gives %d", txn, v.name, len(got), len(fresh))
				}
			}
		}
		for i, si := range through.e.shared.list {
			tw := rows.e.shared.list[i]
			if si.a.Len() != tw.a.Len() || si.a.Total() != tw.a.Total() {
				t.Fatalf("txn %d: index %s holds %d rows (%d), its twin %d (%d)", txn, si.a.Describe(), si.a.Len(), si.a.Total(), tw.a.Len(), tw.a.Total())
			}
		}
	}
	if strings.Join(through.deltas["j"], "") == "" {
		t.Fatal("no delta reached the join")
	}
}
