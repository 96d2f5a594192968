package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Scan implements exec.Source: tables as they are in the writer's open
// transaction, materialized views as last committed (their maintained
// state: the query is never run again), and the system views. The writer
// reads through it; other sessions read through committed.
func (e *Engine) Scan(rel string, fn func(value.Row) error) error {
	if rows, ok := e.transitionRows(rel); ok {
		for _, r := range rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
	if name, ok := plan.SystemTable(rel); ok {
		return e.scanSystem(name, func(sfn func(uint64, value.Row) error) error {
			return e.scanIDs(e.tables[name], sfn)
		}, fn)
	}
	if t, ok := e.tables[rel]; ok {
		if !t.keepsRows() {
			return pgerr.New(pgerr.FeatureNotSupported, "change-stream table %q keeps no rows", rel).
				WithHint("query a materialized view over it")
		}
		var err error
		n := int64(0)
		t.scanHeap(func(_ uint64, r value.Row) bool {
			n++
			err = fn(r)
			return err == nil
		})
		t.stat.scanned(n)
		return err
	}
	if v, ok := e.views[rel]; ok {
		for _, r := range v.rows() {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
	if q, ok := e.seqs[rel]; ok {
		return fn(q.row())
	}
	if _, ok := e.unpopulated[rel]; ok {
		return errNotPopulated(rel)
	}
	if st, ok := systemViews[rel]; ok {
		for _, r := range st.rows(e) {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
	rows, err := e.catalogRows(rel, "")
	for _, r := range rows {
		if err := fn(r); err != nil {
			return err
		}
	}
	return err
}

var _ exec.FilteredSource = (*Engine)(nil)

// ScanFiltered implements exec.FilteredSource: a table's rows found
// through an index (see accessPath); a materialized view's through an
// index on a column pred fixes (see viewLookup). The rows found are
// filtered by the whole of pred.
func (e *Engine) ScanFiltered(rel string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	e.lookupMu.Lock()
	defer e.lookupMu.Unlock()
	if v, ok := e.views[rel]; ok {
		if z, ok := v.(*zview); ok {
			return e.viewLookup(z, pred, fn)
		}
		return false, nil // a partial view's rows are read by scanning
	}
	t, ok := e.tables[rel]
	if !ok {
		return false, nil
	}
	p, err := t.accessPath(pred)
	if err != nil || p == nil {
		return false, nil // a scan evaluates, and fails, as before
	}
	n := int64(0)
	t.eachOnPath(p, func(_ uint64, row value.Row) bool {
		n++
		var ok bool
		if ok, err = accepts(pred, row); err == nil && ok {
			err = fn(row)
		}
		return err == nil
	})
	t.stat.fetched(n)
	return true, err
}

var _ exec.Sizer = (*Engine)(nil)

// RelationSize implements exec.Sizer: a table's or a materialized view's
// rows, as they are (an estimate for a reader the open transaction's
// changes are undone for).
func (e *Engine) RelationSize(rel string) (int, bool) {
	if t, ok := e.tables[rel]; ok && t.keepsRows() {
		return t.rows.Len(), true
	}
	if v, ok := e.views[rel]; ok {
		return int(v.rowCount()), true
	}
	return 0, false
}

func execSelect(p plan.Node, src exec.Source) (Result, error) {
	rows, err := exec.Run(p, src)
	if err != nil {
		return Result{}, err
	}
	return Result{Columns: p.Columns(), Rows: rows, HasRows: true, Tag: fmt.Sprintf("SELECT %d", len(rows))}, nil
}

// ViewRows returns a materialized view's rows, each as many times as it
// occurs, in the view's order (see matView.rows).
func (e *Engine) ViewRows(name string) ([]plan.Column, []value.Row, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	v, ok := e.views[name]
	if !ok {
		return nil, nil, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", name)
	}
	return v.meta().cols, v.rows(), nil
}

// Recompute evaluates a materialized view's defining query from scratch
// over the committed tables: the oracle that tests compare the maintained
// rows with.
func (e *Engine) Recompute(name string) ([]value.Row, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	v, ok := e.views[name]
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", name)
	}
	p := v.meta().def.Plan
	if zv, ok := v.(*zview); ok && len(zv.c.Temporal) > 0 {
		// Temporal filters read the clock at the views' time.
		p = plan.AtTime(p, value.NewTimestamp(value.TimestampTZ, e.now))
	}
	return exec.Run(p, scanOnly{e.committed()})
}

// scanOnly reads every relation by scanning it: the oracle neither
// depends on the indexes ad-hoc reads use nor builds them. Its
// aggregates order their values as a view does (exec.ViewOrderSource).
type scanOnly struct{ exec.Source }

// ViewOrder implements exec.ViewOrderSource.
func (scanOnly) ViewOrder() {}

// Views returns the names of the materialized views in creation order.
func (e *Engine) Views() []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.viewNames()
}

// Columns returns a table's column names, in order.
func (e *Engine) Columns(table string) ([]string, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	t, ok := e.tables[table]
	if !ok {
		return nil, false
	}
	out := make([]string, len(t.cols))
	for i, c := range t.cols {
		out[i] = c.Name
	}
	return out, true
}

// LastTS returns the logical time of the last commit: the number of
// transactions committed so far.
func (e *Engine) LastTS() uint64 {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.ts
}

// LastTS returns the logical time of the engine's last commit.
func (s *Session) LastTS() uint64 { return s.e.LastTS() }
