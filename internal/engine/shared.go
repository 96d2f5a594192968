package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// sharedIndexes keeps the arrangements of stored relations that joins of
// several views read: one index per relation, columns and key, staged and
// committed by the engine once per commit, whatever number of views read
// it. A view's join builds a private index during its cold start; then
// the first view to index a relation that way hands its index over, and
// later ones drop theirs for the shared one (same rows, same key). It also
// keeps the indexes of tables, one per table and order, that top-ks and
// MIN/MAX refill from (reserve): those are built from the table before
// the first view that reads them, and are the table's in the memory
// figures (docs/reserves.md).
type sharedIndexes struct {
	m map[string]*sharedIndex
	// list holds the indexes of m in the order they were made: a commit
	// walks it, not the map, whose walk costs a random start and an
	// iterator per commit.
	list []*sharedIndex
}

// add registers a new index under key.
func (s *sharedIndexes) add(key string, si *sharedIndex) {
	si.key = key
	s.m[key] = si
	s.list = append(s.list, si)
}

type sharedIndex struct {
	key string // its key in sharedIndexes.m
	// reserve marks the index of a relation by some order that top-ks
	// refill from: its memory is the relation's, not the views'.
	reserve bool
	rel     string
	cols    []int // the relation's columns the index holds; nil: all
	// filters, of a reserve index: predicates over the relation's rows
	// that every view reading the index applies before anything else;
	// the index holds only the rows that pass them (or fail to evaluate
	// them), so that a change to a row outside every view's filter does
	// not descend into it.
	filters []expr.Expr
	keep    func(value.Row) bool // holds, for StageWhere; nil without filters
	a       *dataflow.Arrangement
	views   []string
	staged  bool
	batch   zset.ZSet // the narrowed batch staged, reused from step to step

	// fast holds each filter's test without evaluation, when it has one
	// (expr.ColConstOf): a change of the top-k's table meets it at
	// every commit.
	fast []fastFilter

	// stageCost and commitCost are the times per row of its staging and
	// commit in parallel commits (taskcost.go).
	stageCost, commitCost taskCost

	// early marks an index committed during the views' prepares of the
	// commit in progress, once every view reading it had prepared
	// (earlyIndexes); applied is what a worker staged, taken back if the
	// commit fails after it was committed.
	early   bool
	applied zset.ZSet
	// ahead, of a bounded reserve index, is the relation's change in the
	// commit in progress, which the table holds and the index does not
	// yet: an extension of the index takes it back (boundSource). An index
	// reading its rows through the table (through) takes it back too.
	ahead zset.ZSet

	// through marks a join's index of a table that keeps row ids and
	// reads the rows from the table (dataflow.Arrangement.ReadThrough);
	// old finds the rows as of its last commit during a step.
	through bool
	old     oldRows
}

// share hands v's shareable join indexes to the registry, or replaces
// them by the registry's. A join whose index does not match is left with
// its private one.
func (s *sharedIndexes) share(v *zview) {
	if s.m == nil {
		s.m = map[string]*sharedIndex{}
	}
	for _, sp := range v.c.Shareable {
		j, ok := v.c.Circuit.Node(sp.Node).(op.IndexSharer)
		if !ok {
			continue
		}
		if _, own := j.Index(sp.Side); !own {
			continue // adopted before the cold start (adopt)
		}
		si, ok := s.m[sp.Key]
		if ok {
			if err := j.Share(sp.Side, si.a); err != nil {
				continue
			}
		} else {
			si = &sharedIndex{rel: sp.Relation, cols: sp.Columns, a: j.Disown(sp.Side)}
			s.add(sp.Key, si)
		}
		si.a.Retain()
		si.views = append(si.views, v.name)
	}
}

