package partial

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var _ Operator = (*Join)(nil)

// Join keeps, for every left row, a reference to the right key it
// references, and for every right key that exists or is referenced an
// entry: the right's columns the view reads (nil while no right row has
// the key) and the list of the left rows that reference it; with KeepLeft
// also the left row itself. It is the inner join of the left input with
// the right relation on left.FK = right's key, keyed by the left key:
// each left row meets at most one right row.
//
// The left rows' lists are what fan a right change out to the view rows
// it touches, and let a left change that omits its old row (or even
// whether it existed) be stated exactly; the right's columns are what an
// inserted or re-pointed left row is joined with. Left rows are not kept
// (unless KeepLeft), so a right change reaches the view as partial
// updates that know only the right's columns. See docs/partial-deltas.md,
// "Join".
//
// An entry keeps its left keys in one array, read in sequence when a
// right change fans out to them: a list of the references would cost a
// cache miss per left row, at every change of a widely referenced row.
//
// Keys are found by hash (delta.Index), and a step changes nothing but
// staging slices and the output's buffers it reuses: a step of one change
// allocates nothing. Commit updates entries in place; it allocates only
// for keys it has not held before.
type Join struct {
	left, right, out *delta.Schema
	fk               []int // left columns holding the referenced right key, in right key order
	rcols            []int // right columns the output carries
	keepLeft         bool

	refs delta.Index[*leftRef]  // left key → its reference
	dims delta.Index[*dimEntry] // right key → its columns and the left rows referencing it
	// The entries' left keys: while every left key is one integer
	// column of one kind (intKind), each entry holds their integers
	// (dimEntry.ints); else wide holds each entry's keys, len(left.Key)
	// values a key. A key's position there is its reference's pos.
	intKind value.Kind
	wide    map[*dimEntry][]value.Value
	kbuf    [1]value.Value // a moved integer key, looked up
	// step numbers the steps: a reference its step changes carries the
	// step's number, so that the right's changes pass it by.
	step  uint64
	stage struct {
		refs []refChange
	}
	// Reused from one step to the next: the right changes (the staged
	// ones of the right's columns) and their index by right key when
	// they are many.
	rfacts  []delta.Fact
	dchg    []dimChange
	dchgIdx delta.Index[int]
	// padU is the unknown set of a left row known only by its key and
	// foreign key (every other left column); a Cols is immutable. lastU
	// and lastFKU are the last unknown set withFK took and gave.
	padU, lastU, lastFKU delta.Cols
	buf                  buffers
	rows                 arena // the output's rows and the step's scratch rows
}

// leftRef is a left key's reference: the entry of the right key it
// references, and the position of its key among the entry's.
type leftRef struct {
	key  value.Row      // the left key
	dim  *dimEntry      // the referenced right key's entry; nil when a FK column is NULL
	row  value.Row      // the left row, with KeepLeft
	step uint64         // the last step that changed the left row
	kv   [1]value.Value // key, when it is one column: read with the reference
	pos  int32          // the key's position among dim's left keys
}

// dimEntry is a right key's entry.
type dimEntry struct {
	key  value.Row      // the right key
	cols value.Row      // the right's rcols; nil when no right row has the key
	ints []int64        // the referencing left keys, while they are integers (Join.intKind)
	kv   [1]value.Value // key, when it is one column
}

// refChange is a step's change of a left key's reference.
type refChange struct {
	key  value.Row // the left key, valid for the step
	old  *leftRef  // nil when the key is new
	gone bool      // the left row leaves
	fk   value.Row // the referenced right key, valid for the step; nil: NULL
	row  value.Row // the new left row, with KeepLeft, valid for the step
}

