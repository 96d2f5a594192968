package op

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/intmap"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// GroupBy keeps, per group, the group's row count and one accumulator per
// aggregate: counts and exact sums for the invertible aggregates, the best k
// values for MIN and MAX, value → multiplicity for the DISTINCT and ordered
// ones; and, for a group whose rows print its key in several ways (1.5 and
// 1.50), a count per representation (aggregate_reprs.go). For each group a
// step touches it retracts the group's old output row and asserts its new
// one; a group left without rows disappears, except
// the single group of a global aggregate (no GROUP BY), which always has a
// row.
//
// Output rows are the group key's values followed by one value per
// aggregate, in the order given. HAVING is a Filter after it.
//
// A global aggregate holds its row before any input arrives (count 0, sum
// NULL, …): Initial returns it, and the view's initial contents must include
// it, since the first step that touches the group retracts it.
type GroupBy struct {
	keys    []expr.Expr
	keyCols []int // per key, its input column when it is a column reference, else MaxInt
	aggs    []aggSpec
	global  bool
	owned   []*dataflow.Arrangement // indexes this operator stages
	nsets   int                     // valueSets per group

	groups map[string]*group // by encoded key (value.AppendRowKey); a global aggregate's one group under ""
	// ints holds the groups whose key is one value of kind intKind
	// (value.IntOrdered) by that integer: no encoding, and a slot of 8
	// bytes where the map of encodings takes about 40. intKind is set by
	// the first such key; NULL and other kinds go to groups.
	ints    *intmap.Map[*group]
	intKind value.Kind
	// reprKeys says that keys may be equal but print differently; reprs
	// then holds the groups whose rows print their key in several ways.
	reprKeys bool
	reprs    map[*group][]reprCount
	bytes    int64 // state bytes: keys, output rows, accumulators

	// Scratch of the step, valid until Commit or Abort.
	arena []value.Value // per input entry: keys, then each aggregate's slot
	pres  []bool        // per input entry and aggregate: passes FILTER
	recs  []aggRec
	// intRecs says that every entry's key is one non-NULL integer of one
	// kind, so that aggRec.k orders the records alone.
	intRecs bool
	// arena and pres again, for sortRecs to copy them into in the order of
	// the records, and the next step to reuse.
	altArena []value.Value
	altPres  []bool
	groupPart
	out zset.ZSet

	// split shares a big step out among goroutines (aggregate_split.go);
	// parts are the scratch of the parts after the first.
	split dataflow.Split
	parts []*groupPart

	refills int64
}

// groupPart is the scratch of the groups a step stages: all of them, or
// one part of them when the step is split.
type groupPart struct {
	keyBuf []byte
	chs    []aggChange
	staged []stagedGroup
	setCh  []setChange // staged changes to the groups' valueSets
	ctx    stepCtx
	pout   zset.ZSet // a part's output after the first's
}

var (
	_ dataflow.Operator    = (*GroupBy)(nil)
	_ dataflow.BatchGainer = (*GroupBy)(nil)
)

// GainsFromBigSteps says that a grouping's change costs less in a bigger
// step: a group's changes of one step share one update of the group (its
// accumulators, its output's retraction and assertion).
func (g *GroupBy) GainsFromBigSteps() bool { return true }

// Aggregate is one aggregate of a GroupBy.
type Aggregate struct {
	// Func is the catalog's aggregate.
	Func plan.AggFunc
	// Arg is the argument; nil for count(*).
	Arg expr.Expr
	// Sep is string_agg's separator, evaluated per row: each value after
	// the first is preceded by its own row's separator (NULL adds nothing).
	Sep expr.Expr
	// X is x of the two-argument aggregates (corr(y, x), covar_*,
	// regr_*), evaluated per row after Arg, y.
	X expr.Expr
	// Direct is a hypothetical-set aggregate's row of direct arguments
	// (a row constructor), evaluated per row: it reads the input only
	// through the group key, so every row of a group gives the same.
	// OrderBy holds its WITHIN GROUP keys, one per field. For
	// percentile_cont and percentile_disc it is the fraction (double
	// precision or an array of them), constant per group as well, and
	// OrderBy holds the one key, Arg.
	Direct expr.Expr
	// Filter is the FILTER (WHERE …) predicate, nil for none: rows for
	// which it is not TRUE are left out of this aggregate.
	Filter expr.Expr
	// Distinct aggregates each distinct value (of Arg, with Sep and the
	// order keys for string_agg and array_agg) once.
	Distinct bool
	// OrderBy orders string_agg's and array_agg's elements. Elements that
	// tie (all of them, without ORDER BY) are ordered by value, then
	// separator: PostgreSQL leaves their order to the input's.
	OrderBy []dataflow.SortKey
	// User is a user-defined aggregate's fold (Func plan.AggUser), over
	// its elements kept and ordered as string_agg's are.
	User *plan.UserAgg
	// Index is MIN's and MAX's refill source for an argument that is not
	// integer-ordered (value.IntOrdered): an arrangement of the operator's
	// input keyed by the group key expressions and sorted by Arg
	// ascending. It may be shared; OwnIndex makes this operator its owner
	// (NewGroupBy claims it, and each step stages the input in it). An
	// integer-ordered argument needs none: each group keeps its values in
	// a valueSet, shared by the MIN and MAX of one argument and FILTER.
	Index    *dataflow.Arrangement
	OwnIndex bool
	// Base, when set on MIN or MAX, says that the input is a stored
	// relation's rows through Base.Stages and that Index arranges the
	// relation's own rows by the group key and the argument read through
	// them: the relation's index, which the engine keeps for every view
	// that needs it and hands over with UseIndex. The operator neither
	// owns nor counts it, and keeps no values beyond its reserves, whatever
	// the argument's type.
	Base *BaseRows
	// Reserve is MIN's and MAX's k, the values kept per group; 0 means
	// DefaultReserve.
	Reserve int
}

