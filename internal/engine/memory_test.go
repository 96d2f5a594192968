package engine_test

import (
	"fmt"
	"math"
	"runtime"
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