// NewJoin returns the join of left with right on left's columns fk (one
// per right key column, in right key order) equal to right's key. The
// output has left's columns, then right's columns rcols, and left's key;
// it is named name. With keepLeft the join also keeps every left row, so
// that a right change can make view rows appear (a filter above reads the
// right's columns, or the foreign key may dangle).
func NewJoin(name string, left, right *delta.Schema, fk, rcols []int, keepLeft bool) (*Join, error) {
	if len(fk) != len(right.Key) {
		return nil, pgerr.New(pgerr.Internal, "deltaview: join %s: %d foreign key columns for a key of %d", name, len(fk), len(right.Key))
	}
	for _, c := range fk {
		if c < 0 || c >= left.Arity() {
			return nil, pgerr.New(pgerr.Internal, "deltaview: join %s: foreign key column #%d out of range", name, c)
		}
	}
	names := append([]string(nil), left.Columns...)
	for _, c := range rcols {
		if c < 0 || c >= right.Arity() {
			return nil, pgerr.New(pgerr.Internal, "deltaview: join %s: right column #%d out of range", name, c)
		}
		names = append(names, right.Columns[c])
	}
	out, err := delta.NewSchema(name, names, left.Key)
	if err != nil {
		return nil, err
	}
	j := &Join{left: left, right: right, out: out, fk: fk, rcols: rcols, keepLeft: keepLeft}
	r, u := left.Pad(make(value.Row, len(left.Key)))
	_, j.padU = j.withFK(r, u, nil)
	return j, nil
}

func (j *Join) Schema() *delta.Schema { return j.out }

func (j *Join) Info() dataflow.Info {
	fk := ""
	for i, c := range j.fk {
		if i > 0 {
			fk += ", "
		}
		fk += fmt.Sprintf("%s.%s = %s.%s", j.left.Name, j.left.Columns[c], j.right.Name, j.right.Columns[j.right.Key[i]])
	}
	state := "per left row its referenced key, per referenced key its left keys; per right row the columns read"
	if j.keepLeft {
		state += "; per left row the row"
	}
	return dataflow.Info{Kind: "PartialJoin", Detail: fk, State: state, Cost: "O(change × left rows referencing a changed right row)"}
}

// refBytes and dimBytes approximate a reference's and an entry's memory
// beyond their rows and an entry's left keys: the struct and its index
// entry.
const (
	refBytes = delta.IndexEntryBytes + 8 + 3*8 + 8
	dimBytes = delta.IndexEntryBytes + 8 + 5*8
)

func (j *Join) State() dataflow.StateSize {
	var s dataflow.StateSize
	j.refs.All(func(_ value.Row, r *leftRef) bool {
		s.Rows++
		s.Bytes += refBytes + dataflow.RowBytes(r.key)
		if r.row != nil {
			s.Bytes += dataflow.RowBytes(r.row)
		}
		return true
	})
	j.dims.All(func(_ value.Row, d *dimEntry) bool {
		if d.cols != nil {
			s.Rows++
		}
		s.Bytes += dimBytes + dataflow.RowBytes(d.key) + dataflow.RowBytes(d.cols) + 8*int64(cap(d.ints))
		return true
	})
	for _, w := range j.wide {
		s.Bytes += dataflow.RowBytes(w[:cap(w)]) + 8
	}
	return s
}

// dimChange is a right key's row before and after, restricted to rcols.
type dimChange struct {
	key          value.Row // the right key
	e            *dimEntry // its entry; nil when the key has none
	oldOK, newOK bool
	old, new     value.Row // new is a row of the step
}

// contradiction reports a change that contradicts the join's state: an
// insertion of a key it holds (23505), any other change of a key it does
// not hold (P0002).
func (j *Join) contradiction(rel *delta.Schema, key value.Row, format string, args ...any) error {
	code := delta.CodeNoRow
	if strings.HasPrefix(format, "is inserted") {
		code = pgerr.UniqueViolation
	}
	return pgerr.New(code, "deltaview: join %s: %s key %s %s", j.out.Name, rel.Name, key, fmt.Sprintf(format, args...))
}

