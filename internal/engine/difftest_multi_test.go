package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
)

// TestDifferentialJoins is the differential test of joins: inner and outer
// joins of 2–3 tables (ON with an equality and residual conditions, USING,
// NATURAL, comma joins), semi- and anti-joins (EXISTS, NOT EXISTS, IN, NOT
// IN, = ANY, <> ALL) and set operations, over tables whose join keys have
// small domains, NULLs and duplicate rows, with transactions that move
// keys on both sides of a join at once. Each of the 100 rapid cases (20
// under -short) makes 5–7 views and runs 50 transactions: at least 500
// views and 5,000 transactions, with the oracles of TestDifferential after
// every one.
func TestDifferentialJoins(t *testing.T) {
	t.Parallel()
	runDifferential(t, diffShape{
		name:     "difftest-joins",
		tables:   (*gen).joinTables,
		view:     (*gen).joinView,
		stmts:    (*gen).joinStmts,
		minViews: 5, maxViews: 7, txns: 50,
		wantViews: 500, wantTxns: 5000,
	})
}

// TestDifferentialAggregates is the differential test of grouping: every
// aggregate deltaview maintains, with GROUP BY on columns, expressions and
// positions, global aggregates, HAVING, FILTER and DISTINCT, over one table
// or a join, and ORDER BY … LIMIT [OFFSET] views; transactions delete the
// current extreme, empty groups and refill them, and move rows between
// groups. Every other case runs with MIN and MAX keeping a reserve of one
// value per group, so that deletes refill them from the index constantly.
// Each of the 100 rapid cases (20 under -short) makes 5–7 views and runs
// 50 transactions: at least 500 views and 5,000 transactions.
func TestDifferentialAggregates(t *testing.T) {
	t.Parallel()
	runDifferential(t, diffShape{
		name:     "difftest-aggs",
		tables:   (*gen).aggTables,
		view:     (*gen).aggView,
		stmts:    (*gen).aggStmts,
		minViews: 5, maxViews: 7, txns: 50,
		wantViews: 500, wantTxns: 5000,
		// The only parallel test that makes MIN or MAX, so the only reader
		// of op.DefaultReserve while it runs.
		// Odd cases cut the top-ks' shared indexes to a row or two, so that
		// refills extend them from their tables (dataflow.Arrangement.Bound).
		beforeCase: func(n int) func() {
			old := op.DefaultReserve
			if n%2 == 0 {
				op.DefaultReserve = 1
			}
			oldBound := 0
			if n%2 == 1 {
				oldBound = dataflow.SetBoundMin(1)
			}
			return func() {
				op.DefaultReserve = old
				if n%2 == 1 {
					dataflow.SetBoundMin(oldBound)
				}
			}
		},
	})
}