// reserve hands each top-k, MIN and MAX of v that reads a table's rows
// the table's index by its partition (or group) and order, building it
// from the table's rows when no view has it yet: the index of the rows
// that pass the operator's filters, or of every row when another view
// built that one already. Done before v's cold
// start: the cold start only inserts, so no reserve drains during it, and
// its refills afterwards read the index as of the commit before.
//
// A new index over column references is built on another goroutine while
// the cold start runs (nothing reads it then but a refill, which waits
// for it); wait waits for those builds and returns their first error. The
// caller calls it before anything else reads the indexes. A new index
// for which later reports true is left empty: the caller fills it
// (builder.fillSeeded) before anything reads it.
func (s *sharedIndexes) reserve(e *Engine, v *zview, later func(sp compile.ReserveSpot, si *sharedIndex) bool) (wait func() error, err error) {
	if s.m == nil {
		s.m = map[string]*sharedIndex{}
	}
	var waits []func() error
	wait = func() error {
		var err error
		for _, w := range waits {
			if e := w(); err == nil {
				err = e
			}
		}
		waits = nil
		return err
	}
	for _, sp := range v.c.Reserves {
		u, ok := v.c.Circuit.Node(sp.Node).(op.IndexUser)
		if !ok {
			continue
		}
		// A top-k reads its index from the front only, so that the
		// index keeps only its first rows in order (Bound); a MIN or MAX
		// reads from either end, and has an index of its own, whole.
		topK := sp.Slot < 0
		key, unfiltered := sp.Key, sp.Unfiltered
		if !topK {
			key, unfiltered = "whole "+key, "whole "+unfiltered
		}
		si, ok := s.m[key]
		if !ok && len(sp.Filters) > 0 {
			si, ok = s.m[unfiltered]
		}
		if !ok {
			a := dataflow.NewArrangement(sp.Spec)
			a.Claim()
			// Read only by refills: its changes are merged into it many
			// batches at a time (dataflow.Arrangement.HoldCommits).
			a.HoldCommits()
			si = &sharedIndex{rel: sp.Relation, reserve: true, a: a, filters: sp.Filters}
			if len(si.filters) > 0 {
				si.keep = si.holds
				for _, f := range si.filters {
					var ff fastFilter
					ff.c, ff.ok = expr.ColConstOf(f)
					si.fast = append(si.fast, ff)
				}
			}
			if topK {
				// Only its first rows in order: refills read on
				// from the last kept row (dataflow.Arrangement.Bound).
				a.Bound(e.boundSource(si))
			}
			if later == nil || !later(sp, si) {
				w, err := e.fillIndex(si)
				if err != nil {
					return wait, err
				}
				waits = append(waits, w)
			}
			s.add(key, si)
		}
		if err := u.UseIndex(sp.Slot, si.a); err != nil {
			return wait, err
		}
		si.a.Retain()
		si.views = append(si.views, v.name)
	}
	return wait, nil
}

// indexable reports whether rel is a table whose indexes the engine can
// keep for the reserves of the views reading it: an ordinary table (a
// change-stream table may keep no rows, and its events do not reach the
// shared indexes as row changes).
func (e *Engine) indexable(rel string) bool {
	t, ok := e.tables[rel]
	return ok && !t.def.ChangeStream
}

// fillIndex starts building a reserve index from its table's rows that
// pass its filters, in one load (sorted, each run built at once), on
// another goroutine when it can (dataflow.LoadRowsAsync); wait waits for
// it. An index without filters reads the table's rows in place.
func (e *Engine) fillIndex(si *sharedIndex) (wait func() error, err error) {
	t, ok := e.tables[si.rel]
	if !ok {
		return nil, pgerr.New(pgerr.Internal, "no table %q to index", si.rel)
	}
	return si.a.LoadRowsAsync(si.tableRows(t)), nil
}

// tableRows returns the rows of t that the index holds: those that pass
// its filters, or without filters the table's own slice of rows (holes
// are nil).
func (si *sharedIndex) tableRows(t *table) []value.Row {
	if len(si.filters) == 0 {
		return t.rows.rows
	}
	rows := make([]value.Row, 0, t.rows.Len())
	t.scan(func(_ uint64, r value.Row) bool {
		if si.holds(r) {
			rows = append(rows, r)
		}
		return true
	})
	return rows
}