// staged returns the step's change of right key k, if any.
func (j *Join) staged(k value.Row) *dimChange {
	if len(j.dchg) <= 8 {
		for i := range j.dchg {
			if value.CompareRows(j.dchg[i].key, k) == 0 {
				return &j.dchg[i]
			}
		}
		return nil
	}
	if i, ok := j.dchgIdx.Get(k); ok {
		return &j.dchg[i]
	}
	return nil
}

// dimNew returns the right's columns of key k after the step's changes;
// hint is the entry of k when the caller knows it.
func (j *Join) dimNew(k value.Row, hint *dimEntry) (value.Row, bool) {
	if dc := j.staged(k); dc != nil {
		return dc.new, dc.newOK
	}
	if hint == nil {
		hint, _ = j.dims.Get(k)
	}
	if hint == nil || hint.cols == nil {
		return nil, false
	}
	return hint.cols, true
}

func (j *Join) Step(in []*delta.Implicit) (*delta.Implicit, error) {
	j.step++
	clear(j.stage.refs)
	j.stage.refs = j.stage.refs[:0]
	clear(j.dchg)
	j.dchg = j.dchg[:0]
	if cap(j.stage.refs) > spare || cap(j.dchg) > spare {
		j.stage.refs, j.dchg = nil, nil // a bulk step's
	}
	out := j.buf.reset(j.out)
	j.rows.reset()

	// The right side, completed from the kept columns.
	clear(j.rfacts)
	j.rfacts = in[1].AppendFacts(j.rfacts[:0])
	if cap(j.rfacts) > spare {
		defer func() { j.rfacts = nil }()
	}
	for _, f := range j.rfacts {
		e, _ := j.dims.Get(f.Key)
		var stored value.Row
		ok := e != nil && e.cols != nil
		if ok {
			stored = e.cols
		}
		switch {
		case f.Before == delta.Absent && ok:
			return nil, j.contradiction(j.right, f.Key, "is inserted but exists")
		case f.Before == delta.Present && !ok:
			return nil, j.contradiction(j.right, f.Key, "is changed or deleted but does not exist")
		}
		if f.Before == delta.Present && f.OldUnknown.Empty() && !j.projects(f.Old, stored) {
			old := make(value.Row, len(j.rcols))
			for i, c := range j.rcols {
				old[i] = f.Old[c]
			}
			return nil, j.contradiction(j.right, f.Key, "has old row %s, but the join holds %s", old, stored)
		}
		dc := dimChange{key: f.Key, e: e, oldOK: ok, old: stored}
		if f.After {
			nr := j.rows.row(len(j.rcols))
			for i, c := range j.rcols {
				if f.NewUnknown.Has(c) {
					if !ok {
						return nil, j.contradiction(j.right, f.Key, "is new but column %s is unknown", j.right.Columns[c])
					}
					nr[i] = stored[i]
				} else {
					nr[i] = f.New[c]
				}
			}
			dc.newOK, dc.new = true, nr
		}
		if dc.oldOK == dc.newOK && (!dc.oldOK || value.CompareRows(dc.old, dc.new) == 0) {
			continue
		}
		j.dchg = append(j.dchg, dc)
	}
	if len(j.dchg) > 8 {
		j.dchgIdx.Clear()
		for i := range j.dchg {
			j.dchgIdx.Set(j.dchg[i].key, i)
		}
	}

	// The left side: existence and the referenced key come from the index.
	left := j.buf.factsOf(in[0])
	for _, f := range left {
		ref, ok := j.refs.Get(f.Key)
		switch {
		case f.Before == delta.Absent && ok:
			return nil, j.contradiction(j.left, f.Key, "is inserted but exists")
		case f.Before == delta.Present && !ok:
			return nil, j.contradiction(j.left, f.Key, "is changed or deleted but does not exist")
		}
		l := delta.Fact{Key: f.Key, After: f.After, New: f.New, NewUnknown: f.NewUnknown}
		var oldDim *dimEntry
		var oldFK value.Row
		if ok {
			// A mark, not state: the right's changes below pass the
			// left row by, and a later step's number is another.
			ref.step = j.step
			if oldDim = ref.dim; oldDim != nil {
				oldFK = oldDim.key
			}
			l.Before = delta.Present
			switch {
			case j.keepLeft:
				l.Old = ref.row
			case f.Before == delta.Present:
				l.Old, l.OldUnknown = j.withFK(f.Old, f.OldUnknown, oldFK)
			default:
				r := j.rows.row(j.left.Arity())
				for i, c := range j.left.Key {
					r[c] = f.Key[i]
				}
				l.Old, l.OldUnknown = j.withFK(r, j.left.NonKey(), oldFK)
			}
		}
		l.Fill()
		var newFK value.Row
		if l.After {
			if !known(j.fk, l.NewUnknown) {
				return nil, j.contradiction(j.left, f.Key, "is new but its foreign key is unknown")
			}
			newFK = j.fkOf(l.New)
			if newFK != nil && oldFK != nil && value.CompareRows(newFK, oldFK) == 0 {
				newFK = oldFK
			}
		}
		g := delta.Fact{Key: f.Key}
		if oldDim != nil && oldDim.cols != nil {
			g.Before, g.Old, g.OldUnknown = delta.Present, j.concat(l.Old, oldDim.cols), l.OldUnknown
		}
		if newFK != nil {
			var hint *dimEntry
			if oldDim != nil && len(newFK) > 0 && &newFK[0] == &oldFK[0] {
				hint = oldDim
			}
			if d, dok := j.dimNew(newFK, hint); dok {
				g.After, g.New, g.NewUnknown = true, j.concat(l.New, d), l.NewUnknown
			}
		}
		if err := out.Add(g); err != nil {
			return nil, err
		}
		if !ok && !l.After {
			continue // a key that neither was nor is
		}
		j.stage.refs = append(j.stage.refs, refChange{key: f.Key, old: ref, gone: !l.After, fk: newFK, row: l.New})
	}

	// Right changes reach the left rows that reference them and did not
	// change themselves. Without KeepLeft such a row is known by its key
	// and foreign key only: its old and new view rows are built at once.
	for i := range j.dchg {
		dc := &j.dchg[i]
		if dc.e == nil {
			continue // no left row references it
		}
		if j.wide == nil {
			for _, n := range dc.e.ints {
				k := j.rows.row(1)
				k[0] = value.FromInt(j.intKind, n)
				if err := j.fanOut(out, dc, k, len(left) > 0); err != nil {
					return nil, err
				}
			}
			continue
		}
		w, nk := j.wide[dc.e], len(j.left.Key)
		for off := 0; off < len(w); off += nk {
			if err := j.fanOut(out, dc, w[off:off+nk:off+nk], len(left) > 0); err != nil {
				return nil, err
			}
		}
	}
	if len(out.Ins) > 1 || len(out.Del) > 1 {
		out.Sort()
	}
	return out, nil
}