// DefaultReserve is the number of values MIN and MAX keep per group when
// none is given. Tests set it to 1 to make refills frequent.
var DefaultReserve = 8

// aggSpec is an Aggregate ready to run.
type aggSpec struct {
	Aggregate
	typ   value.Type // result type
	in    value.Kind // argument kind
	width int        // values per input entry: arg, sep, order keys
	slot  int        // offset of the slot within an entry's values
	make  func(*aggSpec) accum
	set   int // MIN/MAX of an integer-ordered argument: the group's valueSet it refills from; -1 otherwise
	// col is the input column that is the aggregate's one slot value (an
	// argument that is a column reference, no FILTER, separator, order
	// keys or direct argument), read without evaluating; MaxInt otherwise.
	col   int
	feeds bool // the first aggregate of its set, which stages the changes into it
}

// accum is one aggregate's state for one group. stage computes the
// aggregate after the group's changes of this step and stages them without
// changing the committed state; commit applies them, abort drops them. ch
// is scratch: stage may reorder it.
type accum interface {
	stage(c *stepCtx, ch []aggChange) (value.Value, error)
	commit()
	abort()
	bytes() int64
}

// aggChange is one input entry as one aggregate sees it: its slot values
// (argument, separator, order keys) and its weight.
type aggChange struct {
	vals []value.Value
	w    int64
}

// aggRec is one input entry: where its values start in the arena, and its
// weight.
type aggRec struct {
	off int // of the entry's values in arena
	pre int // of the entry's FILTER results in pres, one per aggregate
	w   int64
	k   uint64 // the first key value's value.Prefix64 when the key's first column is an integer (intKey), else 0
}

// stepCtx is what accumulators need during a step: the group, the
// operator's counters and scratch space.
type stepCtx struct {
	key  value.Row // the group's key
	spec *aggSpec
	d    [6]apd.Decimal

	exactPool []*exactSums // staged deltas of exact sums
	nExact    int
	sumPool   []*sumDelta // staged deltas of sums and averages
	nSum      int
	floatPool []*floatSums // staged deltas of float sums
	nFloat    int
	fl        floatScratch
	sets      []valueSet     // the group's value sets, to refill from
	scr       setScratch     // for value sets
	res       []reserveEntry // staged MIN/MAX reserves
	run       []reserveEntry // scratch: a MIN/MAX refill's run of equal values
	class     []msEntry      // scratch: a DISTINCT value's representations
	pend      []aggChange    // staged multiset changes
	inner     []aggChange    // scratch: changes passed to a DISTINCT's inner aggregate
	buf       []byte         // scratch: formatting
	refills   int64          // refills staged in this step
}

// pendingRefills returns the refills staged in this step and forgets them.
func (c *stepCtx) pendingRefills() int64 {
	n := c.refills
	c.refills = 0
	return n
}

// group is one group's state. Its key is its output row's first values,
// held once: a group without an output row is only ever staged (new, or
// about to go), and the step has its key.
type group struct {
	n   int64     // total weight of the group's rows
	out value.Row // the output row, the key's values first; nil when the group has none
	// The first of the operator's len(aggs) accumulators and of its nsets
	// value sets (MIN's and MAX's refill sources, one per integer-ordered
	// argument and FILTER), nil for none: 8 bytes each where slices take
	// 24, since the operator knows their lengths (accs, sets).
	acc *accum
	set *valueSet
}

// accs returns gr's accumulators.
func (g *GroupBy) accs(gr *group) []accum { return unsafe.Slice(gr.acc, len(g.aggs)) }

// sets returns gr's value sets.
func (g *GroupBy) sets(gr *group) []valueSet {
	if gr.set == nil {
		return nil
	}
	return unsafe.Slice(gr.set, g.nsets)
}

type stagedGroup struct {
	g      *group
	isNew  bool
	isInt  bool   // the group is in ints
	enc    string // a new group's key's encoding, its key in groups
	n      int64
	out    value.Row
	so, se int // the group's changes to its value sets: setCh[so:se]
	// reprs is the group's new counts per representation when setReprs
	// (nil: one representation).
	reprs    []reprCount
	setReprs bool
}

// setChange is a staged change to one of a group's value sets.
type setChange struct {
	set  int
	k, w int64
}

