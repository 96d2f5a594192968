package engine

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// sharedIndexes keeps the arrangements of stored relations that joins of
// several views read: one index per relation, columns and key, staged and
// committed by the engine once per commit, whatever number of views read
// it. A view's join builds a private index during its cold start; then
// the first view to index a relation that way hands its index over, and
// later ones drop theirs for the shared one (same rows, same key).
type sharedIndexes struct {
	m map[string]*sharedIndex
}

type sharedIndex struct {
	rel    string
	cols   []int // the relation's columns the index holds; nil: all
	a      *dataflow.Arrangement
	views  []string
	staged bool
	batch  zset.ZSet // the narrowed batch staged, reused from step to step
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
		si, ok := s.m[sp.Key]
		if ok {
			if err := j.Share(sp.Side, si.a); err != nil {
				continue
			}
		} else {
			si = &sharedIndex{rel: sp.Relation, cols: sp.Columns, a: j.Disown(sp.Side)}
			s.m[sp.Key] = si
		}
		si.a.Retain()
		si.views = append(si.views, v.name)
	}
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
}

// stage stages each shared index whose relation changed with the change,
// narrowed to the index's columns, as the joins' inputs receive it.
func (s *sharedIndexes) stage(deltas map[string]zset.ZSet) error {
	for _, si := range s.m {
		d := deltas[si.rel]
		if len(d) == 0 {
			continue
		}
		if si.cols != nil {
			n := dataflow.ReuseBatch(si.batch)
			for _, e := range d {
				row := make(value.Row, len(si.cols))
				for j, c := range si.cols {
					row[j] = e.Row[c]
				}
				n = append(n, zset.Entry{Row: row, W: e.W})
			}
			d = zset.Consolidate(n)
			si.batch = d
		}
		if err := si.a.Stage(d); err != nil {
			s.abort()
			return err
		}
		si.staged = true
	}
	return nil
}

func (s *sharedIndexes) commit() {
	for _, si := range s.m {
		if si.staged {
			si.a.Commit()
			si.staged = false
		}
	}
}

func (s *sharedIndexes) abort() {
	for _, si := range s.m {
		if si.staged {
			si.a.Abort()
			si.staged = false
		}
	}
}
