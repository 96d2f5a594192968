package engine_test

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// loadScript returns a script that creates t(id, a, b, c) with n rows and
// u(id, name) with n/10, loaded with COPY FROM STDIN.
func loadScript(n int) string {
	var b strings.Builder
	b.WriteString("CREATE TABLE t (id int8 PRIMARY KEY, a int4, b text, c int4);\n")
	b.WriteString("CREATE TABLE u (id int4 PRIMARY KEY, name text);\n")
	b.WriteString("COPY t FROM STDIN;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d\t%d\tname-%d\t%d\n", i, i%1000, i%5000, i%(n/10))
	}
	b.WriteString("\\.\nCOPY u (id, name) FROM STDIN WITH (FORMAT csv);\n")
	for i := 0; i < n/10; i++ {
		fmt.Fprintf(&b, "%d,user-%d\n", i, i)
	}
	b.WriteString("\\.\n")
	return b.String()
}

func execAll(t testing.TB, e *engine.Engine, script string) []engine.Result {
	t.Helper()
	var out []engine.Result
	if err := e.NewSession().ExecScript(script, func(r engine.Result) error { out = append(out, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// heapInUse returns the bytes of live heap objects after a full collection.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestBulkLoadLogIsReleased checks that a COPY of many rows leaves no log
// of them behind once committed: the log takes a slot per row, which the
// views built after a load would otherwise keep alive beside them.
func TestBulkLoadLogIsReleased(t *testing.T) {
	e := engine.New()
	var b strings.Builder
	b.WriteString("CREATE TABLE u (id int4 PRIMARY KEY, name text);\nCOPY u FROM STDIN;\n")
	for i := range 200_000 {
		fmt.Fprintf(&b, "%d\tname-%d\n", i, i)
	}
	b.WriteString("\\.\n")
	execAll(t, e, b.String())
	if c := engine.SpareLogCap(e); c > 1<<16 {
		t.Errorf("the log kept after a COPY of 200,000 rows has room for %d changes", c)
	}
	execAll(t, e, "INSERT INTO u VALUES (-1, 'x')")
	if c := engine.SpareLogCap(e); c == 0 {
		t.Errorf("a small transaction's log is not kept for the next")
	}
}

// TestStateMemoryMatchesHeap builds views over a million rows and compares
// the state the engine reports with the heap the views took, as the
// runtime measures it: they must agree within 25 %.
func TestStateMemoryMatchesHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds views over a million rows")
	}
	const n = 1_000_000
	e := engine.New()
	execAll(t, e, loadScript(n))
	views := []string{
		"CREATE MATERIALIZED VIEW vf AS SELECT id, b FROM t WHERE a < 500",
		"CREATE MATERIALIZED VIEW vd AS SELECT DISTINCT c FROM t",
		"CREATE MATERIALIZED VIEW vj AS SELECT t.id, u.name FROM t JOIN u ON t.c = u.id WHERE t.a < 100",
		"CREATE MATERIALIZED VIEW vk AS SELECT t.id, u.id AS uid FROM t JOIN u ON t.b = u.name",
		"CREATE MATERIALIZED VIEW vg AS SELECT c % 1000 AS k, count(*) AS n, sum(a) AS s FROM t WHERE a < 50 GROUP BY c % 1000",
		"CREATE MATERIALIZED VIEW vm AS SELECT c % 100 AS k, min(id) AS lo, max(id) AS hi, max(b) AS hb FROM t GROUP BY c % 100",
	}
	before := heapInUse()
	for _, v := range views {
		execAll(t, e, v)
	}
	grown := heapInUse() - before
	mem := e.Memory()
	reported := mem.Total.Bytes
	var sum int64
	for name, st := range mem.Views {
		t.Logf("%s: %d rows, %d bytes", name, st.Rows, st.Bytes)
		sum += st.Bytes
	}
	if sum != reported {
		t.Errorf("views sum to %d bytes, total %d: nothing is shared here", sum, reported)
	}
	ratio := float64(reported) / float64(grown)
	t.Logf("reported %d bytes, heap grew %d bytes: ratio %.3f", reported, grown, ratio)
	if math.Abs(ratio-1) > 0.25 {
		t.Errorf("reported state %d bytes, heap grew %d: off by %.0f %%", reported, grown, 100*(ratio-1))
	}
	runtime.KeepAlive(e)
}

// TestMemoryReportCountsPartialViews checks that a view maintained by
// partial propagation is in the memory report with all the state it
// holds (its operators' and its rows), and in the total.
func TestMemoryReportCountsPartialViews(t *testing.T) {
	e := engine.New()
	execAll(t, e, loadScript(1000))
	before := e.Memory().Total.Bytes
	execAll(t, e, "CREATE MATERIALIZED VIEW vp WITH (propagation = partial) AS SELECT t.id, t.b, u.name FROM t JOIN u ON t.c = u.id")
	if got := e.Propagation("vp"); got != "partial" {
		t.Fatalf("vp is maintained by %s", got)
	}
	ops, rows, ok := e.PartialState("vp")
	if !ok {
		t.Fatal("no partial state for vp")
	}
	mem := e.Memory()
	st, ok := mem.Views["vp"]
	if !ok {
		t.Fatalf("vp is not in the memory report: %v", mem.Views)
	}
	if want := ops.Bytes + rows.Bytes; st.Bytes != want || want <= 0 {
		t.Errorf("vp reports %d bytes, its operators and rows hold %d", st.Bytes, want)
	}
	if rows.Rows != 1000 {
		t.Errorf("vp holds %d rows, want 1000", rows.Rows)
	}
	if got := mem.Total.Bytes - before; got != st.Bytes {
		t.Errorf("the total grew by %d bytes, vp holds %d", got, st.Bytes)
	}
}

// TestGroupByMemoryMatchesHeap checks that a grouped view over many rows
// and few groups holds no more than it reports: the scratch of its cold
// start must not stay reachable (it once kept megabytes per view).
func TestGroupByMemoryMatchesHeap(t *testing.T) {
	e := engine.New()
	execAll(t, e, loadScript(100_000))
	before := heapInUse()
	execAll(t, e, "CREATE MATERIALIZED VIEW g AS SELECT a % 97 AS k, count(*), sum(c), avg(c) FROM t GROUP BY a % 97")
	grown := heapInUse() - before
	reported := e.Memory().Views["g"].Bytes
	t.Logf("reported %d bytes, heap grew %d bytes", reported, grown)
	if grown > reported+512<<10 {
		t.Errorf("heap grew %d bytes, the view reports %d", grown, reported)
	}
	runtime.KeepAlive(e)
}

// TestGroupByManyGroupsMemory checks that a grouping with many groups
// holds no more than it reports once built (the staged sums of its cold
// start's batches, one per group and sum, must not stay reachable) and
// that its sums take a few words each.
func TestGroupByManyGroupsMemory(t *testing.T) {
	e := engine.New()
	execAll(t, e, loadScript(100_000))
	execAll(t, e, "CREATE TABLE n (id int8 PRIMARY KEY, c int4, x numeric(15,2));\nINSERT INTO n SELECT id, c, (c * 7 % 1000) / 100.0 FROM t")
	const groups = 50_000
	before := heapInUse()
	execAll(t, e, "CREATE MATERIALIZED VIEW g AS SELECT id % 50000 AS k, count(*), sum(c) AS sc, avg(c), sum(x) AS sx FROM n GROUP BY id % 50000")
	grown := heapInUse() - before
	mem := e.Memory()
	reported := mem.Views["g"].Bytes
	var op int64
	if err := e.NewSession().ExecScript(`SELECT state_bytes FROM deltaview_operators WHERE view = 'g' AND kind = 'GroupBy'`, func(r engine.Result) error {
		op = r.Rows[0][0].Int()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	t.Logf("reported %d bytes (the grouping %d, %d a group), heap grew %d bytes", reported, op, op/groups, grown)
	if ratio := float64(reported) / float64(grown); math.Abs(ratio-1) > 0.1 {
		t.Errorf("reported %d bytes, heap grew %d: off by %.0f %%", reported, grown, 100*(ratio-1))
	}
	// A sum of integers or of numerics of one scale holds its count and
	// its coefficient inline (it took about 200 bytes with two decimals);
	// the key is held once, in the output row, a key of one integer finds
	// its group by value, and a group points at its accumulators without
	// slices (1,007 bytes a group before these).
	if op/groups > 480 {
		t.Errorf("the grouping holds %d bytes a group, want at most 480", op/groups)
	}
	runtime.KeepAlive(e)
}

// TestTopKReserveMemory checks that a LIMIT 10 view over a big table keeps
// its rows and its reserve only, under 100 kB, while the index it refills
// from is the table's, counted once however many views read it; that a
// MIN/MAX view keeps its groups' best values only; and that the figures
// agree with the heap the runtime measures. The one-million-row
// figures are in docs/reserves.md.
func TestTopKReserveMemory(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	e := engine.New()
	execAll(t, e, loadScript(n))
	before := heapInUse()
	execAll(t, e, "CREATE MATERIALIZED VIEW k1 AS SELECT id, b FROM t WHERE a <> 7 ORDER BY c DESC, id LIMIT 10")
	grown := heapInUse() - before
	mem := e.Memory()
	view, index := mem.Views["k1"], mem.Tables["t"]
	t.Logf("%d rows: view k1 %d bytes (%d rows), t's index %d bytes; heap grew %d bytes", n, view.Bytes, view.Rows, index.Bytes, grown)
	if view.Bytes >= 100<<10 {
		t.Errorf("view k1 holds %d bytes, want under 100 kB", view.Bytes)
	}
	if mem.Total.Bytes != view.Bytes+index.Bytes {
		t.Errorf("total %d bytes, want the view's %d and the index's %d", mem.Total.Bytes, view.Bytes, index.Bytes)
	}
	if ratio := float64(view.Bytes+index.Bytes) / float64(grown); math.Abs(ratio-1) > 0.25 {
		t.Errorf("reported %d bytes, heap grew %d: off by %.0f %%", view.Bytes+index.Bytes, grown, 100*(ratio-1))
	}
	var tableBytes int64
	if err := e.NewSession().ExecScript(`SELECT bytes FROM deltaview_tables WHERE name = 't'`, func(r engine.Result) error {
		tableBytes = r.Rows[0][0].Int()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if tableBytes < index.Bytes {
		t.Errorf("deltaview_tables reports %d bytes for t, less than its index's %d", tableBytes, index.Bytes)
	}
	// A second view with the same order and filter reads the same index.
	before = heapInUse()
	execAll(t, e, "CREATE MATERIALIZED VIEW k2 AS SELECT c, id FROM t WHERE a <> 7 ORDER BY c DESC, id LIMIT 10")
	grown = heapInUse() - before
	mem = e.Memory()
	t.Logf("view k2 %d bytes; heap grew %d bytes", mem.Views["k2"].Bytes, grown)
	if got := mem.Tables["t"]; got != index {
		t.Errorf("t's indexes hold %+v after the second view, %+v before", got, index)
	}
	if st := mem.Views["k2"]; st.Bytes >= 100<<10 || grown > st.Bytes+512<<10 {
		t.Errorf("view k2 reports %d bytes, heap grew %d", st.Bytes, grown)
	}
	// MIN and MAX of a text per group keep their best values only, and
	// refill from the table's index by (group, argument).
	before = heapInUse()
	execAll(t, e, "CREATE MATERIALIZED VIEW m1 AS SELECT a, min(b) AS lo, max(b) AS hi FROM t GROUP BY a")
	grown = heapInUse() - before
	mem = e.Memory()
	view, grownIndex := mem.Views["m1"], mem.Tables["t"].Bytes-index.Bytes
	t.Logf("view m1 %d bytes (%d rows), t's new index %d bytes; heap grew %d bytes", view.Bytes, view.Rows, grownIndex, grown)
	if view.Bytes >= 1500*1000 { // 1,000 groups of two reserves of 8 values
		t.Errorf("view m1 holds %d bytes, want under 1,500 a group", view.Bytes)
	}
	if ratio := float64(view.Bytes+grownIndex) / float64(grown); math.Abs(ratio-1) > 0.25 {
		t.Errorf("reported %d bytes, heap grew %d: off by %.0f %%", view.Bytes+grownIndex, grown, 100*(ratio-1))
	}
	// Deleting the top rows makes the views refill from the indexes.
	execAll(t, e, fmt.Sprintf("DELETE FROM t WHERE c >= %d", n/10-3))
	for _, v := range []string{"k1", "k2", "m1"} {
		_, got, err := e.ViewRows(v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := e.Recompute(v)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := keys(got), keys(want); !slices.Equal(g, w) {
			t.Fatalf("view %s holds %v, recomputed %v", v, g, w)
		}
	}
	runtime.KeepAlive(e)
}