// NewGroupBy returns a grouping on keys (none: a global aggregate)
// computing aggs. It checks the argument types and returns a 42883 error for
// an aggregate that does not exist for its argument's type.
func NewGroupBy(keys []expr.Expr, aggs []Aggregate) (*GroupBy, error) {
	g := &GroupBy{
		keys:   keys,
		global: len(keys) == 0,
		groups: map[string]*group{},
		ints:   intmap.New[*group](),
	}
	var keyTypes []value.Type
	for _, k := range keys {
		g.keyCols = append(g.keyCols, column(k))
		keyTypes = append(keyTypes, k.Type())
	}
	g.reprKeys = hasReprs(keyTypes)
	slot := len(keys)
	sets := map[string]int{} // argument and FILTER → value set
	for _, a := range aggs {
		s := aggSpec{Aggregate: a, set: -1, col: math.MaxInt}
		if a.Filter == nil && a.Sep == nil && a.X == nil && len(a.OrderBy) == 0 && a.Direct == nil && a.Arg != nil {
			s.col = column(a.Arg)
		}
		argType := value.UnknownType
		if a.Func != plan.AggCountStar {
			if a.Arg == nil {
				return nil, pgerr.New(pgerr.UndefinedFunction, "function %s() does not exist", a.Func)
			}
			argType = a.Arg.Type()
			s.width = 1
		}
		if a.Func.Has(plan.AggTwoArgs) {
			if a.X == nil {
				return nil, pgerr.New(pgerr.Internal, "%s needs two arguments", a.Func)
			}
			s.width++
		}
		if a.Func == plan.AggStringAgg {
			if a.Sep == nil {
				return nil, pgerr.New(pgerr.UndefinedFunction, "function string_agg(%s) does not exist", argType)
			}
			s.width++
		}
		if a.Func.Has(plan.AggHypothetical) {
			if rc, ok := a.Direct.(*expr.RowCons); !ok || len(rc.Args) != len(a.OrderBy) {
				return nil, pgerr.New(pgerr.Internal, "%s WITHIN GROUP needs one direct argument per key", a.Func)
			}
			s.width++
		} else if a.Func == plan.AggPercentileCont || a.Func == plan.AggPercentileDisc {
			if a.Direct == nil || len(a.OrderBy) != 1 {
				return nil, pgerr.New(pgerr.Internal, "%s WITHIN GROUP needs a fraction and one key", a.Func)
			}
			s.width++
		} else if a.Direct != nil {
			return nil, pgerr.New(pgerr.Internal, "%s takes no direct argument", a.Func)
		}
		if a.Func == plan.AggMode && len(a.OrderBy) != 1 {
			return nil, pgerr.New(pgerr.Internal, "mode WITHIN GROUP needs one key")
		}
		if len(a.OrderBy) > 0 && a.Func != plan.AggStringAgg && a.Func != plan.AggArrayAgg && a.Func != plan.AggUser && !a.Func.Has(plan.AggOrderedSet) {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "ORDER BY in %s is not supported", a.Func)
		}
		s.width += len(a.OrderBy)
		t, err := a.Func.ResultType(argType)
		if a.User != nil {
			t, err = a.User.Result, nil
		}
		if err != nil && a.Func == plan.AggMin && argType.Kind == value.Record {
			// A decorrelated scalar subquery of a record type keeps its
			// one value by min, as records compare; SQL's min(record) is
			// refused when bound, as in PostgreSQL.
			t, err = argType, nil
		}
		if err != nil {
			return nil, err
		}
		if a.Direct != nil && !a.Func.Has(plan.AggHypothetical) && a.Direct.Type().Kind.IsArray() {
			t = value.ArrayType(t.Kind) // an array of fractions: an array of percentiles
		}
		s.typ, s.in, s.slot = t, argType.Kind, slot
		slot += s.width
		if a.Func == plan.AggMin || a.Func == plan.AggMax {
			if s.Reserve <= 0 {
				s.Reserve = DefaultReserve
			}
			if a.Base != nil {
				if a.Index == nil {
					return nil, pgerr.New(pgerr.Internal, "%s needs an index to refill from", a.Func)
				}
			} else if value.IntOrdered(argType.Kind) {
				if a.Index != nil {
					return nil, pgerr.New(pgerr.Internal, "%s of %s keeps its groups' values and takes no index", a.Func, argType)
				}
				// By position: a.v and b.v of a join print alike.
				k := expr.Key(a.Arg)
				if a.Filter != nil {
					k += " FILTER " + expr.Key(a.Filter)
				}
				set, ok := sets[k]
				if !ok {
					set, s.feeds = g.nsets, true
					sets[k] = set
					g.nsets++
				}
				s.set = set
			} else if a.Index == nil {
				return nil, pgerr.New(pgerr.Internal, "%s needs an index to refill from", a.Func)
			} else if a.OwnIndex {
				a.Index.Claim()
				g.owned = append(g.owned, a.Index)
			}
		}
		s.make = accumMaker(&s)
		g.aggs = append(g.aggs, s)
	}
	if g.global {
		// The global group exists from the start, with the aggregates of
		// no rows.
		gr := g.newGroup()
		row := make(value.Row, len(g.aggs))
		for i := range g.aggs {
			g.ctx.key, g.ctx.spec = nil, &g.aggs[i]
			v, err := g.accs(gr)[i].stage(&g.ctx, nil)
			if err != nil {
				return nil, err
			}
			g.accs(gr)[i].commit()
			row[i] = v
			g.bytes += g.accs(gr)[i].bytes()
		}
		g.clearStep()
		gr.out = row
		g.groups[""] = gr
		g.bytes += dataflow.RowBytes(row) + g.groupOverhead() + mapSlot
	}
	return g, nil
}

// column returns the input column e reads when it is a column reference,
// else math.MaxInt: evalBatch reads such a column from the row, with no
// call.
func column(e expr.Expr) int {
	if c, ok := e.(*expr.Col); ok && c.Idx >= 0 {
		return c.Idx
	}
	return math.MaxInt
}

// accumMaker picks the accumulator of an aggregate.
func accumMaker(s *aggSpec) func(*aggSpec) accum {
	var inner func(*aggSpec) accum
	switch s.Func {
	case plan.AggCountStar, plan.AggCount:
		inner = newCountAcc
	case plan.AggBoolAnd, plan.AggBoolOr:
		inner = newBoolAcc
	case plan.AggSum, plan.AggAvg, plan.AggVarPop, plan.AggVarSamp, plan.AggStddevPop, plan.AggStddevSamp:
		if s.in.IsFloat() {
			inner = newFloatAcc
		} else if s.in == value.Interval {
			inner = newIntervalAcc
		} else if s.Func == plan.AggSum || s.Func == plan.AggAvg {
			inner = newSumAcc
		} else {
			inner = newExactAcc
		}
	case plan.AggMin, plan.AggMax:
		return newMinMaxAcc // DISTINCT does not change them
	case plan.AggStringAgg, plan.AggArrayAgg, plan.AggUser:
		return newOrderedAcc
	case plan.AggBitAnd, plan.AggBitOr, plan.AggBitXor:
		inner = newBitsAcc
	case plan.AggHypoRank, plan.AggHypoDenseRank, plan.AggHypoPercentRank, plan.AggHypoCumeDist:
		return newHypoAcc
	case plan.AggPercentileCont, plan.AggPercentileDisc:
		return newPercentileAcc
	case plan.AggMode:
		return newModeAcc
	}
	if s.Func.Has(plan.AggTwoArgs) {
		if s.Distinct {
			// A count per distinct pair (y, x), the sums fed each pair once.
			return func(s *aggSpec) accum { return newDistinctAcc(newRegrAcc(s), true) }
		}
		return newRegrAcc
	}
	if s.Distinct && s.Func != plan.AggCountStar {
		return func(s *aggSpec) accum { return newDistinctAcc(inner(s), value.HasReprs(s.in)) }
	}
	return inner
}

