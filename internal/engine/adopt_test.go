package engine

import (
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
)

// TestAdoptedJoinIndexes checks which joins take a table's shared index
// before their cold start (sharedIndexes.adopt): a join whose table is fed
// after every relation its other side reads, from either side, with
// constants on the other side, and a second view joining the same table
// on the same key, which takes the first one's index; not a self-join,
// nor a join whose table is fed first. The views then follow changes of
// both tables, a build that fails after adopting leaves the registry as
// it was, and the index goes with the last view reading it.
func TestAdoptedJoinIndexes(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := scriptRows(t, sess)
	// big is bigger than a load done on another goroutine (bulkSplit).
	run(`CREATE TABLE big (id int PRIMARY KEY, k int, v int);
		CREATE TABLE small (id int PRIMARY KEY, name text);
		INSERT INTO big SELECT g, CASE WHEN g % 97 = 0 THEN NULL ELSE g % 120 END, g FROM generate_series(1, 40000) g;
		INSERT INTO small SELECT g, 'n' || g FROM generate_series(0, 99) g`)
	views := []struct {
		name, q string
		adopted []int // the join's sides that adopt an index
	}{
		{"j1", "SELECT big.id, big.v, small.name FROM big JOIN small ON big.k = small.id", []int{0}},
		{"j2", "SELECT big.v, small.name FROM big JOIN small ON big.k = small.id WHERE small.id < 50", []int{0}},
		{"rev", "SELECT small.name, big.id FROM small JOIN big ON small.id = big.k", []int{1}},
		{"consts", "SELECT big.id, c.x FROM big JOIN (VALUES (1, 'a'), (2, 'b'), (2, 'c')) c(k, x) ON big.k = c.k", []int{0}},
		{"self", "SELECT a.id, b.v FROM big a JOIN big b ON a.k = b.id", nil},
	}
	joinOf := func(name string) (*zview, op.IndexSharer) {
		v := e.views[name].(*zview)
		return v, v.c.Circuit.Node(v.c.Shareable[0].Node).(op.IndexSharer)
	}
	registry := func(a *dataflow.Arrangement) *sharedIndex {
		for _, si := range e.shared.list {
			if si.a == a {
				return si
			}
		}
		return nil
	}
	feed := []string{"small", "big"} // by size, as buildView feeds them
	for _, v := range views {
		run("CREATE MATERIALIZED VIEW " + v.name + " AS " + v.q)
		zv, j := joinOf(v.name)
		for _, sp := range zv.c.Shareable {
			if got, want := fedAfter(zv.c, sp, feed), slices.Contains(v.adopted, sp.Side); got != want {
				t.Fatalf("%s: side %d (%s) adopts: %v, want %v", v.name, sp.Side, sp.Relation, got, want)
			}
		}
		for _, side := range v.adopted {
			a, own := j.Index(side)
			si := registry(a)
			if own || si == nil || si.rel != "big" || !slices.Contains(si.views, v.name) {
				t.Fatalf("%s: side %d reads %s (own %v, registered %v), want big's shared index", v.name, side, a.Describe(), own, si != nil)
			}
		}
	}
	// Every view reads one index of big on k (the self-join's left side
	// hands its private one over after its build).
	_, j1 := joinOf("j1")
	_, j2 := joinOf("j2")
	_, jc := joinOf("consts")
	a1, _ := j1.Index(0)
	a2, _ := j2.Index(0)
	ac, _ := jc.Index(0)
	if a1 != a2 || a1 != ac || a1.Refs() != len(views) {
		t.Fatalf("j1, j2 and consts read %p, %p and %p, %d views", a1, a2, ac, a1.Refs())
	}
	check := func(when string) {
		t.Helper()
		for _, v := range views {
			got, want := run("SELECT * FROM "+v.name), run(v.q)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: view %s holds %d rows, its query gives %d", when, v.name, len(got), len(want))
			}
		}
	}
	check("built")
	run(`UPDATE big SET k = (k + 7) % 120, v = v + 1 WHERE id % 5 = 0;
		UPDATE small SET name = name || '!' WHERE id % 3 = 0;
		DELETE FROM small WHERE id = 4;
		INSERT INTO small VALUES (100, 'n100'), (119, 'n119');
		DELETE FROM big WHERE id % 11 = 0;
		INSERT INTO big SELECT g, g % 130, -g FROM generate_series(40001, 40100) g`)
	check("changed")

	// A build that fails after adopting gives its uses back.
	before := a1.Refs()
	if err := sess.ExecScript("CREATE MATERIALIZED VIEW bad AS SELECT big.id / (big.v - big.v) AS q, small.name FROM big JOIN small ON big.k = small.id", nil); err == nil {
		t.Fatal("a view dividing by zero was built")
	}
	if a1.Refs() != before || registry(a1) == nil || slices.Contains(registry(a1).views, "bad") {
		t.Fatalf("after a failed build the index has %d views (%v), want %d", a1.Refs(), registry(a1).views, before)
	}
	n := len(e.shared.list)
	if err := sess.ExecScript("CREATE MATERIALIZED VIEW bad AS SELECT big.id / (big.v - big.v) AS q, small.name FROM big JOIN small ON big.v = small.id", nil); err == nil {
		t.Fatal("a view dividing by zero was built")
	}
	if len(e.shared.list) != n || len(e.shared.m) != n {
		t.Fatalf("after a failed build with an index of its own, %d shared indexes, want %d", len(e.shared.list), n)
	}
	check("after failed builds")

	for _, v := range views {
		run("DROP MATERIALIZED VIEW " + v.name)
	}
	if len(e.shared.list) != 0 || len(e.shared.m) != 0 {
		t.Fatalf("%d shared indexes left after the last view", len(e.shared.list))
	}
}
