package op

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// The joins of this package (InnerJoin, OuterJoin, SemiJoin, NotInJoin)
// share the machinery of this file: an arrangement of each input on the
// join key, and the enumeration of the pairs that the delta rule
//
//	Δ(L ⋈ R) = Δl ⋈ R + L ⋈ Δr + Δl ⋈ Δr
//
// produces, where L and R are the inputs' states before the step. Every
// term reads the arrangements' committed state; the arrangements absorb
// Δl and Δr only at Commit, so no pair is counted twice (applying Δr to R
// before computing Δl ⋈ R would count Δl ⋈ Δr twice).
//
// Keys follow SQL's '=': a key with a NULL component matches nothing. An
// empty key makes every row match every row (a cross join, or a join whose
// condition is all residual): each change then costs O(rows of the other
// side).

// JoinSpec describes a join of a left and a right input.
type JoinSpec struct {
	Left, Right JoinSide
	// Residual is the part of the join condition that is not key equality,
	// a boolean expression over the concatenated row l ++ r; a pair
	// matches when the keys are equal and it is TRUE. Nil means TRUE.
	Residual expr.Expr
	// Project computes the output row from l ++ r (NULLs standing for the
	// missing side of an outer join's unmatched row). Nil outputs l ++ r.
	// Semi-, anti- and NOT IN joins output the left row and ignore it.
	Project []expr.Expr
}

// JoinSide describes one input of a join.
type JoinSide struct {
	Name    string   // for EXPLAIN: "left", "orders"
	Arity   int      // columns of the input's rows
	Columns []string // optional, for EXPLAIN
	// Key is the join key, expressions over the input's rows; the two
	// sides' keys have the same length and types. Empty for a cross join.
	// Ignored when Index is set.
	Key []expr.Expr
	// Index, when set, is a shared arrangement of this input on the join
	// key, owned and staged by someone else (an Arrange node feeding this
	// join the same batches, or the engine); the join only reads it. It
	// must be empty when the join is created. When nil, the join keeps a
	// private arrangement of the input and stages it itself.
	Index *dataflow.Arrangement
}

// term says which of the delta rule's terms a pair comes from.
type term uint8

const (
	termDlR  term = iota // Δl ⋈ R: a left change against the right state
	termLDr              // L ⋈ Δr: the left state against a right change
	termDlDr             // Δl ⋈ Δr
)

// pairSink receives each matching pair; core.cat holds l ++ r.
type pairSink func(t term, l value.Row, wl int64, r value.Row, wr int64) error

// keyed is a delta entry with its encoded key in an arena.
type keyed struct {
	off, end int
	row      value.Row
	w        int64
}

// joinCore holds a join's two arrangements and enumerates matching pairs.
type joinCore struct {
	spec        JoinSpec
	left, right *dataflow.Arrangement
	ownL, ownR  bool
	sink        pairSink

	// Step scratch, reused.
	cat          value.Row
	nullL, nullR value.Row // all-NULL rows of each side's arity
	arenaL       []byte
	arenaR       []byte
	dl, dr       []keyed
	out          zset.ZSet
	// The current probe, read by the lookup callbacks (bound once, so that
	// a lookup allocates no closure).
	curT            term
	curRow          value.Row
	curW            int64
	err             error
	onLeft, onRight func(value.Row, int64) bool
	guard           *dataflow.Guard // counts the pairs made (cold starts)

	// emits is set by the joins whose sink outputs a row per pair (inner
	// and outer): pairs then sizes the output for one pair a probe.
	emits bool
	// direct, when the output is columns of l ++ r and there is no
	// residual, is the column of l ++ r of each output column: a pair's
	// row is copied from l and r, without c.cat (see join_direct.go).
	direct []int
	pl, pr []value.Value // the pair to emit when cat is not built
	catOK  bool          // c.cat holds the pair to emit
	// matches are the rows the last lookup of a big batch found, which
	// the next entry of the same key reuses (see join_direct.go).
	matches  []zset.Entry
	matchKey []byte
	matchOK  bool
	record   bool
	// slab hands out the output rows while a cold start's batches are
	// kept aside (between deferLoads and trim), rows that a view holds
	// whole; nil otherwise, each row its own allocation.
	slab *rowSlab
	// gone hands out the output rows of negative weight outside a cold
	// start (see newRow).
	gone rowSlab
	// apart is set by the inner join, whose pairs depend on nothing but
	// their two rows: a cold start's big batch may then be probed in two
	// parts at once, the second by twin (see join_split.go).
	apart bool
	twin  *joinCore
	// split lets a commit's big step be probed in halves too; coldSlab
	// is a twin's slab of a cold start's rows.
	split    dataflow.Split
	coldSlab rowSlab
	// hidden marks a side whose index was adopted (see IndexAdopter): until
	// trim the join neither reads nor stages it; fed records that the side
	// has had rows.
	hidden, fed [2]bool
}