func (g *GroupBy) newGroup() *group {
	gr := &group{}
	if len(g.aggs) > 0 {
		acc := make([]accum, len(g.aggs))
		for i := range g.aggs {
			acc[i] = g.aggs[i].make(&g.aggs[i])
		}
		gr.acc = &acc[0]
	}
	if g.nsets > 0 {
		gr.set = &make([]valueSet, g.nsets)[0]
	}
	return gr
}

// UseIndex makes the MIN or MAX aggs[slot] over a stored relation refill
// from a, the relation's shared index by the group key and the argument.
func (g *GroupBy) UseIndex(slot int, a *dataflow.Arrangement) error {
	if slot < 0 || slot >= len(g.aggs) || g.aggs[slot].Base == nil {
		return pgerr.New(pgerr.Internal, "aggregate %d does not read a shared index", slot)
	}
	g.aggs[slot].Index = a
	return nil
}

// Initial returns the output the operator holds before any step: the row
// of a global aggregate over no rows, or nothing.
func (g *GroupBy) Initial() zset.ZSet {
	if !g.global {
		return nil
	}
	return zset.ZSet{{Row: g.groups[""].out, W: 1}}
}

// Refills returns how many times a MIN or MAX reserve was refilled from
// its index (in committed steps) since the operator was made.
func (g *GroupBy) Refills() int64 { return g.refills }

// Step groups the input's entries by key and stages each touched group's
// new accumulators, emitting the group's old row (-1) and new row (+1)
// where they differ.
func (g *GroupBy) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(g.out)
	g.out = nil
	out, err := g.step(in[0], out)
	if err != nil {
		g.Abort()
		clear(out)
		g.out = out[:0]
		return nil, err
	}
	out = zset.Consolidate(out)
	g.out = out
	return out, nil
}

func (g *GroupBy) step(batch zset.ZSet, out zset.ZSet) (zset.ZSet, error) {
	for _, a := range g.owned {
		if err := a.Stage(batch); err != nil {
			return out, err
		}
	}
	ways := g.ways(len(batch))
	if err := g.evalBatch(batch, ways); err != nil {
		return out, err
	}
	if !g.global && !(g.countsOnly() && g.collapseRecs()) {
		g.sortRecs(len(g.keys))
	}
	if ways > 1 {
		return g.stageParts(out, ways)
	}
	return g.stageRange(&g.groupPart, 0, len(g.recs), out)
}

// stageRange stages the groups of recs[lo:hi], whole groups, in part p.
func (g *GroupBy) stageRange(p *groupPart, lo, hi int, out zset.ZSet) (zset.ZSet, error) {
	nk := len(g.keys)
	for i := lo; i < hi; {
		key := g.arena[g.recs[i].off : g.recs[i].off+nk]
		j := i + 1
		for j < hi && (g.global || sameGroupKey(g.arena[g.recs[j].off:g.recs[j].off+nk], key)) {
			j++
		}
		var err error
		if out, err = g.stageGroup(p, key, i, j, out); err != nil {
			return out, err
		}
		i = j
	}
	return out, nil
}

// sortRecs orders the step's records by group key: by radix on the first
// key value's prefix, comparing keys only where prefixes tie and do not
// decide, and a small batch by comparison.
func (g *GroupBy) sortRecs(nk int) {
	recs, arena := g.recs, g.arena
	cmpKeys := func(a, b aggRec) int {
		return value.CompareRows(arena[a.off:a.off+nk], arena[b.off:b.off+nk])
	}
	if len(recs) < prefixSortMin {
		slices.SortFunc(recs, cmpKeys)
		return
	}
	ps := aggSorts.Get().(*recSort[aggRec])
	defer aggSorts.Put(ps)
	if g.intRecs {
		ps.tmp = radixRecs(recs, ps.tmp)
	} else {
		perm := ps.s.Sort(len(recs), nk == 1,
			func(i int) (uint8, uint64, bool) { return value.Prefix(arena[recs[i].off]) },
			func(i, j int) int { return cmpKeys(recs[i], recs[j]) })
		tmp := append(ps.tmp[:0], recs...)
		for j, i := range perm {
			recs[j] = tmp[i]
		}
		ps.tmp = tmp
	}
	clear(ps.tmp)
	ps.tmp = ps.tmp[:0]
	g.gatherArena()
}

// gatherArena copies the arena's and pres's entries into the order of the
// sorted records, so that the passes over each group's records (one per
// aggregate, and the aggregates' own) read them in order rather than
// scattered over a big batch's megabytes.
func (g *GroupBy) gatherArena() {
	width, na := len(g.arena)/len(g.recs), len(g.aggs)
	arena := slices.Grow(g.altArena[:0], len(g.arena))[:len(g.arena)]
	pres := slices.Grow(g.altPres[:0], len(g.pres))[:len(g.pres)]
	for j := range g.recs {
		r := &g.recs[j]
		copy(arena[j*width:(j+1)*width], g.arena[r.off:r.off+width])
		copy(pres[j*na:(j+1)*na], g.pres[r.pre:r.pre+na])
		r.off, r.pre = j*width, j*na
	}
	clear(g.arena)
	g.arena, g.altArena = arena, g.arena[:0]
	g.pres, g.altPres = pres, g.pres[:0]
}

