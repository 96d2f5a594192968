package engine_test

import (
	"fmt"
	"testing"
)

// TestDifferentialRecursive is the differential test of WITH RECURSIVE
// views: transitive closure, reachability from a node (the recursive
// reference on either side of the join, an anchor of VALUES), hop counts
// bounded in the recursive term (UNION ALL, every walk counted), shortest
// hop counts, bills of materials over the DAG of upward edges, a left join
// and an EXISTS inside the recursive term, and the closure read by an
// aggregate and a NOT EXISTS.
// The graph has 6 nodes, repeated edges, NULL ends and cycles that
// transactions make and break; after every transaction each view must
// equal the from-scratch evaluation and PostgreSQL. Each of the 100 rapid
// cases (20 under -short) makes 3–5 views and runs 30 transactions.
func TestDifferentialRecursive(t *testing.T) {
	t.Parallel()
	runDifferential(t, diffShape{
		name:     "difftest-recursive",
		tables:   (*gen).graphTables,
		view:     (*gen).recursiveView,
		stmts:    (*gen).graphStmts,
		minViews: 3, maxViews: 5, txns: 30,
		wantViews: 300, wantTxns: 3000,
	})
}

// graphTables is one table of edges between nodes 0–5, with a weight.
func (g *gen) graphTables() []*dtable {
	t := &dtable{name: "e", pk: g.chance(50)}
	if t.pk {
		t.cols = append(t.cols, dcol{name: "id", typ: "integer", k: kInt, notNull: true})
	}
	node := []string{"0", "1", "2", "3", "4", "5"}
	t.cols = append(t.cols,
		dcol{name: "src", typ: "integer", k: kInt, notNull: g.chance(50), dom: node},
		dcol{name: "dst", typ: "integer", k: kInt, notNull: g.chance(50), dom: node},
		dcol{name: "w", typ: "integer", k: kInt, notNull: true, dom: []string{"0", "1", "2", "3"}})
	return []*dtable{t}
}

// maxEdges bounds the graph, so that counted walks stay few.
const maxEdges = 12

func (g *gen) graphStmts(st state) []string {
	t := g.tables[0]
	if st.size(t) > maxEdges {
		return []string{g.delete(st, t)}
	}
	switch r := g.intn(100); {
	case r < 45:
		return []string{g.insertValues(st, t, t.pk && g.chance(20))}
	case r < 70:
		return []string{g.update(t)}
	case r < 80:
		// Two changes that may undo each other.
		return []string{g.insertValues(st, t, false), g.delete(st, t)}
	}
	return []string{g.delete(st, t)}
}

func intCols(names ...string) []dcol {
	out := make([]dcol, len(names))
	for i, n := range names {
		out[i] = dcol{name: n, typ: "bigint", k: kInt}
	}
	return out
}

func (g *gen) recursiveView() (string, []dcol) {
	k := g.intn(6)
	const tc = "WITH RECURSIVE t(a, b) AS (SELECT src, dst FROM e UNION SELECT t.a, e.dst FROM t JOIN e ON t.b = e.src) "
	switch g.intn(9) {
	case 0:
		return tc + "SELECT a, b FROM t", intCols("a", "b")
	case 1:
		return fmt.Sprintf("WITH RECURSIVE r(n) AS (VALUES (%d) UNION SELECT e.dst FROM e JOIN r ON e.src = r.n WHERE e.w > %d) SELECT n FROM r",
			k, g.intn(2)), intCols("n")
	case 2:
		return fmt.Sprintf("WITH RECURSIVE t(n, h) AS (SELECT dst, 1 FROM e WHERE src = %d UNION ALL SELECT e.dst, t.h + 1 FROM t, e WHERE e.src = t.n AND t.h < %d) SELECT n, h FROM t",
			k, 1+g.intn(3)), intCols("n", "h")
	case 3:
		return fmt.Sprintf("WITH RECURSIVE t(n, h) AS (SELECT %d, 0 UNION SELECT e.dst, t.h + 1 FROM t JOIN e ON e.src = t.n WHERE t.h < %d) SELECT n, min(h) AS h FROM t GROUP BY n",
			k, 2+g.intn(4)), intCols("n", "h")
	case 4:
		return fmt.Sprintf("WITH RECURSIVE b(p, q) AS (SELECT dst, w FROM e WHERE src = %d AND dst > src UNION ALL SELECT e.dst, b.q * e.w FROM b JOIN e ON e.src = b.p WHERE e.dst > e.src) SELECT p, sum(q) AS total, count(*) AS paths FROM b GROUP BY p",
			k), intCols("p", "total", "paths")
	case 5:
		return fmt.Sprintf("WITH RECURSIVE t(n) AS (SELECT src FROM e WHERE w = %d UNION SELECT coalesce(e.dst, t.n + 10) FROM t LEFT JOIN e ON e.src = t.n WHERE t.n < 10) SELECT n FROM t",
			g.intn(4)), intCols("n")
	case 6:
		return fmt.Sprintf("WITH RECURSIVE r(n) AS (SELECT %d UNION SELECT e.dst FROM r JOIN e ON e.src = r.n WHERE EXISTS (SELECT 1 FROM e AS x WHERE x.src = e.dst AND x.w > 0)) SELECT n FROM r",
			k), intCols("n")
	case 7:
		return tc + "SELECT a, b FROM t WHERE NOT EXISTS (SELECT 1 FROM e WHERE e.src = t.a AND e.dst = t.b)", intCols("a", "b")
	}
	return tc + fmt.Sprintf("SELECT a, count(*) AS reach FROM t WHERE a <> b OR a = %d GROUP BY a", k), intCols("a", "reach")
}
