package plan

import "github.com/deltaview/deltaview/internal/pgerr"

// recursive carries the domain through a recursion whose anchor or step
// reads outer columns: one recursion over every domain row at once, each
// of its rows led by the domain row it belongs to. The anchor is
// decorrelated as any subtree; in the step, the previous round's rows
// (the RecRef) already carry the domain, so the step is decorrelated
// with them as its dependent input, and a join of them with a side that
// reads outer columns also matches on the domain. UNION's duplicates are
// then discarded per domain row, as each evaluation of the subquery
// discards its own.
func (d *decorrelator) recursive(n *Recursive) (Node, error) {
	if n.StopAfter > 0 {
		// Set only by the from-scratch evaluation, after planning.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "a recursive query stopped by a LIMIT that reads the outer query's columns is not supported")
	}
	anchor, err := d.dep(n.Anchor)
	if err != nil {
		return nil, err
	}
	if d.recs == nil {
		d.recs = map[string]bool{}
	}
	was := d.recs[n.Name]
	d.recs[n.Name] = true
	step, err := d.dep(n.Step)
	d.recs[n.Name] = was
	if err != nil {
		return nil, err
	}
	return &Recursive{Name: n.Name, Anchor: anchor, Step: step, All: n.All, Cols: d.withDom(n.Cols), MaxIterations: n.MaxIterations}, nil
}
