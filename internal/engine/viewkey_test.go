package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestKeyedViewTwin runs random transactions through two engines, one
// whose views hash their rows by a key of their output (viewkey.go) and
// one whose views hash whole rows, and checks after every transaction
// that each subscriber received the same deltas, that the errors'
// SQLSTATEs are the same, that every view holds the same rows, and that
// each equals its query run afresh. The views are keyed by t's primary
// key through a join on u's key (either way round, a left join, a
// self-join), by a group key, by a pair of ids, and not at all; the
// transactions keep or move ids and join keys, delete, insert, change u,
// and replace many rows through the typed API in chunks of keys. Once
// with one worker and once with two.
func TestKeyedViewTwin(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { testKeyedViewTwin(t, workers) })
	}
}

func testKeyedViewTwin(t *testing.T, workers int) {
	const nt, nu = 20000, 300
	views := []struct {
		name, q string
		key     []int
	}{
		{"j", "SELECT t.id, t.v, u.name FROM t JOIN u ON t.k = u.id", []int{0}},
		{"rev", "SELECT u.name, t.id, t.s FROM u JOIN t ON u.id = t.k WHERE u.id < 200", []int{1}},
		{"lj", "SELECT u.name, t.id, t.v FROM t LEFT JOIN u ON t.k = u.id", []int{1}},
		{"self", "SELECT a.id, b.v FROM t a JOIN t b ON a.k = b.id", []int{0}},
		{"g", "SELECT k, count(*) AS n, sum(v) AS total FROM t GROUP BY k", []int{0}},
		{"f", "SELECT v, id FROM t WHERE v < 500", []int{1}},
		{"pair", "SELECT a.id AS a, b.id AS b FROM t a JOIN t b ON a.v = b.v WHERE a.id < 300 AND b.id < 300", []int{0, 1}},
		{"nokey", "SELECT v % 10 AS d, s FROM t", nil},
		{"failing", "SELECT t.id, 1000 / (t.v - 777) AS q, u.name FROM t JOIN u ON t.k = u.id", []int{0}},
	}
	twinViews := make([]twinView, len(views))
	for i, v := range views {
		twinViews[i] = twinView{v.name, v.q}
	}
	open := func(off bool) *twinSide {
		viewKeysOff = off
		defer func() { viewKeysOff = false }()
		return openTwinSide(t, workers, nt, nu, "'s' || g % 3", twinViews)
	}
	keyed, whole := open(false), open(true)
	for _, v := range views {
		if got := keyed.e.views[v.name].(*zview).c.View.Key(); !slices.Equal(got, v.key) {
			t.Fatalf("%s is keyed by %v, want %v", v.name, got, v.key)
		}
		if got := whole.e.views[v.name].(*zview).c.View.Key(); got != nil {
			t.Fatalf("%s is keyed by %v with viewKeysOff", v.name, got)
		}
	}
	rng := rand.New(rand.NewPCG(11, uint64(workers)))
	nextID := int64(nt + 1)
	for txn := range 50 {
		var b strings.Builder
		b.WriteString("BEGIN;\n")
		var typed [][]value.Value
		for range 1 + rng.IntN(6) {
			id := 1 + rng.Int64N(nt)
			switch rng.IntN(10) {
			case 0, 1, 2: // ids kept, values replaced
				fmt.Fprintf(&b, "UPDATE t SET v = %d, s = s || 'z' WHERE id %% %d = %d;\n", rng.IntN(1000), 50+rng.IntN(400), rng.IntN(50))
			case 3: // the join key moved
				fmt.Fprintf(&b, "UPDATE t SET k = %d, v = v + 1 WHERE id = %d;\n", 1+rng.IntN(nu+20), id)
			case 4: // the primary key moved
				fmt.Fprintf(&b, "UPDATE t SET id = %d WHERE id = %d;\n", nextID, id)
				nextID++
			case 5:
				fmt.Fprintf(&b, "DELETE FROM t WHERE id %% 997 = %d;\n", rng.IntN(997))
			case 6:
				fmt.Fprintf(&b, "INSERT INTO t VALUES (%d, %d, %d, 'x');\n", nextID, 1+rng.IntN(nu+20), rng.IntN(1000))
				nextID++
			case 7:
				fmt.Fprintf(&b, "UPDATE u SET name = name || '!' WHERE id %% 37 = %d;\n", rng.IntN(37))
			case 8:
				fmt.Fprintf(&b, "DELETE FROM u WHERE id = %d;\n", 1+rng.IntN(nu+20))
			case 9:
				fmt.Fprintf(&b, "INSERT INTO u VALUES (%d, 'new') ON CONFLICT (id) DO UPDATE SET name = 'again';\n", 1+rng.IntN(nu+20))
			}
		}
		if txn%3 == 1 {
			// Many typed replacements keeping their ids: a commit in
			// chunks, each replacement a pair a keyed view swaps in place.
			typed = twinReplacements(t, keyed, rng, nt, func(id int64) int64 { return 1 + (id+int64(rng.IntN(2)))%int64(nu+20) })
		} else if rng.IntN(8) == 0 {
			fmt.Fprintf(&b, "UPDATE t SET v = 777 WHERE id = %d;\n", 1+rng.Int64N(nt)) // fails "failing"
		}
		applyTwins(t, txn, keyed, whole, b.String(), typed, twinViews)
	}
	for _, v := range views {
		if v.key != nil && keyed.e.views[v.name].(*zview).c.View.Key() == nil {
			t.Fatalf("%s stopped hashing by its key", v.name)
		}
	}
	if strings.Join(keyed.deltas["j"], "") == "" {
		t.Fatal("no delta reached the join")
	}
}