// boundSource returns where a bounded reserve index rebuilds its rows
// from: its table's rows as of the index's last commit, that is the rows
// now with the change of the commit in progress (ahead) taken back.
func (e *Engine) boundSource(si *sharedIndex) dataflow.BoundSource {
	return func() ([]value.Row, zset.ZSet, error) {
		t, ok := e.tables[si.rel]
		if !ok {
			return nil, nil, pgerr.New(pgerr.Internal, "no table %q to index", si.rel)
		}
		var undo zset.ZSet
		for _, x := range si.ahead {
			if si.holds(x.Row) {
				undo = append(undo, x)
			}
		}
		return si.tableRows(t), undo, nil
	}
}

// setAhead gives each reserve index the change of its relation that the
// commit in progress has written to the table (deltas), nil to clear it.
func (s *sharedIndexes) setAhead(deltas map[string]zset.ZSet) {
	for _, si := range s.list {
		if si.reserve || si.through {
			si.ahead = deltas[si.rel]
			if si.old.built {
				clear(si.old.m) // the rows of the last big change
				si.old.built = false
			}
		}
	}
}

// holds reports whether the index holds a row of its relation: whether
// the row passes its filters. A filter that fails to evaluate keeps the
// row: the views' refills re-apply the filters and meet the error there,
// where the view's own filter meets it too.
func (si *sharedIndex) holds(r value.Row) bool {
	for i, f := range si.filters {
		if ff := &si.fast[i]; ff.ok {
			if pass, ok := ff.c.Test(r); ok {
				if !pass {
					return false
				}
				continue
			}
		}
		v, err := f.Eval(r)
		if err == nil && !(v.Kind() == value.Bool && v.Bool()) {
			return false
		}
	}
	return true
}

// fastFilter is a reserve index's filter as an expr.ColConst, when ok.
type fastFilter struct {
	c  expr.ColConst
	ok bool
}

// reserveBytes returns the state of the relations' indexes that top-ks
// refill from, per relation.
func (s *sharedIndexes) reserveBytes() map[string]dataflow.StateSize {
	out := map[string]dataflow.StateSize{}
	for _, si := range s.m {
		if si.reserve {
			st := out[si.rel]
			si.addReserve(&st)
			out[si.rel] = st
		}
	}
	return out
}

// reserveTotal returns the state of every index top-ks and MIN/MAX refill
// from, which the engine-wide budget counts.
func (s *sharedIndexes) reserveTotal() dataflow.StateSize {
	var st dataflow.StateSize
	for _, si := range s.m {
		if si.reserve {
			si.addReserve(&st)
		}
	}
	return st
}

// addReserve adds the state of a reserve index to st: its rows are the
// relation's, so their bytes are not counted.
func (si *sharedIndex) addReserve(st *dataflow.StateSize) {
	sz := si.a.State()
	st.Rows += sz.Rows
	st.Bytes += sz.Bytes - si.a.RowBytes()
}

// release drops the uses of the shared indexes by the views in gone; an
// index no view uses is dropped. One pass for all of them: a cascade
// drops many views that share one index.
func (s *sharedIndexes) release(gone map[string]bool) {
	for k, si := range s.m {
		kept := si.views[:0]
		for _, v := range si.views {
			if !gone[v] {
				kept = append(kept, v)
			} else if si.a.Release() == 0 {
				delete(s.m, k)
			}
		}
		clear(si.views[len(kept):])
		si.views = kept
	}
	list := s.list[:0]
	for _, si := range s.list {
		if s.m[si.key] == si {
			list = append(list, si)
		}
	}
	clear(s.list[len(list):])
	s.list = list
}

// stage stages each shared index whose relation changed with the change,
// narrowed to the index's columns, as the joins' inputs receive it. An
// index committed early in this commit is left alone.
func (s *sharedIndexes) stage(deltas map[string]zset.ZSet) error {
	for _, si := range s.list {
		d := deltas[si.rel]
		if len(d) == 0 || si.early || si.staged {
			continue // done by a worker already
		}
		if _, err := si.stageChange(d); err != nil {
			s.abort()
			return err
		}
		si.staged = true
	}
	return nil
}

// stageChange stages the relation's change d in the index and returns
// what it staged, which abort takes back: a reserve index's filters are
// applied by the arrangement's Stage, in its one pass over the rows.
func (si *sharedIndex) stageChange(d zset.ZSet) (zset.ZSet, error) {
	if len(si.filters) > 0 {
		return d, si.a.StageWhere(d, si.keep)
	}
	d = si.narrow(d)
	return d, si.a.Stage(d)
}

