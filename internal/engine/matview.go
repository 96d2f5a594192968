package engine

import (
	"time"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// matView is a materialized view, however it is maintained: by the Z-set
// dataflow (zview) or by partial propagation from change data (pview).
// The engine keeps every view in one map and one creation order, and
// every path that lists, steps, reads, measures, explains, subscribes to,
// sinks or drops views goes through this interface.
//
// The contract:
//
//   - prepare computes the view's step for one transaction without
//     changing what the view holds; commit then applies it, abort drops
//     it. Each is called at most once after a prepare that stepped the
//     view, never otherwise. A prepare that fails has staged nothing that
//     abort does not drop.
//   - The Z-set delta prepare returns is consolidated and valid until the
//     view's next prepare; stepped is false when the view reads nothing the
//     transaction changed (its delta is then empty and nothing is staged).
//   - Figures (rowCount, state, operators) are of the committed state.
//   - Rows are immutable; the slices returned are the caller's.
type matView interface {
	meta() *viewMeta
	// relations are the names of the stored relations the view reads.
	relations() []string
	prepare(in *stepInput) (z zset.ZSet, stepped bool, err error)
	commit()
	abort()
	// rows returns the view's rows, each as many times as it occurs, in
	// the view's order; snapshot returns them with their multiplicities.
	rows() []value.Row
	snapshot() zset.ZSet
	rowCount() int64
	// state is all the state the view uses, each shared piece once;
	// account adds it to an engine-wide total that counts each piece once
	// however many views use it.
	state() dataflow.StateSize
	account(a *dataflow.Accounting)
	// operators returns each operator's figures, for deltaview_operators.
	operators() []opFigures
	refills() int64
	// trim lets go of the big batches a bulk step left behind.
	trim()
	// keyed returns the view's key, for a keyed target (a sink), or an
	// error saying why the view has none.
	keyed(e *Engine) (*delta.Schema, error)
	// explicit returns the explicit delta of the step staged, by key,
	// given its Z-set delta z and the key s returned by keyed.
	explicit(s *delta.Schema, z zset.ZSet) delta.Batch
	// explain returns EXPLAIN's lines for the live view.
	explain(e *Engine, format string) (Result, error)
}

var (
	_ matView = (*zview)(nil)
	_ matView = (*pview)(nil)
)

// viewMeta is what the engine keeps of every materialized view whatever
// maintains it: its definition, when and how fast it was built, its
// steps' timings and its memory budget.
type viewMeta struct {
	name      string
	cols      []plan.Column
	def       *sql.CreateView
	createdAt time.Time
	coldStart time.Duration
	coldRows  int64
	steps     int64
	// lastStep and totalSteps are the time of the last timed step and of
	// all timedSteps: one step in stepSample is timed.
	lastStep   time.Duration
	totalSteps time.Duration
	timedSteps int64
	maxMemory  int64 // WITH (max_memory = …); 0 for none
	refills    int64 // refills counted up to the last step
	overBudget bool  // the state exceeds maxMemory
	// prepareCost and commitCost are the view's times per input row in
	// parallel commits, by which they hand out their tasks (taskcost.go).
	prepareCost, commitCost taskCost
	// split lets the view's operators share a big step out among the
	// workers (parallel_split.go); nil when none can.
	split *viewSplit
	// indexes are the indexes CREATE INDEX made on the view
	// (matview_index.go), checked at prepare and kept at commit.
	indexes []*matIndex
}

func (m *viewMeta) meta() *viewMeta { return m }

// opFigures are one operator's figures: its kind, the state it holds and
// the changes it has seen and produced over committed steps.
type opFigures struct {
	kind    string
	state   dataflow.StateSize
	in, out int64
	refills int64
}

// stepInput is what a commit gives every view to prepare: the
// consolidated Z-set delta of each changed table (and of each view
// prepared before, in creation order), the change events of change-stream
// tables that keep no rows, as they came, and the commit's step number.
type stepInput struct {
	deltas map[string]zset.ZSet
	events map[string]delta.Batch
	step   uint64
	// changes bounds the rows of the tables' batches and events: the
	// transaction's changes (0: not known).
	changes int
	// one names the only batch of deltas, when it holds one and no
	// events (empty otherwise), and oneZ is that batch: a view of one
	// table compares names instead of looking its input up twice.
	one  string
	oneZ zset.ZSet
}

// addViewDelta adds a view's delta to the batches the views after it read:
// the batches are then more than one.
func (in *stepInput) addViewDelta(name string, z zset.ZSet) {
	in.deltas[name] = z
	in.one, in.oneZ = "", nil
}

// viewNames returns the views' names in creation order.
func (e *Engine) viewNames() []string {
	out := make([]string, len(e.order))
	for i, v := range e.order {
		out[i] = v.meta().name
	}
	return out
}

// addView registers a built view.
func (e *Engine) addView(v matView, deps []string) {
	e.views[v.meta().name] = v
	if zv, ok := v.(*zview); ok {
		zv.refillOps() // found here, under the write lock, for readers
	}
	e.order = append(e.order, v)
	e.read, e.waves = nil, nil
	e.deps[v.meta().name] = deps
}
