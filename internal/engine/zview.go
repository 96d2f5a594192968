package engine

import (
	"slices"
	"time"

	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// zview is a materialized view maintained by the Z-set dataflow: its
// circuit keeps every operator's state, and its last node integrates the
// view's rows with their multiplicities.
type zview struct {
	viewMeta
	c *compile.Compiled
	// timed says whether the step being prepared is timed.
	timed bool
	// lookups index the rows by columns ad-hoc reads fixed (viewindex.go);
	// unselective lists the columns found not worth an index.
	lookups     []*viewIndex
	unselective []int
	// refillers are the operators that count refills (refillOps); nil
	// until found.
	refillers []refillCounter
}

func (v *zview) relations() []string { return v.c.Relations }

func (v *zview) prepare(in *stepInput) (zset.ZSet, bool, error) {
	if in.one != "" {
		if !slices.Contains(v.c.Relations, in.one) {
			return nil, false, nil
		}
	} else if !readsAny(v, in.deltas) {
		return nil, false, nil
	}
	// One step in stepSample is timed: reading the clock costs as much
	// as a small step.
	v.timed = v.steps%stepSample == 0
	var start time.Time
	if v.timed {
		start = time.Now()
	}
	// The tables' deltas, the clock's and the views' outputs are
	// consolidated.
	var err error
	if in.one != "" {
		err = v.c.Circuit.PrepareOne(in.one, in.oneZ)
	} else {
		err = v.c.Circuit.PrepareConsolidated(in.deltas)
	}
	if err != nil {
		return nil, false, err
	}
	if v.timed {
		v.lastStep = time.Since(start)
	}
	out := v.c.Circuit.Output(v.c.Output)
	if len(v.indexes) > 0 {
		if err := v.stageIndexes(out); err != nil {
			v.c.Circuit.Abort() // a failing prepare leaves nothing staged
			return nil, false, err
		}
	}
	return out, true, nil
}

func (v *zview) commit() {
	if len(v.indexes) > 0 {
		v.commitIndexes()
	}
	if len(v.lookups) > 0 {
		v.applyLookups(v.c.Circuit.Output(v.c.Output))
	}
	v.c.Circuit.Commit()
	if v.timed {
		v.totalSteps += v.lastStep
		v.timedSteps++
	}
	v.steps++
}

func (v *zview) abort() {
	v.abortIndexes()
	v.c.Circuit.Abort()
}

// rows returns the view's rows, each as many times as it occurs: in the
// view's ORDER BY when it ends with ORDER BY … LIMIT, otherwise in the
// canonical row order.
func (v *zview) rows() []value.Row {
	rows := make([]value.Row, 0, v.c.View.Len())
	v.c.View.Rows(func(r value.Row, w int64) bool {
		for i := int64(0); i < w; i++ {
			rows = append(rows, r)
		}
		return true
	})
	if v.c.Order != nil {
		slices.SortStableFunc(rows, v.c.Order)
	}
	return rows
}

func (v *zview) snapshot() zset.ZSet {
	z := make(zset.ZSet, 0, v.c.View.Len())
	v.c.View.Rows(func(r value.Row, w int64) bool {
		z = append(z, zset.Entry{Row: r, W: w})
		return true
	})
	return z
}

func (v *zview) rowCount() int64 { return v.c.View.Len() }

func (v *zview) state() dataflow.StateSize {
	var a dataflow.Accounting
	a.AddCircuit(v.c.Circuit)
	st := a.Total()
	st.Bytes += v.lookupBytes()
	for _, ix := range v.indexes {
		st.Bytes += ix.bytes()
	}
	return st
}

func (v *zview) account(a *dataflow.Accounting) { a.AddCircuit(v.c.Circuit) }

func (v *zview) operators() []opFigures {
	c := v.c.Circuit
	out := make([]opFigures, c.Len())
	for id := range out {
		n := c.Node(dataflow.NodeID(id))
		stats := c.Stats(dataflow.NodeID(id))
		out[id] = opFigures{kind: n.Info().Kind, state: nodeState(c, dataflow.NodeID(id)),
			in: stats.EntriesIn, out: stats.EntriesOut, refills: nodeRefills(n)}
	}
	return out
}

// refills sums the refills of the view's operators.
func (v *zview) refills() int64 {
	var n int64
	for _, o := range v.refillOps() {
		if o.counts != nil {
			n += o.counts.Refills()
		}
	}
	return n
}

func (v *zview) trim() { v.c.Circuit.Trim() }

// keyed returns the key of a select-project-join view that keeps its
// root table's key: the one a partial circuit of the same plan would
// have.
func (v *zview) keyed(e *Engine) (*delta.Schema, error) {
	s, err := e.viewKey(v.name, v.def.Plan)
	if err != nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "materialized view %q has no key a keyed target can use: %v", v.name, err).
			WithHint("a sink needs a select-project-join view that keeps its root table's primary key")
	}
	return s, nil
}

// explicit pairs the Z-set delta's retractions and assertions by key: a
// retraction and an assertion of one key are an update.
func (v *zview) explicit(s *delta.Schema, z zset.ZSet) delta.Batch {
	if len(z) == 0 {
		return nil
	}
	b := tableChanges(s, z)
	delta.SortByKey(s, b)
	return b
}

func (v *zview) explain(e *Engine, format string) (Result, error) {
	var pre []string
	if note, ok := e.notes[v.name]; ok {
		pre = e.normalisedLines(note, v.def.Plan)
	}
	return explainCircuit(pre, v.c, true, format), nil
}