// radixRecs sorts recs by k, stably, a byte at a time over the bytes in
// which their ks differ (two for keys below 65,536), using buf as scratch;
// it returns the scratch.
func radixRecs(recs, buf []aggRec) []aggRec {
	and, or := ^uint64(0), uint64(0)
	for _, r := range recs {
		and &= r.k
		or |= r.k
	}
	buf = slices.Grow(buf[:0], len(recs))[:len(recs)]
	src, dst := recs, buf
	for shift := 0; shift < 64; shift += 8 {
		if byte((and^or)>>shift) == 0 {
			continue // every key has the same byte here
		}
		var count [256]int
		for _, r := range src {
			count[byte(r.k>>shift)]++
		}
		pos := 0
		for b, c := range count {
			count[b] = pos
			pos += c
		}
		for _, r := range src {
			b := byte(r.k >> shift)
			dst[count[b]] = r
			count[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &recs[0] {
		copy(recs, src)
	}
	return buf
}

// recSort holds an operator's buffers for sorting a step's records by
// prefix. They come from a pool, not the operator: an operator keeping
// them would hold, between steps, scratch of the size of its biggest
// step, which State does not count; the pool gives them back to the
// collector.
type recSort[T any] struct {
	s   zset.PrefixSorter
	tmp []T
}

var (
	aggSorts = sync.Pool{New: func() any { return new(recSort[aggRec]) }}
	tkSorts  = sync.Pool{New: func() any { return new(recSort[tkRec]) }}
)

// prefixSortMin is the batch from which records are sorted by prefix.
const prefixSortMin = 64

// evalBatch evaluates the keys, filters and arguments of every input entry
// into the arena, in ways parts of the batch at once (the entries' values
// have fixed places: an entry's width of values, one FILTER result per
// aggregate). The error is the first entry's in the batch's order, as one
// pass over it would meet.
func (g *GroupBy) evalBatch(batch zset.ZSet, ways int) error {
	// A big batch (a cold start's) gets its buffers at their final size
	// at once: clearStep drops big ones, and growing them by appends
	// copied each several times.
	width := len(g.keys)
	for i := range g.aggs {
		width += g.aggs[i].width
	}
	n := len(batch)
	if cap(g.arena) < n*width {
		g.arena = make([]value.Value, 0, n*width)
	}
	if cap(g.pres) < n*len(g.aggs) {
		g.pres = make([]bool, 0, n*len(g.aggs))
	}
	if cap(g.recs) < n {
		g.recs = make([]aggRec, 0, n)
	}
	g.arena, g.pres, g.recs = g.arena[:n*width], g.pres[:n*len(g.aggs)], g.recs[:n]
	var run intRun
	var err error
	if ways > 1 {
		run, err = g.evalParts(batch, ways, width)
	} else {
		run, err = g.evalRange(batch, 0, n, width)
	}
	g.intRecs = len(g.keys) == 1 && value.KeyIsInt(g.keys[0].Type().Kind) && !run.mixed
	return err
}

// intRun says of a range of entries whose first key is of an integer type
// whether their keys are of one kind and not NULL, so that the ks of
// their records (value.Prefix64) order them alone.
type intRun struct {
	kind  value.Kind // the first non-NULL key's, Unknown before it
	mixed bool       // a NULL key, or keys of two kinds
}

// join returns the run of two ranges' entries.
func (r intRun) join(o intRun) intRun {
	switch {
	case r.kind == value.Unknown:
		r.kind = o.kind
	case o.kind != value.Unknown && o.kind != r.kind:
		r.mixed = true
	}
	r.mixed = r.mixed || o.mixed
	return r
}

// evalRange evaluates the entries batch[lo:hi], each into its width of
// values of the arena.
func (g *GroupBy) evalRange(batch zset.ZSet, lo, hi, width int) (run intRun, err error) {
	na := len(g.aggs)
	// Appends within the entries' places: their capacity is exactly theirs.
	arena := g.arena[lo*width : lo*width : hi*width]
	pres := g.pres[lo*na : lo*na : hi*na]
	intKey := len(g.keys) > 0 && value.KeyIsInt(g.keys[0].Type().Kind)
	for i := lo; i < hi; i++ {
		e := batch[i]
		dataflow.TouchRows(batch, i)
		start := len(arena)
		for ki, k := range g.keys {
			if c := g.keyCols[ki]; c < len(e.Row) {
				arena = append(arena, e.Row[c])
				continue
			}
			v, err := k.Eval(e.Row)
			if err != nil {
				return run, err
			}
			arena = append(arena, v)
		}
		for ai := range g.aggs {
			a := &g.aggs[ai]
			if a.col < len(e.Row) {
				pres = append(pres, true)
				arena = append(arena, e.Row[a.col])
				continue
			}
			ok := true
			if a.Filter != nil {
				v, err := a.Filter.Eval(e.Row)
				if err != nil {
					return run, err
				}
				ok = isTrue(v)
			}
			pres = append(pres, ok)
			if !ok {
				for range a.width {
					arena = append(arena, value.Null)
				}
				continue
			}
			if err := a.evalSlot(e.Row, &arena); err != nil {
				return run, err
			}
		}
		r := aggRec{off: lo*width + start, pre: i * na, w: e.W}
		if intKey {
			if v := arena[start]; v.IsNull() {
				run.mixed = true
			} else {
				r.k = value.Prefix64(v)
				if run.kind == value.Unknown {
					run.kind = v.Kind()
				}
				run.mixed = run.mixed || v.Kind() != run.kind
			}
		}
		g.recs[i] = r
	}
	if len(arena) != (hi-lo)*width {
		return run, pgerr.New(pgerr.Internal, "aggregate: an entry's values do not fill its width")
	}
	return run, nil
}

// evalSlot appends the aggregate's values for one input row.
func (a *aggSpec) evalSlot(row value.Row, dst *[]value.Value) error {
	if a.Arg != nil {
		v, err := a.Arg.Eval(row)
		if err != nil {
			return err
		}
		*dst = append(*dst, v)
	}
	if a.X != nil {
		v, err := a.X.Eval(row)
		if err != nil {
			return err
		}
		*dst = append(*dst, v)
	}
	if a.Sep != nil {
		v, err := a.Sep.Eval(row)
		if err != nil {
			return err
		}
		*dst = append(*dst, v)
	}
	for _, k := range a.OrderBy {
		v, err := k.Expr.Eval(row)
		if err != nil {
			return err
		}
		*dst = append(*dst, v)
	}
	if a.Direct != nil {
		v, err := a.Direct.Eval(row)
		if err != nil {
			return err
		}
		*dst = append(*dst, v)
	}
	return nil
}

// stageGroup stages the changes recs[i:j] of one group in part p.
func (g *GroupBy) stageGroup(p *groupPart, key value.Row, i, j int, out zset.ZSet) (zset.ZSet, error) {
	var dn int64
	for _, r := range g.recs[i:j] {
		dn += r.w
	}
	var gr *group
	var found, isInt bool
	if isInt = g.intKey(key); isInt {
		gr, found = g.ints.Get(key[0].Int())
	} else {
		p.keyBuf = value.AppendRowKey(p.keyBuf[:0], key)
		gr, found = g.groups[string(p.keyBuf)]
	}
	isNew := !found
	var enc string
	if isNew {
		gr = g.newGroup()
		if !isInt {
			enc = string(p.keyBuf)
		}
	}
	n := gr.n + dn
	if n < 0 {
		return out, pgerr.New(pgerr.Internal, "aggregate: group %s would hold %d rows", zset.FormatRow(key), n)
	}
	// Stage before the accumulators so that Abort finds them.
	p.staged = append(p.staged, stagedGroup{g: gr, isNew: isNew, isInt: isInt, enc: enc, n: n, so: len(p.setCh)})
	if g.reprKeys {
		key = g.stageReprs(&p.staged[len(p.staged)-1], gr, found, key, i, j)
	}
	var row value.Row
	if n > 0 || g.global {
		row = make(value.Row, len(key)+len(g.aggs))
		copy(row, key)
	}
	for a := range g.aggs {
		spec := &g.aggs[a]
		p.chs = clearUsed(p.chs)
		for _, r := range g.recs[i:j] {
			// recs are sorted by key, pres in input order.
			if g.pres[r.pre+a] {
				p.chs = append(p.chs, aggChange{vals: g.arena[r.off+spec.slot : r.off+spec.slot+spec.width], w: r.w})
			}
		}
		if spec.feeds {
			// Before stage, which may reorder p.chs.
			for _, ch := range p.chs {
				if v := ch.vals[0]; !v.IsNull() {
					p.setCh = append(p.setCh, setChange{set: spec.set, k: v.Int(), w: ch.w})
				}
			}
		}
		p.ctx.key, p.ctx.spec, p.ctx.sets = key, spec, g.sets(gr)
		v, err := g.accs(gr)[a].stage(&p.ctx, p.chs)
		if err != nil {
			return out, err
		}
		if row != nil {
			row[len(key)+a] = v
		}
	}
	sg := &p.staged[len(p.staged)-1]
	sg.se = len(p.setCh)
	if identicalRows(gr.out, row) {
		sg.out = gr.out
		return out, nil
	}
	sg.out = row
	if gr.out != nil {
		out = append(out, zset.Entry{Row: gr.out, W: -1})
	}
	if row != nil {
		out = append(out, zset.Entry{Row: row, W: 1})
	}
	return out, nil
}

// identicalRows reports whether two rows print the same: equal values of
// the same kind and representation (value.CompareRepr).
func identicalRows(a, b value.Row) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if !identical(a[i], b[i]) {
			return false
		}
	}
	return true
}

func identical(a, b value.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case value.Text, value.Varchar, value.Char, value.CIText:
		return a.Str() == b.Str()
	}
	return value.Compare(a, b) == 0 && value.CompareRepr(a, b) == 0
}