func newJoinCore(spec JoinSpec, sink pairSink) *joinCore {
	c := &joinCore{spec: spec, sink: sink}
	c.left, c.ownL = sideIndex(spec.Left, true)
	c.right, c.ownR = sideIndex(spec.Right, true)
	if len(c.left.Spec().Key) != len(c.right.Spec().Key) {
		panic(fmt.Sprintf("op: join keys of different lengths: %d and %d", len(c.left.Spec().Key), len(c.right.Spec().Key)))
	}
	if c.left.Len() != 0 || c.right.Len() != 0 {
		panic("op: a join over a non-empty shared arrangement would miss its initial contents")
	}
	c.nullL = make(value.Row, spec.Left.Arity)
	c.nullR = make(value.Row, spec.Right.Arity)
	c.onLeft = c.visitLeft
	c.onRight = c.visitRight
	c.direct = directColumns(spec)
	return c
}

// sideIndex returns the side's shared arrangement, or a new private one
// (leaving out NULL keys when dropNulls is set).
func sideIndex(s JoinSide, dropNulls bool) (*dataflow.Arrangement, bool) {
	if s.Index != nil {
		return s.Index, false
	}
	a := dataflow.NewArrangement(dataflow.ArrangementSpec{
		Name: s.Name, Columns: s.Columns, Key: s.Key, DropNullKeys: dropNulls,
	})
	a.Claim()
	return a, true
}

// encode computes the non-NULL keys of a delta's entries.
func encode(a *dataflow.Arrangement, delta zset.ZSet, arena []byte, ks []keyed) ([]byte, []keyed, error) {
	arena, ks = arena[:0], ks[:0]
	for i, e := range delta {
		dataflow.TouchRows(delta, i)
		off := len(arena)
		var null bool
		var err error
		arena, null, err = a.AppendKey(arena, e.Row)
		if err != nil {
			return arena, ks, err
		}
		if null {
			arena = arena[:off]
			continue
		}
		ks = append(ks, keyed{off: off, end: len(arena), row: e.Row, w: e.W})
	}
	return arena, ks, nil
}

