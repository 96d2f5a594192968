package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
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
	views := []twinView{
		{"j", "SELECT t.id, t.v, u.name FROM t JOIN u ON t.k = u.id"},
		{"rev", "SELECT u.name, t.id, t.s FROM u JOIN t ON u.id = t.k WHERE u.id < 200"},
		{"self", "SELECT a.id, b.v FROM t a JOIN t b ON a.k = b.id"},
		{"failing", "SELECT t.id, 1000 / (t.v - 777) AS q, u.name FROM t JOIN u ON t.k = u.id"},
	}
	open := func(off bool) *twinSide {
		readThroughOff = off
		defer func() { readThroughOff = false }()
		return openTwinSide(t, workers, nt, nu, "'s' || g", views)
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
			typed = twinReplacements(t, through, rng, nt, func(id int64) int64 { return 1 + id%int64(nu+20) })
		} else if rng.IntN(8) == 0 {
			fmt.Fprintf(&b, "UPDATE t SET v = 777 WHERE id = %d;\n", 1+rng.Int64N(nt)) // fails "failing"
		}
		applyTwins(t, txn, through, rows, b.String(), typed, views)
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