// Commit applies the staged groups.
func (g *GroupBy) Commit() {
	for _, a := range g.owned {
		a.Commit()
	}
	g.commitPart(&g.groupPart)
	for _, p := range g.parts {
		g.commitPart(p)
		g.refills += p.ctx.pendingRefills()
	}
	g.refills += g.ctx.pendingRefills()
	g.clearStep()
}

// commitPart applies the groups part p staged.
func (g *GroupBy) commitPart(p *groupPart) {
	for i := range p.staged {
		s := &p.staged[i]
		gr := s.g
		var before, after int64
		for _, a := range g.accs(gr) {
			before += a.bytes()
			a.commit()
			after += a.bytes()
		}
		sets := g.sets(gr)
		for i := range sets {
			before += sets[i].bytes()
		}
		for _, c := range p.setCh[s.so:s.se] {
			sets[c.set].add(c.k, c.w, &g.ctx.scr)
		}
		for i := range sets {
			after += sets[i].bytes()
		}
		if gr.out != nil && !sameSlice(gr.out, s.out) {
			g.bytes -= dataflow.RowBytes(gr.out)
		}
		if s.out != nil && !sameSlice(gr.out, s.out) {
			g.bytes += dataflow.RowBytes(s.out)
		}
		if s.setReprs {
			g.commitReprs(gr, s.reprs)
		}
		old := gr.out
		gr.n, gr.out = s.n, s.out
		switch {
		case s.isNew && s.isInt && s.n > 0:
			g.ints.Set(s.out[0].Int(), gr)
			g.bytes += g.groupOverhead() + after
		case s.isNew && (s.n > 0 || g.global):
			g.groups[s.enc] = gr
			g.bytes += g.groupOverhead() + mapSlot + dataflow.AllocBytes(len(s.enc)) + after
		case s.isNew:
		case s.n == 0 && !g.global && s.isInt:
			g.ints.Delete(old[0].Int(), gr)
			g.bytes -= g.groupOverhead() + before
		case s.n == 0 && !g.global:
			g.keyBuf = value.AppendRowKey(g.keyBuf[:0], old[:len(g.keys)])
			delete(g.groups, string(g.keyBuf))
			g.bytes -= g.groupOverhead() + mapSlot + dataflow.AllocBytes(len(g.keyBuf)) + before
		default:
			g.bytes += after - before
		}
	}
}

