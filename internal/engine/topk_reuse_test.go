package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/value"
)

// TestTopKReusedInputTwin runs random transactions through two engines,
// one whose top-ks over a table read a projection reusing its rows from
// step to step and copy those they keep (compile.ReuseTopKInput), one
// whose projection allocates every row, and checks after every
// transaction that each subscriber received the same deltas, that the
// errors' SQLSTATEs are the same, that every view holds the same rows, and
// that each equals its query run afresh. The top-ks keep a reserve of one
// row, so that deletes and moves drain it and refills read the step's
// changes set aside; their sort columns hold NULLs; the projections copy
// columns, evaluate expressions over text, or fail on some rows (a
// division by zero) so that commits fail and are taken back; one top-k
// has an offset and two are partitioned. The transactions update, delete
// and insert through SQL and replace many rows through the typed API,
// committed in chunks of keys. Once with one worker and once with two.
func TestTopKReusedInputTwin(t *testing.T) {
	saved := op.DefaultTopKReserve
	op.DefaultTopKReserve = 1
	defer func() { op.DefaultTopKReserve = saved }()
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { testTopKReusedInputTwin(t, workers) })
	}
}

func testTopKReusedInputTwin(t *testing.T, workers int) {
	const nt = 5000
	views := []twinView{
		{"top", "SELECT id, grp, val FROM t WHERE grp < 5 ORDER BY val DESC, id LIMIT 7"},
		{"nulls", "SELECT id, s, val FROM t ORDER BY val NULLS FIRST, id LIMIT 5 OFFSET 3"},
		{"texts", "SELECT id, val, s || '!' AS s2 FROM t WHERE s <> 's1' ORDER BY val, id LIMIT 6"},
		{"failing", "SELECT id, val, 100 / (grp - 77) AS q FROM t WHERE val < 300 ORDER BY val DESC NULLS LAST, id LIMIT 4"},
		{"first", "SELECT DISTINCT ON (grp) grp, id, val FROM t ORDER BY grp, val DESC, id"},
		{"firsts", "SELECT grp, id, val FROM (SELECT grp, id, val, row_number() OVER (PARTITION BY grp ORDER BY val, id) AS n FROM t) x WHERE n <= 2"},
	}
	open := func(reuse bool) *twinSide {
		compile.ReuseTopKInput = reuse
		defer func() { compile.ReuseTopKInput = true }()
		return openTwinEngine(t, workers, fmt.Sprintf(`CREATE TABLE t (id int PRIMARY KEY, grp int, val int, s text);
			INSERT INTO t SELECT g, g %% 10, CASE WHEN g %% 13 = 0 THEN NULL ELSE (g * 7919) %% 1000 END, 's' || g %% 3
				FROM generate_series(1, %d) g;`, nt), views)
	}
	reused, alloc := open(true), open(false)
	// reusing reports how many of a side's views read a projection
	// reusing its rows, and the refills their top-ks made.
	reusing := func(x *twinSide) (n int, refills int64) {
		for _, v := range views {
			c := x.e.views[v.name].(*zview).c.Circuit
			for id := range c.Len() {
				switch o := c.Node(dataflow.NodeID(id)).(type) {
				case *op.Map:
					if o.ReusesRows() {
						n++
					}
				case *op.TopK:
					refills += o.Refills()
				}
			}
		}
		return n, refills
	}
	// Every top-k but "firsts"'s, which reads the table's rows with no
	// projection between (row_number's columns are projected above it).
	if n, _ := reusing(reused); n != len(views)-1 {
		t.Fatalf("%d of the %d views read a projection reusing its rows", n, len(views))
	}
	if n, _ := reusing(alloc); n != 0 {
		t.Fatalf("%d views reuse their rows with ReuseTopKInput off", n)
	}
	rng := rand.New(rand.NewPCG(23, uint64(workers)))
	nextID := int64(nt + 1)
	val := func() string {
		if rng.IntN(10) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rng.IntN(1000))
	}
	failed := 0
	for txn := range 60 {
		var b strings.Builder
		b.WriteString("BEGIN;\n")
		var typed [][]value.Value
		for range (1 + rng.IntN(6)) * min(1, txn%3) { // a typed batch alone: its ids are those present
			id := 1 + rng.Int64N(nt)
			switch rng.IntN(8) {
			case 0, 1: // values replaced, some into the windows
				fmt.Fprintf(&b, "UPDATE t SET val = %s, s = s || 'z' WHERE id %% %d = %d;\n", val(), 50+rng.IntN(400), rng.IntN(50))
			case 2: // the windows' rows leave them
				b.WriteString("UPDATE t SET val = val - 500 WHERE id IN (SELECT id FROM top UNION SELECT id FROM nulls);\n")
			case 3:
				fmt.Fprintf(&b, "UPDATE t SET id = %d WHERE id = %d;\n", nextID, id)
				nextID++
			case 4:
				b.WriteString("DELETE FROM t WHERE id IN (SELECT id FROM texts UNION SELECT id FROM first);\n")
			case 5:
				fmt.Fprintf(&b, "DELETE FROM t WHERE id %% 97 = %d;\n", rng.IntN(97))
			case 6:
				fmt.Fprintf(&b, "INSERT INTO t VALUES (%d, %d, %s, 'x');\n", nextID, rng.IntN(10), val())
				nextID++
			case 7:
				fmt.Fprintf(&b, "UPDATE t SET grp = (grp + 1) %% 10 WHERE id = %d;\n", id)
			}
		}
		if txn%3 == 0 {
			present, err := reused.query(fmt.Sprintf("SELECT id FROM t WHERE id <= %d ORDER BY id", nt))
			if err != nil {
				t.Fatal(err)
			}
			for range 200 + rng.IntN(1500) {
				var id int64
				if _, err := fmt.Sscan(strings.Trim(present[rng.IntN(len(present))], "()"), &id); err != nil {
					t.Fatal(err)
				}
				v := value.NewInt(value.Int4, int64(rng.IntN(1000)))
				if rng.IntN(10) == 0 {
					v = value.Null
				}
				grp := int64(rng.IntN(10))
				if rng.IntN(4000) == 0 {
					grp = 77 // fails the view "failing" in some chunk
				}
				typed = append(typed, []value.Value{value.NewInt(value.Int4, id), value.NewInt(value.Int4, grp), v,
					value.NewText(value.Text, fmt.Sprintf("s%d", rng.IntN(3)))})
			}
		} else if rng.IntN(8) == 0 {
			fmt.Fprintf(&b, "UPDATE t SET grp = 77 WHERE id = %d;\n", 1+rng.Int64N(nt)) // fails "failing"
		}
		if applyTwins(t, txn, reused, alloc, b.String(), typed, views) != "" {
			failed++
		}
	}
	if failed == 0 || failed > 20 {
		t.Fatalf("%d of 60 transactions failed", failed)
	}
	if _, refills := reusing(reused); refills == 0 {
		t.Fatal("no top-k refilled")
	}
	for _, v := range views {
		if len(reused.deltas[v.name]) == 0 {
			t.Fatalf("no delta reached %s", v.name)
		}
	}
}