// narrow returns the relation's change d as the index holds it: its rows
// narrowed to the index's columns, consolidated, in si.batch.
func (si *sharedIndex) narrow(d zset.ZSet) zset.ZSet {
	if si.cols == nil {
		return d
	}
	n := dataflow.ReuseBatch(si.batch)
	for _, e := range d {
		row := make(value.Row, len(si.cols))
		for j, c := range si.cols {
			row[j] = e.Row[c]
		}
		n = append(n, zset.Entry{Row: row, W: e.W})
	}
	si.batch = zset.Consolidate(n)
	return si.batch
}

// commitEarly commits the staged change ahead of the commit's end, where
// commit would: called once no view of the commit will read the index any
// more.
func (si *sharedIndex) commitEarly() {
	si.a.Commit()
	si.staged, si.early = false, true
}

func (s *sharedIndexes) commit() {
	for _, si := range s.list {
		if si.staged {
			si.a.Commit()
			si.staged = false
		}
		si.early, si.applied = false, nil
	}
}

// abort drops what the indexes staged, and takes back what they committed
// early: the same rows with their weights negated, which restores every
// weight.
func (s *sharedIndexes) abort() {
	for _, si := range s.list {
		if si.early {
			neg := make(zset.ZSet, len(si.applied))
			for i, e := range si.applied {
				neg[i] = zset.Entry{Row: e.Row, W: -e.W}
			}
			// The rows evaluated without error when absorbed.
			if si.a.StageWhere(neg, si.keep) == nil {
				si.a.Commit()
			}
		}
		if si.staged {
			si.a.Abort()
		}
		si.staged, si.early, si.applied = false, false, nil
	}
}

// adopt hands each inner join of v that reads a table's rows as they are
// on one side the registry's index of that table on the join's key
// (op.IndexAdopter), rather than letting the join build a private index
// from the rows its cold start feeds it, keep their batches aside and
// load them at the end, then hand the index over (share): the index that
// other views share already, or else the join's own, filled with the
// table's rows in one load (read in place) on another goroutine while the
// relations before the table are fed and its rows probe them
// (dataflow.LoadRowsAsync), and registered. It returns the waits for
// those loads, which the caller waits for before the build's end.
//
// Only where feed, the order in which the cold start feeds the
// relations, makes the join's pairs exact without reading that side
// during the build: every relation its other side reads is fed before the
// table, which the other side does not read, so that the other side has
// all its rows before the table's first reach the join.
func (s *sharedIndexes) adopt(e *Engine, v *zview, feed []string) (waits []func() error) {
	if s.m == nil {
		s.m = map[string]*sharedIndex{}
	}
	for _, sp := range v.c.Shareable {
		j, ok := v.c.Circuit.Node(sp.Node).(op.IndexAdopter)
		if !ok || sp.Columns != nil || !e.indexable(sp.Relation) || !fedAfter(v.c, sp, feed) {
			continue
		}
		si, ok := s.m[sp.Key]
		if ok {
			j.Adopt(sp.Side, si.a)
		} else {
			si = &sharedIndex{rel: sp.Relation, a: j.Adopt(sp.Side, nil)}
			e.readThrough(si)
			waits = append(waits, si.a.LoadRowsAsync(si.tableRows(e.tables[sp.Relation])))
			s.add(sp.Key, si)
		}
		si.a.Retain()
		si.views = append(si.views, v.name)
	}
	return waits
}

// fedAfter reports whether the relation of the join input sp is fed after
// every relation that the join's other input reads, and is not one of
// them (constants come with the first step).
func fedAfter(c *compile.Compiled, sp compile.ShareSpot, feed []string) bool {
	at := slices.Index(feed, sp.Relation)
	other, ok := c.Circuit.InputsOf(sp.Node, 1-sp.Side)
	if at < 0 || !ok {
		return false
	}
	for _, name := range other {
		if _, isConst := c.Consts[name]; isConst {
			continue
		}
		if i := slices.Index(feed, name); i < 0 || i >= at {
			return false
		}
	}
	return true
}