func sameSlice(a, b value.Row) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Abort drops the staged groups.
func (g *GroupBy) Abort() {
	for _, a := range g.owned {
		a.Abort()
	}
	for _, p := range g.allParts() {
		for i := range p.staged {
			for _, a := range g.accs(p.staged[i].g) {
				a.abort()
			}
		}
		p.ctx.pendingRefills()
	}
	g.clearStep()
}

// allParts returns the step's parts: the first, and those of a split.
func (g *GroupBy) allParts() []*groupPart {
	return append([]*groupPart{&g.groupPart}, g.parts...)
}

// clearStep empties the step's scratch for reuse. An entry left past a
// buffer's length would keep the values it points to (an aggChange the
// whole arena it slices) reachable for as long as the view lives, unseen
// by State; clearing each buffer to its length is enough because every
// one holds only zeros past its length at each step's start: within a
// step a buffer grows by appends, shrinks by slices.Delete (which zeroes
// what it drops), and is emptied for the next group only through
// clearUsed, never by reslicing alone. A single change no longer zeroes
// the capacity a big step left (up to 4,096 entries a buffer).
func (g *GroupBy) clearStep() {
	if cap(g.arena) > 8*maxReused {
		g.arena, g.pres, g.recs, g.altArena, g.altPres = nil, nil, nil, nil, nil
	} else {
		g.arena = clearAll(g.arena)
	}
	g.groupPart.clear()
	for _, p := range g.parts {
		p.clear()
	}
}

// clear empties a part's scratch for reuse (see clearStep).
func (p *groupPart) clear() {
	p.staged = clearAll(p.staged)
	p.setCh = p.setCh[:0]
	p.chs = clearAll(p.chs)
	p.pout = clearAll(p.pout)
	c := &p.ctx
	c.key, c.spec, c.sets = nil, nil, nil
	c.nExact, c.nFloat, c.nSum = 0, 0, 0
	c.res = clearAll(c.res)
	c.pend = clearAll(c.pend)
	c.inner = clearAll(c.inner)
}

// clearAll zeroes s up to its length and returns it empty (past its
// length it holds zeros: see clearStep). A buffer much bigger than this
// step used (grown by a cold start or a big batch) is dropped instead, so
// that it does not stay at that size for the view's life.
func clearAll[T any](s []T) []T {
	if cap(s) > 4096 && cap(s) > 4*len(s) {
		return nil
	}
	clear(s)
	return s[:0]
}

// clearUsed empties a buffer within a step, zeroing what it held, so that
// it keeps only zeros past its length.
func clearUsed[T any](s []T) []T {
	clear(s)
	return s[:0]
}

// maxReused bounds the scratch kept between steps: enough for the entries
// of a transaction of 10,000 changes.
const maxReused = 1 << 15

// groupOverhead is a group's fixed cost besides its output row (which
// holds the key) and its place in a map: the struct, its accumulators'
// interface values and its value sets.
func (g *GroupBy) groupOverhead() int64 {
	return int64(unsafe.Sizeof(group{})) + int64(len(g.aggs))*16 + int64(g.nsets)*int64(unsafe.Sizeof(valueSet{}))
}

// mapSlot is a group's slot in the map of encodings (a string and a
// pointer, at the swiss map's 7/8 load with half again of slack for its
// doubling); its key's encoding is counted apart. The map by integer is
// counted whole (intmap.Map.Bytes).
const mapSlot = (16 + 8 + 1) * 8 / 7 * 3 / 2

// intKey reports whether key goes to the map by integer, setting intKind
// at the first key that can.
func (g *GroupBy) intKey(key value.Row) bool {
	if len(key) != 1 || !value.IntOrdered(key[0].Kind()) {
		return false
	}
	if g.intKind == value.Unknown {
		g.intKind = key[0].Kind()
	}
	return key[0].Kind() == g.intKind
}

// Info describes the grouping: its keys, aggregates, state and cost.
func (g *GroupBy) Info() dataflow.Info {
	var d strings.Builder
	if !g.global {
		d.WriteString("group=[")
		for i, k := range g.keys {
			if i > 0 {
				d.WriteString(", ")
			}
			d.WriteString(k.String())
		}
		d.WriteString("] ")
	}
	var states, costs []string
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	add(&states, "count")
	for i := range g.aggs {
		a := &g.aggs[i]
		if i > 0 {
			d.WriteString(", ")
		}
		d.WriteString(a.describe())
		st, c := a.stateCost()
		add(&states, st)
		add(&costs, c)
	}
	if len(costs) == 0 {
		costs = []string{"O(change)"}
	}
	return dataflow.Info{
		Kind:   "GroupBy",
		Detail: d.String(),
		State:  "per group: " + strings.Join(states, "; "),
		Cost:   strings.Join(costs, " + "),
	}
}

