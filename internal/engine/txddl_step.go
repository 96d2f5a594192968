package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// blockStep keeps one step of the views inside a transaction block: the
// step a catalog change takes with the rows the block changed since its
// last catalog change, so that every view holds what the tables held
// when the change starts (the views built or built again by the change
// read the tables, the others keep stepping at commit from there). It
// keeps the tables' consolidated deltas, which its undo steps the views
// with negated (the same rows, each weight undone), and each view's
// delta, which the block's subscribers and sinks receive at COMMIT with
// the commit's own, as one delta: a step that a rollback undoes reaches
// no one.
type blockStep struct {
	tables map[string]zset.ZSet
	views  map[string]zset.ZSet
}

// refuseStepped refuses a catalog change after changes of the block that
// the views cannot step with in the block: change events of a
// change-stream table, which carry no row to take back, and any change a
// partial view reads (its target applies MERGE semantics, which a
// negated delta does not undo).
func (e *Engine) refuseStepped(what string, log []change) error {
	partial := e.partialReads()
	for i := range log {
		c := &log[i]
		if !e.isRead(c.t) {
			continue
		}
		if c.w == 0 || partial[c.t.name] {
			return pgerr.New(pgerr.FeatureNotSupported, "%s after a change to table %s, which a materialized view reads, is not supported in the same transaction block", what, e.bareName(c.t.name)).
				WithHint("make the catalog changes before the data changes, or commit the data changes first")
		}
	}
	return nil
}

// partialReads returns the relations partial views read (nil when no
// view is partial).
func (e *Engine) partialReads() map[string]bool {
	var out map[string]bool
	for _, v := range e.order {
		if _, ok := v.(*pview); ok {
			if out == nil {
				out = map[string]bool{}
			}
			for _, r := range v.relations() {
				out[r] = true
			}
		}
	}
	return out
}

// blockDeltas returns the consolidated changes of log to the tables the
// views read, in batches of their own (a commit's reuse its memory).
func (e *Engine) blockDeltas(log []change) map[string]zset.ZSet {
	var out map[string]zset.ZSet
	for i := range log {
		c := &log[i]
		if c.w == 0 || !e.isRead(c.t) {
			continue
		}
		if c.owes {
			// Read now, as a commit reads it (tableDeltas).
			c.t.bytes -= dataflow.RowBytes(c.row)
			c.owes = false
		}
		if out == nil {
			out = map[string]zset.ZSet{}
		}
		out[c.t.name] = append(out[c.t.name], zset.Entry{Row: c.row, W: int64(c.w)})
	}
	for name, z := range out {
		if z = zset.Consolidate(z); len(z) > 0 {
			out[name] = z
		} else {
			delete(out, name)
		}
	}
	return out
}

// stepBlock steps the views with the block's changes log, at a catalog
// change: nil when no view reads what changed. A view that fails leaves
// every view as it was.
func (e *Engine) stepBlock(log []change) (*blockStep, error) {
	tables := e.blockDeltas(log)
	if len(tables) == 0 {
		return nil, nil
	}
	views, err := e.stepViewsInBlock(tables, true)
	if err != nil {
		return nil, err
	}
	return &blockStep{tables: tables, views: views}, nil
}

// unstep takes a step of the block back: the views step with its tables'
// deltas negated, which brings each back to the rows it held before. It
// runs with the tables as the step found them, and the catalog too (the
// catalog changes after it are undone first).
func (e *Engine) unstep(st *blockStep) error {
	neg := make(map[string]zset.ZSet, len(st.tables))
	for name, z := range st.tables {
		neg[name] = z.Negate()
	}
	_, err := e.stepViewsInBlock(neg, false)
	return err
}

// stepViewsInBlock steps the views with the tables' deltas as a commit
// would, without a time, the store, subscribers or sinks, and returns
// each view's delta. Forward, the tables are ahead of the indexes by the
// deltas (a commit's case); back, they are where the indexes are.
func (e *Engine) stepViewsInBlock(tables map[string]zset.ZSet, forward bool) (map[string]zset.ZSet, error) {
	deltas := make(map[string]zset.ZSet, len(tables))
	for name, z := range tables {
		deltas[name] = z
	}
	if forward && len(e.shared.list) > 0 {
		e.shared.setAhead(deltas)
		defer e.shared.setAhead(nil)
	}
	in := &stepInput{deltas: deltas, step: e.ts + 1}
	for _, z := range tables {
		in.changes += len(z)
	}
	stepped, name, err := e.prepareViews(in, nil)
	if err == nil && len(e.shared.list) > 0 {
		err = e.shared.stage(deltas)
		name = ""
	}
	if err != nil {
		for _, v := range stepped {
			v.abort()
		}
		e.shared.abort()
		pe := *pgerr.Wrap(err)
		if name != "" {
			pe.Detail = blockStepDetail(pe.Detail, name)
		}
		return nil, &pe
	}
	for _, v := range stepped {
		v.commit()
	}
	if len(e.shared.list) > 0 {
		e.shared.commit()
	}
	views := map[string]zset.ZSet{}
	for _, v := range stepped {
		n := v.meta().name
		if z := deltas[n]; len(z) > 0 && tables[n] == nil {
			views[n] = zset.Consolidate(slices.Clone(z))
		}
	}
	return views, nil
}

// blockStepDetail says which view failed at a catalog change's step.
func blockStepDetail(detail, name string) string {
	d := "while maintaining materialized view \"" + name + "\" before a catalog change"
	if detail != "" {
		return detail + " (" + d + ")"
	}
	return d
}

// heldDeltas returns what the block's steps gave each view still there,
// summed, for the commit to deliver with its own delta: nil when none.
func (e *Engine) heldDeltas(d *txDDL) map[string]zset.ZSet {
	var held map[string]zset.ZSet
	for _, u := range d.undo {
		if u.step == nil {
			continue
		}
		for name, z := range u.step.views {
			if e.views[name] == nil {
				continue // dropped since: its users end with the block
			}
			if held == nil {
				held = map[string]zset.ZSet{}
			}
			held[name] = zset.Add(held[name], z)
		}
	}
	for name, z := range held {
		if len(z) == 0 {
			delete(held, name)
		}
	}
	if len(held) == 0 {
		return nil
	}
	return held
}

// withHeld returns the commit's deltas with the block's held view
// deltas added, in a map of its own, for the subscribers and sinks; the
// deltas themselves when the block holds none.
func (e *Engine) withHeld(deltas map[string]zset.ZSet) map[string]zset.ZSet {
	if e.txd == nil || e.txd.held == nil {
		return deltas
	}
	out := make(map[string]zset.ZSet, len(deltas)+len(e.txd.held))
	for name, z := range deltas {
		out[name] = z
	}
	for name, z := range e.txd.held {
		out[name] = zset.Add(z, zset.Consolidate(slices.Clone(out[name])))
	}
	e.txd.held = nil // delivered once
	return out
}

// steppedSince reports whether a catalog change of the block after the
// i-th stepped the views.
func (e *Engine) steppedSince(i int) bool {
	if e.txd == nil {
		return false
	}
	for _, u := range e.txd.undo[min(i, len(e.txd.undo)):] {
		if u.step != nil {
			return true
		}
	}
	return false
}