// pairs calls the sink for every matching pair of the three terms.
func (c *joinCore) pairs(dl, dr zset.ZSet) error {
	if err := c.checkHidden(dl, dr); err != nil {
		return err
	}
	// A side that holds no row matches nothing, and Δl ⋈ Δr needs both
	// changes: a change is keyed only when a term reads it. The first
	// input of a cold start, whose other side is still empty, is neither
	// keyed nor looked up (its key is evaluated when its index stages it);
	// an index the join adopted is not read until the build's end
	// (IndexAdopter).
	both := len(dl) > 0 && len(dr) > 0
	probeR := len(dl) > 0 && !c.hidden[1] && c.right.Len() > 0
	probeL := len(dr) > 0 && !c.hidden[0] && c.left.Len() > 0
	c.dl, c.dr = c.dl[:0], c.dr[:0]
	var err error
	if probeR || both {
		if c.arenaL, c.dl, err = encode(c.left, dl, c.arenaL, c.dl); err != nil {
			return err
		}
	}
	if probeL || both {
		if c.arenaR, c.dr, err = encode(c.right, dr, c.arenaR, c.dr); err != nil {
			return err
		}
	}
	if c.emits {
		// One pair a probe, the usual join on a key: the output is sized
		// once, to the size a step's output keeps from one step to the
		// next, rather than grown by append past it and dropped at the
		// next step.
		n := 0
		if probeR {
			n += len(c.dl)
		}
		if probeL {
			n += len(c.dr)
		}
		c.reserve(n)
	}
	c.err = nil
	if probeR {
		if err := c.probeSide(termDlR, c.arenaL, c.dl); err != nil {
			return err
		}
	}
	if probeL {
		if err := c.probeSide(termLDr, c.arenaR, c.dr); err != nil {
			return err
		}
	}
	if len(c.dl) == 0 || len(c.dr) == 0 {
		return nil
	}
	// Δl ⋈ Δr: sort both by key and merge.
	byKey := func(arena []byte) func(a, b keyed) int {
		return func(a, b keyed) int { return bytes.Compare(arena[a.off:a.end], arena[b.off:b.end]) }
	}
	slices.SortFunc(c.dl, byKey(c.arenaL))
	slices.SortFunc(c.dr, byKey(c.arenaR))
	i, j := 0, 0
	for i < len(c.dl) && j < len(c.dr) {
		kl := c.arenaL[c.dl[i].off:c.dl[i].end]
		kr := c.arenaR[c.dr[j].off:c.dr[j].end]
		switch cmp := bytes.Compare(kl, kr); {
		case cmp < 0:
			i++
		case cmp > 0:
			j++
		default:
			i2 := i
			for i2 < len(c.dl) && bytes.Equal(c.arenaL[c.dl[i2].off:c.dl[i2].end], kl) {
				i2++
			}
			j2 := j
			for j2 < len(c.dr) && bytes.Equal(c.arenaR[c.dr[j2].off:c.dr[j2].end], kr) {
				j2++
			}
			for _, l := range c.dl[i:i2] {
				for _, r := range c.dr[j:j2] {
					if err := c.pair(termDlDr, l.row, l.w, r.row, r.w); err != nil {
						return err
					}
				}
			}
			i, j = i2, j2
		}
	}
	return nil
}

// probeAll looks up each entry of ks (its key in arena) in the other
// side's index, the right one for termDlR, the left one for termLDr, and
// passes each pair to the sink.
func (c *joinCore) probeAll(t term, arena []byte, ks []keyed) error {
	a, visit := c.right, c.onRight
	if t == termLDr {
		a, visit = c.left, c.onLeft
	}
	c.curT = t
	big := len(ks) >= minGrouped
	c.matchOK = false
	for i, k := range ks {
		if i%dataflow.TouchGroup == 0 && big {
			touchKeys(a, arena, ks[i:])
		}
		c.curRow, c.curW = k.row, k.w
		c.probe(a, arena[k.off:k.end], visit, big)
		if c.err != nil {
			return c.err
		}
	}
	return nil
}

// touchKeys has a load into the cache what looking up the keys of the
// first dataflow.TouchGroup entries of ks reads (see Arrangement.Touch),
// and the entries' rows, which each pair copies: encode read them, but a
// big batch's whole pass ago.
func touchKeys(a *dataflow.Arrangement, arena []byte, ks []keyed) {
	var keys [dataflow.TouchGroup][]byte
	n := min(len(ks), len(keys))
	var sink uintptr
	for i := range n {
		keys[i] = arena[ks[i].off:ks[i].end]
		sink += touchRow(ks[i].row)
	}
	touched.Store(sink)
	a.Touch(keys[:n])
}

func (c *joinCore) visitRight(r value.Row, wr int64) bool {
	if c.record {
		c.matches = append(c.matches, zset.Entry{Row: r, W: wr})
	}
	c.err = c.pair(c.curT, c.curRow, c.curW, r, wr)
	return c.err == nil
}

