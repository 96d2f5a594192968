package engine

import (
	"fmt"
	"math"
	"runtime/debug"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Memory accounting. Every operator reports the state it holds
// (dataflow.Operator.State); arrangements, which several operators and
// several views may hold or read, are keyed by their identity
// (dataflow.Circuit.StateParts). A view's figure counts each piece of
// state it uses once, shared or not; the engine's total counts each piece
// once however many views use it. Both are sums of the figures the
// operators keep up to date at each commit: computing them costs
// O(operators), plus O(partitions) for a top-k.

// stateTotal returns the state of every materialized view, each piece
// counted once, and the indexes of tables that their top-ks refill from
// (reported with the tables, in deltaview_tables, not with the views).
func (e *Engine) stateTotal() dataflow.StateSize {
	var a dataflow.Accounting
	var lookups int64
	for _, v := range e.order {
		v.account(&a)
		if z, ok := v.(*zview); ok {
			lookups += z.lookupBytes()
		}
	}
	st := a.Total()
	st.Bytes += lookups
	r := e.shared.reserveTotal()
	st.Rows += r.Rows
	st.Bytes += r.Bytes
	return st
}

// MemoryReport is the state memory of the engine's views.
type MemoryReport struct {
	Views map[string]dataflow.StateSize // per view: all the state it uses but the tables' indexes
	// Tables is, per relation, the indexes top-ks refill from: one per
	// relation and order, whatever number of views read it.
	Tables map[string]dataflow.StateSize
	Total  dataflow.StateSize // each piece of state once
}

// Memory returns the state each materialized view holds and the total.
func (e *Engine) Memory() MemoryReport {
	e.mu.RLock()
	defer e.mu.RUnlock()
	r := MemoryReport{Views: map[string]dataflow.StateSize{}, Tables: e.shared.reserveBytes(), Total: e.stateTotal()}
	for _, v := range e.order {
		r.Views[v.meta().name] = v.state()
	}
	return r
}

// checkBudgets runs after a commit that stepped the views in stepped: a
// view that crosses its budget, or the engine crossing the engine-wide
// one, is flagged and reported with a notice (once per crossing; the flag
// clears when the state falls back under the budget).
func (e *Engine) checkBudgets(stepped []matView) {
	for _, v := range stepped {
		m := v.meta()
		if m.maxMemory <= 0 {
			continue
		}
		st := v.state()
		over := st.Bytes > m.maxMemory
		if over && !m.overBudget {
			e.notices = append(e.notices, fmt.Sprintf("materialized view %q holds %s of state, over its budget of %s",
				m.name, sql.FormatBytes(st.Bytes), sql.FormatBytes(m.maxMemory)))
		}
		m.overBudget = over
	}
	if e.maxMemory > 0 && len(stepped) > 0 {
		total := e.stateTotal()
		over := total.Bytes > e.maxMemory
		if over && !e.overBudget {
			e.notices = append(e.notices, fmt.Sprintf("materialized views hold %s of state, over deltaview.max_memory = %s",
				sql.FormatBytes(total.Bytes), sql.FormatBytes(e.maxMemory)))
		}
		e.overBudget = over
	}
}

// budgetError is the error of a cold start that would exceed a budget.
func budgetError(name string, held, budget int64, engineWide bool) error {
	which := fmt.Sprintf("its budget max_memory = %s", sql.FormatBytes(budget))
	hint := "raise the view's max_memory, or narrow the view"
	if engineWide {
		which = fmt.Sprintf("deltaview.max_memory = %s for all views", sql.FormatBytes(budget))
		hint = "raise deltaview.max_memory (SET deltaview.max_memory = '…'), drop views, or narrow this one"
	}
	return pgerr.New(pgerr.OutOfMemory, "building materialized view %q would exceed %s: it held %s when the build stopped",
		name, which, sql.FormatBytes(held)).WithHint("%s", hint)
}

// checkBuildBudget fails with 53200 when a view being built, v, holds
// more state than its budget, or than the engine-wide one together with
// every other view.
func (e *Engine) checkBuildBudget(v matView) error {
	m := v.meta()
	if m.maxMemory > 0 {
		if st := v.state(); st.Bytes > m.maxMemory {
			return budgetError(m.name, st.Bytes, m.maxMemory, false)
		}
	}
	if e.maxMemory > 0 {
		var a dataflow.Accounting
		for _, o := range e.order {
			o.account(&a)
		}
		v.account(&a)
		if held := a.Total().Bytes + e.shared.reserveTotal().Bytes; held > e.maxMemory {
			return budgetError(m.name, held, e.maxMemory, true)
		}
	}
	return nil
}

// takeNotices returns and clears the notices raised since the last call.
func (e *Engine) takeNotices() []string {
	n := e.notices
	e.notices, e.noticeLevels, e.noticeCodes, e.noticeFields = nil, nil, nil, nil
	return n
}

// afterCommit drops the big batches a large transaction (a bulk load)
// left in the circuits it stepped, so that they are not held until the
// next step, and checks the memory budgets.
func (e *Engine) afterCommit(stepped []matView, changes int) {
	if changes > coldStartBatch {
		for _, v := range stepped {
			v.trim()
		}
	}
	e.checkBudgets(stepped)
	e.checkRefills(stepped)
}

// nodeState returns the state node id uses: its own and every
// arrangement it holds or reads.
func nodeState(c *dataflow.Circuit, id dataflow.NodeID) dataflow.StateSize {
	var s dataflow.StateSize
	for _, p := range c.StateParts(id) {
		s.Rows += p.Size.Rows
		s.Bytes += p.Size.Bytes
	}
	return s
}

// nodeRefills returns how often an operator went back to an index for
// rows its reserve had run out of.
func nodeRefills(o dataflow.Operator) int64 {
	if r, ok := o.(interface{ Refills() int64 }); ok {
		return r.Refills()
	}
	return 0
}

// DefaultQueryMemory is the default of deltaview.max_query_memory, the
// memory one ad-hoc query (or a DML statement's source) may materialise;
// under a GOMEMLIMIT, a quarter of that limit when it is smaller.
const DefaultQueryMemory = 1 << 30

// queryBudget bounds what an evaluation over src may materialise: the
// per-query limit, and what the engine-wide budget leaves after the
// views' state. It fails with 53200 before the memory is taken. A
// statement's query also stops at its session's cancel and timeout.
func (e *Engine) queryBudget(src exec.Source) *exec.Budget {
	b := e.viewQueryBudget(src)
	if e.stepping {
		return b // the views' own queries: a commit is not cancelled
	}
	if !e.deadline.IsZero() {
		b.Deadline, b.Late = e.deadline, errStatementTimeout
	}
	if e.firer != nil { // a write statement's query: its session's cancel
		b.Interrupts = e.firer
	}
	return b
}

// viewQueryBudget is queryBudget without a statement's cancel and
// timeout: that of a view's call of a function, which may run after
// its commit's end, beside the next statement (behind.go), and is never
// cancelled.
func (e *Engine) viewQueryBudget(src exec.Source) *exec.Budget {
	limit, which := e.maxQueryMemory, "deltaview.max_query_memory"
	if limit <= 0 {
		limit = DefaultQueryMemory
		if l := debug.SetMemoryLimit(-1); l < math.MaxInt64 && l/4 < limit {
			limit, which = max(l/4, 1<<20), "a quarter of the Go memory limit (GOMEMLIMIT)"
		}
	}
	if e.maxMemory > 0 {
		// A query's rows are bounded with the views' state; at least 1MB
		// is left to it, so that views over their budget do not stop
		// every query.
		if left := max(e.maxMemory-e.stateTotal().Bytes, 1<<20); left < limit {
			limit, which = left, fmt.Sprintf("what deltaview.max_memory = %s leaves after the views' state", sql.FormatBytes(e.maxMemory))
		}
	}
	b := &exec.Budget{Source: src, Max: limit, Over: func(held int64) error {
		pe := pgerr.New(pgerr.OutOfMemory, "out of memory")
		pe.Detail = fmt.Sprintf("The query would materialize more than %s (%s).", sql.FormatBytes(limit), which)
		return pe.WithHint("narrow the query, or raise deltaview.max_query_memory (SET deltaview.max_query_memory = '…')")
	}}
	return b
}