// fanOut adds to out the change of the view row of left key k that the
// right change dc makes; mixed tells that the step changes left rows too,
// which pass the right's changes by.
func (j *Join) fanOut(out *delta.Implicit, dc *dimChange, k value.Row, mixed bool) error {
	var r *leftRef
	if mixed || j.keepLeft {
		r, _ = j.refs.Get(k)
		if r.step == j.step {
			return nil
		}
	}
	g := delta.Fact{Key: k}
	if j.keepLeft {
		if dc.oldOK {
			g.Before, g.Old = delta.Present, j.concat(r.row, dc.old)
		}
		if dc.newOK {
			g.After, g.New = true, j.concat(r.row, dc.new)
		}
	} else {
		w := j.out.Arity()
		if dc.oldOK {
			g.Before, g.Old, g.OldUnknown = delta.Present, j.viewRow(j.rows.row(w), k, dc.e.key, dc.old), j.padU
		}
		if dc.newOK {
			g.After, g.New, g.NewUnknown = true, j.viewRow(j.rows.row(w), k, dc.e.key, dc.new), j.padU
		}
	}
	return out.Add(g)
}

// concat returns l ++ r, a row of the step.
func (j *Join) concat(l, r value.Row) value.Row {
	out := j.rows.row(len(l) + len(r))
	copy(out, l)
	copy(out[len(l):], r)
	return out
}