func (c *joinCore) visitLeft(l value.Row, wl int64) bool {
	if c.record {
		c.matches = append(c.matches, zset.Entry{Row: l, W: wl})
	}
	c.err = c.pair(c.curT, l, wl, c.curRow, c.curW)
	return c.err == nil
}

// pair checks the residual on l ++ r and passes a match to the sink.
func (c *joinCore) pair(t term, l value.Row, wl int64, r value.Row, wr int64) error {
	if c.direct != nil {
		c.pl, c.pr, c.catOK = l, r, false
		return c.sink(t, l, wl, r, wr)
	}
	c.cat = append(append(c.cat[:0], l...), r...)
	c.catOK = true
	if c.spec.Residual != nil {
		v, err := c.spec.Residual.Eval(c.cat)
		if err != nil {
			return err
		}
		if !isTrue(v) {
			return nil
		}
	}
	return c.sink(t, l, wl, r, wr)
}

// emitCat appends the projection of c.cat, with weight w, to the output.
func (c *joinCore) emitCat(w int64) error {
	var row value.Row
	if !c.catOK && !c.directFits() {
		// A row shorter than its side's arity: the projection's
		// evaluation reports it.
		c.cat = append(append(c.cat[:0], c.pl...), c.pr...)
		c.catOK = true
	}
	if !c.catOK {
		row = c.newRow(len(c.direct), w)
		c.copyDirect(row)
	} else if c.spec.Project == nil {
		row = c.newRow(len(c.cat), w)
		copy(row, c.cat)
	} else {
		row = c.newRow(len(c.spec.Project), w)
		for i, x := range c.spec.Project {
			v, err := x.Eval(c.cat)
			if err != nil {
				return err
			}
			row[i] = v
		}
	}
	if c.guard != nil {
		if err := c.guard.Charge(dataflow.RowBytes(row) + entryBytes); err != nil {
			return err
		}
	}
	c.out = append(c.out, zset.Entry{Row: row, W: w})
	return nil
}

// newRow returns a row of n NULLs for an output entry of weight w: from
// the slab during a cold start; else a retraction's row (w < 0) from the
// slab gone, and an assertion's row allocated alone.
//
// A retraction's row is, nearly always, only found and dropped: the view's
// Integrate, or the next join's index, holds the row it was asserted as
// and keeps that one. Cutting it from a slab of 8 KB makes one allocation
// of about a hundred retractions of a few columns, where each was its own.
// Nothing is reused: a slab is the collector's once none of its rows is
// referred to, so rows handed downstream stay valid for as long as anyone
// keeps them, as before. What it costs: an operator that keeps such a row
// (a state left holding a negative weight) keeps its slab alive with it,
// up to 8 KB for the row, as the cold start's rows do. An assertion's row
// stays its own allocation: a view keeps it until it is replaced, and
// replacements come in any order, so slabs of them would stay alive for a
// few rows each.
func (c *joinCore) newRow(n int, w int64) value.Row {
	if c.slab != nil {
		return c.slab.row(n)
	}
	if w < 0 {
		return c.gone.row(n)
	}
	return make(value.Row, n)
}

// reserve makes room in the output for n more entries at once.
func (c *joinCore) reserve(n int) {
	if cap(c.out)-len(c.out) >= n {
		return
	}
	out := make(zset.ZSet, len(c.out), len(c.out)+n)
	copy(out, c.out)
	clear(c.out)
	c.out = out
}

// entryBytes is a pair's place in the output batch.
const entryBytes = int64(unsafe.Sizeof(zset.Entry{}))

// emitLeftNull appends the projection of l ++ NULLs.
func (c *joinCore) emitLeftNull(l value.Row, w int64) error {
	c.cat = append(append(c.cat[:0], l...), c.nullR...)
	c.catOK = true
	return c.emitCat(w)
}

// emitRightNull appends the projection of NULLs ++ r.
func (c *joinCore) emitRightNull(r value.Row, w int64) error {
	c.cat = append(append(c.cat[:0], c.nullL...), r...)
	c.catOK = true
	return c.emitCat(w)
}