func (a *aggSpec) describe() string {
	var b strings.Builder
	if a.User != nil {
		name, _, _ := strings.Cut(a.User.Sig, "(")
		b.WriteString(name)
	} else {
		b.WriteString(a.Func.String())
	}
	b.WriteByte('(')
	if a.Func.Has(plan.AggOrderedSet) {
		if rc, ok := a.Direct.(*expr.RowCons); ok {
			for i, d := range rc.Args {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(d.String())
			}
		} else if a.Direct != nil {
			b.WriteString(a.Direct.String())
		}
		b.WriteString(") WITHIN GROUP (ORDER BY ")
		b.WriteString(formatSortKeys(a.OrderBy))
		b.WriteByte(')')
		if a.Filter != nil {
			b.WriteString(" FILTER (WHERE ")
			b.WriteString(a.Filter.String())
			b.WriteByte(')')
		}
		return b.String()
	}
	if a.Distinct {
		b.WriteString("DISTINCT ")
	}
	if a.Arg == nil {
		b.WriteByte('*')
	} else {
		b.WriteString(a.Arg.String())
	}
	if a.X != nil {
		b.WriteString(", ")
		b.WriteString(a.X.String())
	}
	if a.Sep != nil {
		b.WriteString(", ")
		b.WriteString(a.Sep.String())
	}
	if len(a.OrderBy) > 0 {
		b.WriteString(" ORDER BY ")
		b.WriteString(formatSortKeys(a.OrderBy))
	}
	b.WriteByte(')')
	if a.Filter != nil {
		b.WriteString(" FILTER (WHERE ")
		b.WriteString(a.Filter.String())
		b.WriteByte(')')
	}
	return b.String()
}

// stateCost says in words what the aggregate keeps per group and what a
// change costs.
func (a *aggSpec) stateCost() (state, cost string) {
	switch {
	case (a.Func == plan.AggMin || a.Func == plan.AggMax) && a.Base != nil:
		state = fmt.Sprintf("best %d values of %s; refills from the shared index of %s on (group, %s), held by the table", a.Reserve, a.Arg, a.Base.Relation, a.Arg)
		if a.Base.filters() {
			state += ", re-applying its filter"
		}
		return state, "O(log k) + refill"
	case (a.Func == plan.AggMin || a.Func == plan.AggMax) && a.set >= 0:
		return fmt.Sprintf("best %d values of %s; refills from the group's ordered values of %s", a.Reserve, a.Arg, a.Arg),
			"O(log k) + O(1) amortized to keep the group's values (O(log group) beyond 4096) + refill"
	case a.Func == plan.AggMin || a.Func == plan.AggMax:
		return fmt.Sprintf("best %d values of %s; refills from index on (group, %s)", a.Reserve, a.Arg, a.Arg),
			"O(log k) + refill"
	case a.Func == plan.AggHypoDenseRank:
		return "count of rows before the direct arguments' row, and its distinct sort keys before it → multiplicity", "O(log n)"
	case a.Func.Has(plan.AggHypothetical):
		return "count of rows before, and peers of, the direct arguments' row", "O(change)"
	case a.Func == plan.AggPercentileCont || a.Func == plan.AggPercentileDisc:
		return "every non-NULL value in order, counted by position (O(input))", "O(log n)"
	case a.Func == plan.AggMode:
		return "value → multiplicity, and the values ordered by multiplicity", "O(log n)"
	case a.Func == plan.AggUser:
		return "ordered arguments → multiplicity (O(input))", "O(log n) + O(group) calls of the transition function to fold the group again"
	case a.Func == plan.AggStringAgg || a.Func == plan.AggArrayAgg:
		return "ordered value → multiplicity (O(input))", "O(log n) + O(group) to build the result"
	case a.Distinct && a.Func.Has(plan.AggTwoArgs):
		return "pair (y, x) → multiplicity (O(input)), and the sums of the distinct pairs", "O(log n)"
	case a.Distinct && a.Func != plan.AggCountStar:
		return "value → multiplicity (O(input))", "O(log n)"
	case a.Func == plan.AggCountStar || a.Func == plan.AggCount:
		return "count", "O(change)"
	case a.Func == plan.AggBoolAnd || a.Func == plan.AggBoolOr:
		return "count of true, false", "O(change)"
	case a.Func == plan.AggBitAnd || a.Func == plan.AggBitOr || a.Func == plan.AggBitXor:
		return "count of values, and of values with each bit set", "O(change × bits of the type)"
	case a.Func == plan.AggSum || a.Func == plan.AggAvg:
		return "sum", "O(change)"
	}
	return "sum, sum of squares", "O(change)"
}

// State reports the groups held and their bytes, accumulators and value
// sets included. The arrangements MIN and MAX refill from are reported by
// themselves.
func (g *GroupBy) State() dataflow.StateSize {
	return dataflow.StateSize{Rows: int64(len(g.groups) + g.ints.Len()), Bytes: g.bytes + g.ints.Bytes(8)}
}

// String prints each group's output row and row count, in key order.
func (g *GroupBy) String() string {
	var b strings.Builder
	all := slices.Collect(maps.Values(g.groups))
	g.ints.All(func(_ int64, gr *group) bool {
		all = append(all, gr)
		return true
	})
	groups := slices.SortedFunc(slices.Values(all), func(a, b *group) int { return value.CompareRows(a.out, b.out) })
	for _, gr := range groups {
		if gr.out != nil {
			b.WriteString(zset.FormatRow(gr.out))
			fmt.Fprintf(&b, " rows=%d\n", gr.n)
		}
	}
	return b.String()
}