// viewRow fills dst (the output's width, all NULL) with the view row of a
// left row known by its key k and foreign key fk, joined with the right's
// columns d.
func (j *Join) viewRow(dst, k, fk, d value.Row) value.Row {
	for i, c := range j.left.Key {
		dst[c] = k[i]
	}
	for i, c := range j.fk {
		dst[c] = fk[i]
	}
	copy(dst[j.left.Arity():], d)
	return dst
}

// projects reports whether the right row r restricted to rcols is cols.
func (j *Join) projects(r, cols value.Row) bool {
	for i, c := range j.rcols {
		if value.CompareRows(r[c:c+1], cols[i:i+1]) != 0 {
			return false
		}
	}
	return true
}

// fkOf returns the right key a left row references, a row of the step,
// or nil when a foreign key column is NULL.
func (j *Join) fkOf(r value.Row) value.Row {
	for _, c := range j.fk {
		if r[c].IsNull() {
			return nil
		}
	}
	k := j.rows.row(len(j.fk))
	for i, c := range j.fk {
		k[i] = r[c]
	}
	return k
}

// withFK returns a copy of the left row r, a row of the step, with its
// foreign key columns set from fk (NULL when fk is nil) and known.
func (j *Join) withFK(r value.Row, u delta.Cols, fk value.Row) (value.Row, delta.Cols) {
	c := j.rows.row(len(r))
	copy(c, r)
	for i, col := range j.fk {
		if fk == nil {
			c[col] = value.Null
		} else {
			c[col] = fk[i]
		}
	}
	// The step's rows mostly share their unknown set.
	if u.Equal(j.lastU) && j.lastU != nil {
		return c, j.lastFKU
	}
	v := u
	for _, col := range j.fk {
		v = v.Without(col)
	}
	j.lastU, j.lastFKU = u, v
	return c, v
}

// entry returns the entry of right key k, made (with a copy of k) when
// there is none.
func (j *Join) entry(k value.Row) *dimEntry {
	if e, ok := j.dims.Get(k); ok {
		return e
	}
	e := &dimEntry{}
	e.key = keyIn(k, e.kv[:])
	j.dims.Set(e.key, e)
	return e
}

// keyIn returns a copy of k: in kv when it fits.
func keyIn(k value.Row, kv value.Row) value.Row {
	if len(k) == len(kv) {
		copy(kv, k)
		return kv[:len(k):len(k)]
	}
	return slices.Clone(k)
}

// drop removes an entry that no right row and no left row needs.
func (j *Join) drop(e *dimEntry) {
	if e != nil && e.cols == nil && len(e.ints) == 0 && len(j.wide[e]) == 0 {
		j.dims.Delete(e.key)
		delete(j.wide, e)
	}
}

// link adds r's key to e's left keys.
func (j *Join) link(r *leftRef, e *dimEntry) {
	r.dim = e
	k := r.key
	if j.wide == nil && len(k) == 1 && value.KeyIsInt(k[0].Kind()) && (j.intKind == 0 || j.intKind == k[0].Kind()) {
		j.intKind = k[0].Kind()
		r.pos = int32(len(e.ints))
		e.ints = grow(e.ints, 1)
		e.ints[r.pos] = k[0].Int()
		return
	}
	if j.wide == nil {
		j.widen()
	}
	w := j.wide[e]
	r.pos = int32(len(w) / len(k))
	w = grow(w, len(k))
	copy(w[len(w)-len(k):], k)
	j.wide[e] = w
}

