package exec

import (
	"time"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Profile is a Source that counts, for each plan node Run evaluates over
// it, the rows it returned, the times it ran and, when Timing is set, the
// time it took with its inputs: what EXPLAIN ANALYZE reports. It reads
// through the Source it wraps, with the same access paths. The nodes
// under a recursive query's iterations run over their own source and are
// not counted one by one.
type Profile struct {
	Source
	Timing bool
	Nodes  map[plan.Node]*NodeProfile
}

// NodeProfile is one plan node's figures.
type NodeProfile struct {
	Rows, Loops int64
	Time        time.Duration
}

// filteredProfile is a Profile over a FilteredSource, which it is too.
type filteredProfile struct{ *Profile }

func (f filteredProfile) ScanFiltered(rel string, pred expr.Expr, fn func(value.Row) error) (bool, error) {
	return f.Source.(FilteredSource).ScanFiltered(rel, pred, fn)
}

// sizedProfile is a Profile over a Sizer, which it is too.
type sizedProfile struct{ *Profile }

func (s sizedProfile) RelationSize(rel string) (int, bool) { return sizeOf(s.Source, rel) }

type sizedFilteredProfile struct{ filteredProfile }

func (s sizedFilteredProfile) RelationSize(rel string) (int, bool) { return sizeOf(s.Source, rel) }

// NewProfile returns a Source that profiles the nodes Run evaluates over
// src into p, and offers the optional interfaces src offers.
func NewProfile(src Source, p *Profile) Source {
	p.Source = src
	if p.Nodes == nil {
		p.Nodes = map[plan.Node]*NodeProfile{}
	}
	_, filtered := src.(FilteredSource)
	sized := sizerUnder(src)
	switch {
	case filtered && sized:
		return sizedFilteredProfile{filteredProfile{p}}
	case filtered:
		return filteredProfile{p}
	case sized:
		return sizedProfile{p}
	}
	return p
}

// sizerUnder reports whether sizeOf finds a Sizer under src's wrappers.
func sizerUnder(src Source) bool {
	for {
		switch s := src.(type) {
		case Sizer:
			return true
		case *Budget:
			src = s.Source
		case *Returning:
			src = s.Source
		case *Targets:
			src = s.Source
		case *working:
			src = s.Source
		default:
			return false
		}
	}
}

// profiler is a profiling Source.
type profiler interface{ profile() *Profile }

func (p *Profile) profile() *Profile { return p }

// runProfiled runs p over src, counting it in prof.
func runProfiled(n plan.Node, src Source, prof *Profile) ([]value.Row, error) {
	np := prof.Nodes[n]
	if np == nil {
		np = &NodeProfile{}
		prof.Nodes[n] = np
	}
	var start time.Time
	if prof.Timing {
		start = time.Now()
	}
	rows, err := run(n, src)
	np.Loops++
	np.Rows += int64(len(rows))
	if prof.Timing {
		np.Time += time.Since(start)
	}
	return rows, err
}
