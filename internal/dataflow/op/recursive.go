package op

import (
	"container/heap"
	"fmt"
	"slices"
	"unsafe"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Recursive keeps, per row of a recursive query's fixpoint, how many times
// each round derived it, and an inner circuit (the recursive term) whose
// state holds every row tagged with the round it entered; a change runs
// the rounds it touches to a new fixpoint inside one step.
//
// It is the nested fixpoint of differential dataflow with the round as the
// inner time. Round 0 is the anchor; round k+1 is the recursive term F
// applied to the rows of round k. Under UNION a row belongs to the round
// that first derives it (PostgreSQL's working table: rows produced before
// are discarded), under UNION ALL to every round that derives it, with
// multiplicity. F is linear in the previous round (the binder ensures it),
// so the inner circuit, fed with rows tagged by round, computes every
// round's derivations at once, and its ordinary incremental step computes
// the change of each: F_new(r_new[k]) − F_old(r_old[k]) is the output of
// feeding the base tables' change first (against r_old, all rounds) and
// then, round by round in increasing order, each round's change
// (against the new base tables).
//
// A deletion in a cycle is exact: a derivation in round k+1 rests on a row
// of round k, so no row can support itself, and a row that loses its first
// derivation moves to its next one, or leaves. Work is proportional to the
// (row, round) pairs that change, not to the fixpoint.
//
// The inner circuit commits each round as it goes, so Step undoes what it
// fed (feeding the negation, which restores state kept as integrated
// inputs) when it fails, and Abort does the same.
type Recursive struct {
	spec   RecursiveSpec
	rows   map[string]*recRow // committed: row key → derivations
	staged map[string]*recRow // the rows this step changed, new versions
	fed    map[string]zset.ZSet
	sched  recSchedule
	out    zset.ZSet
	// constsFed is set once the inner circuit's constants were fed.
	constsFed, stagedConsts bool
	key                     []byte
	bytes                   int64 // own state, committed
	stagedBytes             int64
	tag                     []value.Value
	scr, scr2               []recRepr // scratch: a row's representations
}

// RecursiveSpec describes a recursive query's fixpoint.
type RecursiveSpec struct {
	Name string // the query's name, for EXPLAIN and errors
	All  bool   // UNION ALL: keep every derivation
	// Inner computes the recursive term from the previous round, read
	// from input RecInput as rows followed by their round (int8), and from
	// the inputs named Relations; its node Out outputs the term's rows
	// followed by the round they were derived from.
	Inner     *dataflow.Circuit
	Out       dataflow.NodeID
	RecInput  string
	Relations []string // the inputs after the anchor, in order
	// Consts are the inner circuit's constant inputs, fed once.
	Consts map[string]zset.ZSet
	Arity  int
	Bound  int // rounds after which a recursion that goes on fails
}

// recRow is one row of the fixpoint and its derivations: per round, how
// many times that round derived it, ascending by round.
//
// Rows equal but printed differently (1.5 and 1.50, '1 day' and
// '24:00:00') are one row of a UNION, which shows, and feeds the next
// round, the first representation (value.CompareReprs) derived in the
// round it enters, as PostgreSQL's working table keeps the row met first
// and discards later rounds' equal rows. Under UNION ALL each
// representation is a row of its own. A row derived in several
// representations keeps its derivations per representation too (reprs);
// one derived in one, the usual case, keeps nothing more.
type recRow struct {
	row    value.Row
	derivs []recDeriv
	reprs  []recRepr // nil while every derivation printed the row as row
}

type recDeriv struct {
	round int32
	n     int64
}

// recRepr counts a round's derivations of a row in one representation.
type recRepr struct {
	row   value.Row
	round int32
	n     int64
}

// addRepr counts n derivations of row, a representation of r's, in round
// k; show must follow once the derivations are added.
func (r *recRow) addRepr(row value.Row, k int32, n int64) {
	if r.reprs == nil {
		if identicalRows(row, r.row) {
			return
		}
		for _, d := range r.derivs {
			r.reprs = append(r.reprs, recRepr{row: r.row, round: d.round, n: d.n})
		}
	}
	at := slices.IndexFunc(r.reprs, func(e recRepr) bool { return e.round == k && identicalRows(e.row, row) })
	if at < 0 {
		r.reprs = append(r.reprs, recRepr{row: row, round: k})
		at = len(r.reprs) - 1
	}
	if r.reprs[at].n += n; r.reprs[at].n == 0 {
		r.reprs = slices.Delete(r.reprs, at, at+1)
	}
}

// show sets r.row to the representation r shows, and forgets the counts
// per representation once a single one is left.
func (r *recRow) show() {
	if r.reprs == nil {
		return
	}
	f := r.first()
	shown := -1
	for i, e := range r.reprs {
		if e.round == f && e.n > 0 && (shown < 0 || value.CompareReprs(e.row, r.reprs[shown].row) < 0) {
			shown = i
		}
	}
	if shown >= 0 {
		r.row = r.reprs[shown].row
	}
	if !slices.ContainsFunc(r.reprs, func(e recRepr) bool { return !identicalRows(e.row, r.row) }) {
		r.reprs = nil
	}
}

// reprsDiffer reports whether old (committed, or nil) and s (staged) may
// differ in representation: either keeps counts per representation, or
// they show different ones.
func reprsDiffer(old, s *recRow) bool {
	return s.reprs != nil || old != nil && (old.reprs != nil || !identicalRows(old.row, s.row))
}

// reprChange calls fn with the change, representation by representation,
// from old's rows to s's of round k (k < 0: of every round).
func (o *Recursive) reprChange(old, s *recRow, k int32, fn func(row value.Row, w int64)) {
	o.scr = old.shownAt(o.scr[:0], k, o.spec.All)
	o.scr2 = s.shownAt(o.scr2[:0], k, o.spec.All)
	diffReprs(o.scr, o.scr2, fn)
	clear(o.scr)
	clear(o.scr2)
}

// shownAt returns, appended to dst, r's rows of round k (k < 0: of every
// round) with their multiplicities: under UNION (all false) the row it
// shows, once, if it enters in round k (k < 0: at all).
func (r *recRow) shownAt(dst []recRepr, k int32, all bool) []recRepr {
	if r == nil {
		return dst
	}
	if !all {
		if f := r.first(); f >= 0 && (k < 0 || f == k) {
			dst = append(dst, recRepr{row: r.row, n: 1})
		}
		return dst
	}
	if r.reprs == nil {
		n := r.total()
		if k >= 0 {
			n = r.at(k)
		}
		return append(dst, recRepr{row: r.row, n: n})
	}
	for _, e := range r.reprs {
		if k >= 0 && e.round != k {
			continue
		}
		at := slices.IndexFunc(dst, func(d recRepr) bool { return identicalRows(d.row, e.row) })
		if at < 0 {
			dst = append(dst, recRepr{row: e.row})
			at = len(dst) - 1
		}
		dst[at].n += e.n
	}
	return dst
}

// diffReprs calls fn with each row of now (shownAt) and its multiplicity
// less was's, and each row of was only with its negated multiplicity,
// leaving out zeros.
func diffReprs(was, now []recRepr, fn func(row value.Row, w int64)) {
	for _, e := range now {
		w := e.n
		if at := slices.IndexFunc(was, func(d recRepr) bool { return identicalRows(d.row, e.row) }); at >= 0 {
			w -= was[at].n
		}
		if w != 0 {
			fn(e.row, w)
		}
	}
	for _, e := range was {
		if !slices.ContainsFunc(now, func(d recRepr) bool { return identicalRows(d.row, e.row) }) && e.n != 0 {
			fn(e.row, -e.n)
		}
	}
}

var _ dataflow.Operator = (*Recursive)(nil)

// NewRecursive returns a recursive query's fixpoint operator. Its first
// input is the anchor's change, then one per name in spec.Relations.
func NewRecursive(spec RecursiveSpec) *Recursive {
	return &Recursive{spec: spec, rows: map[string]*recRow{}, staged: map[string]*recRow{}, fed: map[string]zset.ZSet{}}
}

// first returns the round at which r is in the fixpoint (the first with a
// positive running count of derivations), or -1.
func (r *recRow) first() int32 {
	if r == nil {
		return -1
	}
	var sum int64
	for _, d := range r.derivs {
		if sum += d.n; sum > 0 {
			return d.round
		}
	}
	return -1
}

// at returns the count of derivations of r in round k.
func (r *recRow) at(k int32) int64 {
	if r == nil {
		return 0
	}
	for _, d := range r.derivs {
		if d.round == k {
			return d.n
		}
	}
	return 0
}

// total returns the sum of r's derivations.
func (r *recRow) total() int64 {
	if r == nil {
		return 0
	}
	var sum int64
	for _, d := range r.derivs {
		sum += d.n
	}
	return sum
}

func (r *recRow) add(k int32, n int64) {
	for i := range r.derivs {
		if r.derivs[i].round == k {
			if r.derivs[i].n += n; r.derivs[i].n == 0 {
				r.derivs = append(r.derivs[:i], r.derivs[i+1:]...)
			}
			return
		}
		if r.derivs[i].round > k {
			r.derivs = append(r.derivs, recDeriv{})
			copy(r.derivs[i+1:], r.derivs[i:])
			r.derivs[i] = recDeriv{round: k, n: n}
			return
		}
	}
	r.derivs = append(r.derivs, recDeriv{round: k, n: n})
}

// maxReusedMap is the largest staged map reset keeps for the next step.
const maxReusedMap = 1024

const recRowBytes = 96 // map entry, key string, recRow header

func (r *recRow) bytes(key int) int64 {
	vals := int64(len(r.row)) * int64(unsafe.Sizeof(value.Value{}))
	return recRowBytes + int64(key) + vals + int64(cap(r.derivs))*16 + int64(cap(r.reprs))*(int64(unsafe.Sizeof(recRepr{}))+vals)
}

// derive adds n derivations of row in round k to the staged state and
// schedules the rounds at which the row's membership may change.
func (o *Recursive) derive(row value.Row, k int32, n int64, current int32) {
	o.key = value.AppendRowKey(o.key[:0], row)
	s, ok := o.staged[string(o.key)]
	if !ok {
		old := o.rows[string(o.key)]
		s = &recRow{row: row}
		if old != nil {
			s.row = old.row
			s.derivs = append([]recDeriv(nil), old.derivs...)
			s.reprs = slices.Clone(old.reprs)
			o.stagedBytes -= old.bytes(len(o.key))
		}
		o.staged[string(o.key)] = s
		if f := old.first(); f >= current {
			o.sched.add(f, string(o.key))
		}
	} else {
		o.stagedBytes -= s.bytes(len(o.key))
	}
	s.addRepr(row, k, n)
	s.add(k, n)
	s.show()
	o.stagedBytes += s.bytes(len(o.key))
	o.sched.add(k, string(o.key))
	if f := s.first(); f > current {
		o.sched.add(f, string(o.key))
	}
}

// Step runs the rounds the change touches to the new fixpoint and emits
// the change of the fixpoint's rows.
func (o *Recursive) Step(in []zset.ZSet) (zset.ZSet, error) {
	out, err := o.step(in)
	if err != nil {
		o.Abort()
		return nil, err
	}
	return out, nil
}

func (o *Recursive) step(in []zset.ZSet) (zset.ZSet, error) {
	o.stagedBytes = o.bytes
	for _, e := range in[0] {
		o.derive(e.Row, 0, e.W, 0)
	}
	// The base tables' change, against every round's rows as they were.
	base := map[string]zset.ZSet{}
	for i, name := range o.spec.Relations {
		if len(in[i+1]) > 0 {
			base[name] = in[i+1]
		}
	}
	if !o.constsFed {
		for name, rows := range o.spec.Consts {
			base[name] = rows
		}
		o.stagedConsts = true
	}
	if len(base) > 0 {
		if err := o.feed(base, -1); err != nil {
			return nil, err
		}
	}
	// Round by round, in increasing order: a round's rows are final once
	// every earlier round has run.
	var delta zset.ZSet
	for o.sched.Len() > 0 {
		k := o.sched.rounds[0]
		if int(k) > o.spec.Bound {
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "recursive query %q did not converge within %d rounds", o.spec.Name, o.spec.Bound).
				WithHint("a UNION ALL recursion over a cycle never ends; use UNION, or bound the recursion in its WHERE clause")
		}
		keys := o.sched.pop()
		delta = delta[:0]
		for _, key := range keys {
			s := o.staged[key]
			old := o.rows[key]
			if reprsDiffer(old, s) {
				if f := s.first(); !o.spec.All && f > k {
					o.sched.add(f, key)
				}
				o.reprChange(old, s, k, func(row value.Row, w int64) {
					delta = append(delta, zset.Entry{Row: o.tagged(row, k), W: w})
				})
				continue
			}
			var w int64
			if o.spec.All {
				w = s.at(k) - old.at(k)
			} else {
				w = b2i(s.first() == k) - b2i(old.first() == k)
				if f := s.first(); f > k {
					o.sched.add(f, key)
				}
			}
			if w != 0 {
				delta = append(delta, zset.Entry{Row: o.tagged(s.row, k), W: w})
			}
		}
		if len(delta) > 0 {
			if err := o.feed(map[string]zset.ZSet{o.spec.RecInput: delta}, k); err != nil {
				return nil, err
			}
		}
	}
	// The fixpoint's change: rows whose membership (UNION) or multiplicity
	// (UNION ALL) differs.
	out := dataflow.ReuseBatch(o.out)
	for key, s := range o.staged {
		old := o.rows[key]
		if reprsDiffer(old, s) {
			o.reprChange(old, s, -1, func(row value.Row, w int64) {
				out = append(out, zset.Entry{Row: row, W: w})
			})
			continue
		}
		var w int64
		if o.spec.All {
			w = s.total() - old.total()
		} else {
			w = b2i(s.first() >= 0) - b2i(old.first() >= 0)
		}
		if w != 0 {
			out = append(out, zset.Entry{Row: s.row, W: w})
		}
	}
	o.out = zset.Consolidate(out)
	return o.out, nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// tagged returns row followed by round k.
func (o *Recursive) tagged(row value.Row, k int32) value.Row {
	t := make(value.Row, len(row)+1)
	copy(t, row)
	t[len(row)] = value.NewInt(value.Int8, int64(k))
	return t
}

// feed steps the inner circuit with batches, remembers them for undoing,
// and adds the derivations it outputs. round is the round every tagged
// row fed belongs to, or -1 for the base tables' change.
func (o *Recursive) feed(batches map[string]zset.ZSet, round int32) error {
	copied := make(map[string]zset.ZSet, len(batches))
	for name, b := range batches {
		copied[name] = append(zset.ZSet(nil), b...) // Prepare consolidates in place
	}
	if err := o.spec.Inner.Step(copied); err != nil {
		return err // the failed inner step changed nothing
	}
	for name, b := range batches {
		o.fed[name] = append(o.fed[name], b...)
	}
	current := round
	if current < 0 {
		current = 0
	}
	for _, e := range o.spec.Inner.Output(o.spec.Out) {
		k := int32(e.Row[o.spec.Arity].Int()) + 1
		o.derive(e.Row[:o.spec.Arity:o.spec.Arity], k, e.W, current)
	}
	return nil
}

// undoFed feeds the inner circuit the negation of what this step fed it,
// restoring its state.
func (o *Recursive) undoFed() {
	neg := map[string]zset.ZSet{}
	for name, b := range o.fed {
		n := make(zset.ZSet, len(b))
		for i, e := range b {
			n[i] = zset.Entry{Row: e.Row, W: -e.W}
		}
		neg[name] = n
	}
	o.fed = map[string]zset.ZSet{}
	if len(neg) > 0 {
		_ = o.spec.Inner.Step(neg)
	}
}

// Commit installs the staged rows.
func (o *Recursive) Commit() {
	for key, s := range o.staged {
		if len(s.derivs) == 0 {
			delete(o.rows, key)
			o.stagedBytes -= s.bytes(len(key))
		} else {
			o.rows[key] = s
		}
	}
	if o.stagedConsts {
		o.constsFed = true
	}
	o.bytes = o.stagedBytes
	o.reset()
}

// Abort drops the staged rows and undoes what the step fed the inner
// circuit.
func (o *Recursive) Abort() {
	if len(o.fed) > 0 {
		o.undoFed()
	}
	o.reset()
}

func (o *Recursive) reset() {
	// Clearing a map costs its capacity, not its length: after a big step
	// (the cold start) the maps are dropped, so that small steps stay
	// small.
	if len(o.staged) > maxReusedMap {
		o.staged = map[string]*recRow{}
	} else {
		clear(o.staged)
	}
	if len(o.fed) > 0 {
		o.fed = map[string]zset.ZSet{}
	}
	o.sched.clear()
	o.stagedConsts = false
	o.stagedBytes = o.bytes
}

// Info describes the fixpoint for EXPLAIN; Inner is the recursive term.
func (o *Recursive) Info() dataflow.Info {
	kind := "UNION"
	if o.spec.All {
		kind = "UNION ALL"
	}
	return dataflow.Info{
		Kind:   "Recursive",
		Detail: fmt.Sprintf("%s %s, at most %d rounds, each round through the circuit below", o.spec.Name, kind, o.spec.Bound),
		State:  "per fixpoint row: its derivations per round; the circuit below keeps the rows tagged with their round",
		Cost:   "O(changed (row, round) pairs × matches)",
	}
}

// Inner returns the circuit of the recursive term.
func (o *Recursive) Inner() *dataflow.Circuit { return o.spec.Inner }

// State reports the rows of the fixpoint and the inner circuit's state.
func (o *Recursive) State() dataflow.StateSize {
	var a dataflow.Accounting
	a.AddCircuit(o.spec.Inner)
	t := a.Total()
	return dataflow.StateSize{Rows: int64(len(o.rows)) + t.Rows, Bytes: o.bytes + t.Bytes}
}

// recSchedule is the set of (round, row key) pairs still to look at, by
// round: a min-heap of rounds and the keys of each.
type recSchedule struct {
	rounds []int32
	keys   map[int32]map[string]struct{}
}

func (s *recSchedule) Len() int           { return len(s.rounds) }
func (s *recSchedule) Less(i, j int) bool { return s.rounds[i] < s.rounds[j] }
func (s *recSchedule) Swap(i, j int)      { s.rounds[i], s.rounds[j] = s.rounds[j], s.rounds[i] }
func (s *recSchedule) Push(x any)         { s.rounds = append(s.rounds, x.(int32)) }
func (s *recSchedule) Pop() any {
	x := s.rounds[len(s.rounds)-1]
	s.rounds = s.rounds[:len(s.rounds)-1]
	return x
}

func (s *recSchedule) add(k int32, key string) {
	if s.keys == nil {
		s.keys = map[int32]map[string]struct{}{}
	}
	m, ok := s.keys[k]
	if !ok {
		m = map[string]struct{}{}
		s.keys[k] = m
		heap.Push(s, k)
	}
	m[key] = struct{}{}
}

// pop removes the lowest round and returns its keys.
func (s *recSchedule) pop() []string {
	k := heap.Pop(s).(int32)
	m := s.keys[k]
	delete(s.keys, k)
	out := make([]string, 0, len(m))
	for key := range m {
		out = append(out, key)
	}
	return out
}

func (s *recSchedule) clear() {
	s.rounds = s.rounds[:0]
	clear(s.keys)
}
