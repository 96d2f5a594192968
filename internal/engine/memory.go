package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/dataflow"
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

// viewState returns the rows and bytes of the state view v uses.
func viewState(v *view) dataflow.StateSize {
	var a dataflow.Accounting
	a.AddCircuit(v.c.Circuit)
	st := a.Total()
	st.Bytes += v.lookupBytes()
	return st
}

// stateTotal returns the state of every materialized view, each piece
// counted once.
func (e *Engine) stateTotal() dataflow.StateSize {
	var a dataflow.Accounting
	var lookups int64
	for _, v := range e.order {
		a.AddCircuit(v.c.Circuit)
		lookups += v.lookupBytes()
	}
	st := a.Total()
	st.Bytes += lookups
	return st
}

// MemoryReport is the state memory of the engine's views.
type MemoryReport struct {
	Views map[string]dataflow.StateSize // per view: all the state it uses
	Total dataflow.StateSize            // each piece of state once
}

// Memory returns the state each materialized view holds and the total.
func (e *Engine) Memory() MemoryReport {
	e.mu.RLock()
	defer e.mu.RUnlock()
	r := MemoryReport{Views: map[string]dataflow.StateSize{}, Total: e.stateTotal()}
	for _, v := range e.order {
		r.Views[v.name] = viewState(v)
	}
	return r
}

// overBudget reports whether v's state exceeds its budget.
func (v *view) overBudgetNow(st dataflow.StateSize) bool {
	return v.maxMemory > 0 && st.Bytes > v.maxMemory
}

// checkBudgets runs after a commit that stepped the views in stepped: a
// view that crosses its budget, or the engine crossing the engine-wide
// one, is flagged and reported with a notice (once per crossing; the flag
// clears when the state falls back under the budget).
func (e *Engine) checkBudgets(stepped []*view) {
	for _, v := range stepped {
		if v.maxMemory <= 0 {
			continue
		}
		st := viewState(v)
		over := v.overBudgetNow(st)
		if over && !v.overBudget {
			e.notices = append(e.notices, fmt.Sprintf("materialized view %q holds %s of state, over its budget of %s",
				v.name, sql.FormatBytes(st.Bytes), sql.FormatBytes(v.maxMemory)))
		}
		v.overBudget = over
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

// takeNotices returns and clears the notices raised since the last call.
func (e *Engine) takeNotices() []string {
	n := e.notices
	e.notices = nil
	return n
}

// afterCommit drops the big batches a large transaction (a bulk load)
// left in the circuits it stepped, so that they are not held until the
// next step, and checks the memory budgets.
func (e *Engine) afterCommit(stepped []*view, changes int) {
	if changes > coldStartBatch {
		for _, v := range stepped {
			v.c.Circuit.Trim()
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