// widen moves every entry's left keys from integers to values: a left
// key came that is not an integer of the kind the others are.
func (j *Join) widen() {
	j.wide = map[*dimEntry][]value.Value{}
	j.dims.All(func(_ value.Row, e *dimEntry) bool {
		if len(e.ints) > 0 {
			w := make([]value.Value, len(e.ints))
			for i, n := range e.ints {
				w[i] = value.FromInt(j.intKind, n)
			}
			j.wide[e] = w
		}
		e.ints = nil
		return true
	})
}

// unlink removes r's key from its entry's left keys: the last key takes
// its place.
func (j *Join) unlink(r *leftRef) {
	e := r.dim
	if e == nil {
		return
	}
	r.dim = nil
	if j.wide == nil {
		last := len(e.ints) - 1
		if int(r.pos) != last {
			n := e.ints[last]
			e.ints[r.pos] = n
			j.kbuf[0] = value.FromInt(j.intKind, n)
			moved, _ := j.refs.Get(j.kbuf[:])
			moved.pos = r.pos
		}
		e.ints = shrink(e.ints, last)
		return
	}
	w, nk := j.wide[e], len(r.key)
	last := len(w)/nk - 1
	if int(r.pos) != last {
		k := w[last*nk : (last+1)*nk]
		copy(w[int(r.pos)*nk:], k)
		moved, _ := j.refs.Get(k)
		moved.pos = r.pos
	}
	clear(w[last*nk:])
	j.wide[e] = shrink(w, last*nk)
}

// grow returns s with n more elements, growing its array by a quarter:
// the arrays are many and small, and their slack is state.
func grow[T any](s []T, n int) []T {
	if len(s)+n > cap(s) {
		t := make([]T, len(s), len(s)+n+len(s)/4)
		copy(t, s)
		s = t
	}
	return s[:len(s)+n]
}

// shrink returns s cut to n elements, in a smaller array when it fell
// under a quarter of its own.
func shrink[T any](s []T, n int) []T {
	if n == 0 {
		return nil
	}
	if cap(s) > 8 && n < cap(s)/4 {
		return append(make([]T, 0, 2*n), s[:n]...)
	}
	return s[:n]
}

func (j *Join) Commit() {
	// The right's columns change in their entries: the step's rows that
	// read them are copies.
	for i := range j.dchg {
		dc := &j.dchg[i]
		e := dc.e
		if !dc.newOK {
			if e != nil {
				e.cols = nil
				j.drop(e)
			}
			continue
		}
		if e == nil {
			e = j.entry(dc.key)
		}
		if e.cols != nil && len(e.cols) == len(dc.new) {
			copy(e.cols, dc.new)
		} else {
			e.cols = slices.Clone(dc.new)
		}
	}
	for i := range j.stage.refs {
		c := &j.stage.refs[i]
		r := c.old
		if r == nil {
			r = &leftRef{}
			r.key = keyIn(c.key, r.kv[:]) // not a slice of a row the join does not keep
			j.refs.Set(r.key, r)
		} else if c.gone {
			e := r.dim
			j.unlink(r)
			j.drop(e)
			j.refs.Delete(r.key)
			continue
		}
		if r.dim == nil || c.fk == nil || value.CompareRows(r.dim.key, c.fk) != 0 {
			e := r.dim
			j.unlink(r)
			j.drop(e)
			if c.fk != nil {
				j.link(r, j.entry(c.fk))
			}
		}
		if j.keepLeft {
			if len(r.row) == len(c.row) {
				copy(r.row, c.row) // the step's rows that read it are copies
			} else {
				r.row = slices.Clone(c.row)
			}
		}
	}
	j.Abort()
}

func (j *Join) Abort() {
	clear(j.stage.refs)
	j.stage.refs = j.stage.refs[:0]
	clear(j.dchg)
	j.dchg = j.dchg[:0]
}