// begin readies the output buffer for a step.
func (c *joinCore) begin() { c.out = dataflow.ReuseBatch(c.out) }

// fail drops a failed step's output.
func (c *joinCore) fail() {
	clear(c.out)
	c.out = c.out[:0]
	c.release()
}

// release drops the scratch's references to the step's rows.
func (c *joinCore) release() {
	clear(c.dl)
	clear(c.dr)
	c.dl, c.dr = c.dl[:0], c.dr[:0]
	clear(c.cat)
	c.curRow = nil
	c.pl, c.pr = nil, nil
	clear(c.matches)
	c.matches = c.matches[:0]
	c.matchKey, c.matchOK = c.matchKey[:0], false
}

// finish consolidates the output and stages the private arrangements.
func (c *joinCore) finish(dl, dr zset.ZSet) (zset.ZSet, error) {
	if c.ownL {
		if err := c.left.Stage(dl); err != nil {
			c.fail()
			return nil, err
		}
	}
	if c.ownR {
		if err := c.right.Stage(dr); err != nil {
			if c.ownL {
				c.left.Abort()
			}
			c.fail()
			return nil, err
		}
	}
	c.release()
	if !consolidated(c.out) {
		c.out = zset.Consolidate(c.out)
	}
	return c.out, nil
}

// deferLoads lets the private indexes keep a cold start's batches aside
// while they are empty, to be indexed in one load when first read (the
// other side's first rows, or the end of the cold start).
func (c *joinCore) deferLoads() {
	if c.emits {
		c.slab = &rowSlab{}
	}
	if c.ownL {
		c.left.DeferLoads()
	}
	if c.ownR {
		c.right.DeferLoads()
	}
}

func (c *joinCore) commit() {
	if c.ownL {
		c.left.Commit()
	}
	if c.ownR {
		c.right.Commit()
	}
}

func (c *joinCore) abort() {
	if c.ownL {
		c.left.Abort()
	}
	if c.ownR {
		c.right.Abort()
	}
}

// state reports the private arrangements; shared ones are their owner's.
func (c *joinCore) state() dataflow.StateSize {
	var s dataflow.StateSize
	for _, own := range []struct {
		a   *dataflow.Arrangement
		own bool
	}{{c.left, c.ownL}, {c.right, c.ownR}} {
		if own.own {
			st := own.a.State()
			s.Rows += st.Rows
			s.Bytes += st.Bytes
		}
	}
	return s
}

// detail prints the keys and residual: "on (#0) = (#0) and #1 > #3".
func (c *joinCore) detail() string {
	var b strings.Builder
	lk, rk := c.left.Spec().Key, c.right.Spec().Key
	if len(lk) == 0 {
		b.WriteString("cross")
	} else {
		b.WriteString("on ")
		for i := range lk {
			if i > 0 {
				b.WriteString(" and ")
			}
			fmt.Fprintf(&b, "left.%s = right.%s", lk[i], rk[i])
		}
	}
	if c.spec.Residual != nil {
		fmt.Fprintf(&b, " filter %s", c.spec.Residual)
	}
	if c.spec.Project != nil {
		b.WriteString(" output ")
		for i, x := range c.spec.Project {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(x.String())
		}
	}
	return b.String()
}

// stateText says which indexes the join keeps or reads.
func (c *joinCore) stateText() string {
	s := func(a *dataflow.Arrangement, own bool) string {
		if own {
			return a.Describe()
		}
		if a.ReadsThrough() {
			return "shared " + a.Describe() + " by row id"
		}
		return "shared " + a.Describe()
	}
	return s(c.left, c.ownL) + "; " + s(c.right, c.ownR)
}

// cost is the join's work per change.
func (c *joinCore) cost() string {
	if len(c.left.Spec().Key) == 0 {
		return "O(change × other side), not bounded by the change"
	}
	return "O(change × matches)"
}
