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

// Join keeps, for every left row, the key it references (left key →
// referenced key) and the inverse index (referenced key → left keys), and
// for every right row the right's columns the view reads (right key →
// those columns); with KeepLeft also the left row itself. It is the inner
// join of the left input with the right relation on left.FK = right's
// key, keyed by the left key: each left row meets at most one right row.
//
// The left keys' index is what fans a right change out to the view rows it
// touches, and lets a left change that omits its old row (or even whether
// it existed) be stated exactly; the right's columns are what an inserted
// or re-pointed left row is joined with. Left rows are not kept (unless
// KeepLeft), so a right change reaches the view as partial updates that
// know only the right's columns. See docs/partial-deltas.md, "Join".
type Join struct {
	left, right, out *delta.Schema
	fk               []int // left columns holding the referenced right key, in right key order
	rcols            []int // right columns the output carries
	keepLeft         bool

	refs  map[string]*leftRef            // left key → its reference
	users map[string]map[string]*leftRef // referenced right key → left keys and their references
	dims  map[string]value.Row           // right key → right's rcols
	stage struct {
		refs  map[string]*leftRef // nil: the left row leaves
		users []userChange
		dims  map[string]value.Row // nil: the right row leaves
	}
	// Reused from one step to the next: the right changes and their
	// index by right key, the left keys a step changes, key bytes.
	rfacts  []delta.Fact
	dchg    []dimChange
	dchgIdx map[string]int
	handled map[string]bool
	kbuf    []byte
	// padU is the unknown set of a left row known only by its key and
	// foreign key (every other left column); a Cols is immutable.
	padU delta.Cols
	buf  buffers
	rows arena // the output's rows
}

type leftRef struct {
	key   value.Row // the left key
	fk    value.Row // the referenced right key; nil when a FK column is NULL
	fkEnc string    // fk encoded; "" when fk is nil
	row   value.Row // the left row, with KeepLeft
}

type userChange struct {
	fk, key string
	add     bool
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
	j := &Join{left: left, right: right, out: out, fk: fk, rcols: rcols, keepLeft: keepLeft,
		refs: map[string]*leftRef{}, users: map[string]map[string]*leftRef{}, dims: map[string]value.Row{}}
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

func (j *Join) State() dataflow.StateSize {
	var s dataflow.StateSize
	for k, r := range j.refs {
		s.Rows++
		s.Bytes += mapEntryBytes + int64(len(k)) + dataflow.RowBytes(r.key) + dataflow.RowBytes(r.fk) + 3*8
		if r.row != nil {
			s.Bytes += dataflow.RowBytes(r.row)
		}
	}
	for k, us := range j.users {
		s.Bytes += mapEntryBytes + int64(len(k))
		for u := range us {
			s.Bytes += mapEntryBytes + int64(len(u))
		}
	}
	for k, r := range j.dims {
		s.Rows++
		s.Bytes += mapEntryBytes + int64(len(k)) + dataflow.RowBytes(r)
	}
	return s
}

// dimChange is a right key's row before and after, restricted to rcols.
type dimChange struct {
	key          string // encoded right key
	oldOK, newOK bool
	old, new     value.Row
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

func (j *Join) Step(in []*delta.Implicit) (*delta.Implicit, error) {
	j.stage.refs = resetMap(j.stage.refs)
	j.stage.users = j.stage.users[:0]
	j.stage.dims = resetMap(j.stage.dims)
	j.dchgIdx = resetMap(j.dchgIdx)
	j.handled = resetMap(j.handled)
	clear(j.dchg)
	j.dchg = j.dchg[:0]
	out := j.buf.reset(j.out)
	j.rows.reset()

	// The right side, completed from the kept columns.
	clear(j.rfacts)
	j.rfacts = in[1].AppendFacts(j.rfacts[:0])
	if cap(j.rfacts) > spare {
		defer func() { j.rfacts = nil }()
	}
	for _, f := range j.rfacts {
		j.kbuf = value.AppendRowKey(j.kbuf[:0], f.Key)
		stored, ok := j.dims[string(j.kbuf)]
		switch {
		case f.Before == delta.Absent && ok:
			return nil, j.contradiction(j.right, f.Key, "is inserted but exists")
		case f.Before == delta.Present && !ok:
			return nil, j.contradiction(j.right, f.Key, "is changed or deleted but does not exist")
		}
		if f.Before == delta.Present && f.OldUnknown.Empty() && value.CompareRows(j.project(f.Old), stored) != 0 {
			return nil, j.contradiction(j.right, f.Key, "has old row %s, but the join holds %s", f.Old, stored)
		}
		dc := dimChange{oldOK: ok, old: stored}
		if f.After {
			nr := make(value.Row, len(j.rcols))
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
		dc.key = string(j.kbuf)
		j.dchgIdx[dc.key] = len(j.dchg)
		j.dchg = append(j.dchg, dc)
		j.stage.dims[dc.key] = dc.new
	}
	dimNew := func(k []byte) (value.Row, bool) {
		if i, ok := j.dchgIdx[string(k)]; ok {
			return j.dchg[i].new, j.dchg[i].newOK
		}
		r, ok := j.dims[string(k)]
		return r, ok
	}

	// The left side: existence and the referenced key come from the index.
	for _, f := range j.buf.factsOf(in[0]) {
		k := enc(f.Key)
		j.handled[k] = true
		ref, ok := j.refs[k]
		switch {
		case f.Before == delta.Absent && ok:
			return nil, j.contradiction(j.left, f.Key, "is inserted but exists")
		case f.Before == delta.Present && !ok:
			return nil, j.contradiction(j.left, f.Key, "is changed or deleted but does not exist")
		}
		l := delta.Fact{Key: f.Key, After: f.After, New: f.New, NewUnknown: f.NewUnknown}
		if ok {
			l.Before = delta.Present
			switch {
			case j.keepLeft:
				l.Old = ref.row
			case f.Before == delta.Present:
				l.Old, l.OldUnknown = j.withFK(f.Old, f.OldUnknown, ref.fk)
			default:
				r, u := j.left.Pad(f.Key)
				l.Old, l.OldUnknown = j.withFK(r, u, ref.fk)
			}
		}
		l.Fill()
		var newFK value.Row
		if l.After {
			if !known(j.fk, l.NewUnknown) {
				return nil, j.contradiction(j.left, f.Key, "is new but its foreign key is unknown")
			}
			newFK = j.fkOf(l.New)
		}
		g := delta.Fact{Key: f.Key}
		var oldFK string
		if ok && ref.fk != nil {
			j.kbuf = value.AppendRowKey(j.kbuf[:0], ref.fk)
			if d, dok := j.dims[string(j.kbuf)]; dok {
				g.Before, g.Old, g.OldUnknown = delta.Present, j.concat(l.Old, d), l.OldUnknown
			}
			oldFK = ref.fkEnc
		}
		newEnc := ""
		if newFK != nil {
			j.kbuf = value.AppendRowKey(j.kbuf[:0], newFK)
			if d, dok := dimNew(j.kbuf); dok {
				g.After, g.New, g.NewUnknown = true, j.concat(l.New, d), l.NewUnknown
			}
			newEnc = oldFK
			if newEnc != string(j.kbuf) {
				newEnc = string(j.kbuf)
			}
		}
		if err := out.Add(g); err != nil {
			return nil, err
		}
		// Stage the index.
		if !l.After {
			j.stage.refs[k] = nil
			if oldFK != "" {
				j.stage.users = append(j.stage.users, userChange{fk: oldFK, key: k})
			}
			continue
		}
		key := f.Key
		if ok {
			key = ref.key
		} else {
			key = slices.Clone(key) // not a slice of a row the join does not keep
		}
		nr := &leftRef{key: key, fk: newFK, fkEnc: newEnc}
		if j.keepLeft {
			nr.row = slices.Clone(l.New) // it may live only for the step
		}
		j.stage.refs[k] = nr
		if oldFK != newEnc {
			if oldFK != "" {
				j.stage.users = append(j.stage.users, userChange{fk: oldFK, key: k})
			}
			if newEnc != "" {
				j.stage.users = append(j.stage.users, userChange{fk: newEnc, key: k, add: true})
			}
		}
	}

	// Right changes reach the left rows that reference them and did not
	// change themselves. Without KeepLeft such a row is known by its key
	// and foreign key only: its old and new view rows are built at once.
	w := j.out.Arity()
	for i := range j.dchg {
		dc := &j.dchg[i]
		for lk, ref := range j.users[dc.key] {
			if len(j.handled) > 0 && j.handled[lk] {
				continue
			}
			g := delta.Fact{Key: ref.key}
			if j.keepLeft {
				if dc.oldOK {
					g.Before, g.Old = delta.Present, j.concat(ref.row, dc.old)
				}
				if dc.newOK {
					g.After, g.New = true, j.concat(ref.row, dc.new)
				}
			} else {
				if dc.oldOK {
					g.Before, g.Old, g.OldUnknown = delta.Present, j.viewRow(j.rows.row(w), ref, dc.old), j.padU
				}
				if dc.newOK {
					g.After, g.New, g.NewUnknown = true, j.viewRow(j.rows.row(w), ref, dc.new), j.padU
				}
			}
			if err := out.Add(g); err != nil {
				return nil, err
			}
		}
	}
	out.Sort()
	return out, nil
}

// concat returns l ++ r, a row of the step.
func (j *Join) concat(l, r value.Row) value.Row {
	out := j.rows.row(len(l) + len(r))
	copy(out, l)
	copy(out[len(l):], r)
	return out
}

// viewRow fills dst (the output's width, all NULL) with the view row of a
// left row known by its key and foreign key, joined with the right's
// columns d.
func (j *Join) viewRow(dst value.Row, ref *leftRef, d value.Row) value.Row {
	for i, c := range j.left.Key {
		dst[c] = ref.key[i]
	}
	for i, c := range j.fk {
		if ref.fk != nil {
			dst[c] = ref.fk[i]
		}
	}
	copy(dst[j.left.Arity():], d)
	return dst
}

// project restricts a right row to rcols.
func (j *Join) project(r value.Row) value.Row {
	out := make(value.Row, len(j.rcols))
	for i, c := range j.rcols {
		out[i] = r[c]
	}
	return out
}

// fkOf returns the right key a left row references, or nil when a
// foreign key column is NULL.
func (j *Join) fkOf(r value.Row) value.Row {
	k := make(value.Row, len(j.fk))
	for i, c := range j.fk {
		if r[c].IsNull() {
			return nil
		}
		k[i] = r[c]
	}
	return k
}

// withFK returns a copy of the left row r with its foreign key columns set
// from fk (NULL when fk is nil) and known.
func (j *Join) withFK(r value.Row, u delta.Cols, fk value.Row) (value.Row, delta.Cols) {
	r = append(value.Row(nil), r...)
	for i, c := range j.fk {
		if fk == nil {
			r[c] = value.Null
		} else {
			r[c] = fk[i]
		}
		u = u.Without(c)
	}
	return r, u
}

func (j *Join) Commit() {
	if len(j.stage.refs)+len(j.stage.users)+len(j.stage.dims) == 0 {
		return
	}
	for k, r := range j.stage.refs {
		if r == nil {
			delete(j.refs, k)
		} else {
			j.refs[k] = r
		}
	}
	for _, c := range j.stage.users {
		s := j.users[c.fk]
		if c.add {
			if s == nil {
				s = map[string]*leftRef{}
				j.users[c.fk] = s
			}
			s[c.key] = nil // set below
		} else {
			delete(s, c.key)
			if len(s) == 0 {
				delete(j.users, c.fk)
			}
		}
	}
	// A left key's users entry points to its current reference.
	for k, r := range j.stage.refs {
		if r != nil && r.fkEnc != "" {
			j.users[r.fkEnc][k] = r
		}
	}
	for k, r := range j.stage.dims {
		if r == nil {
			delete(j.dims, k)
		} else {
			j.dims[k] = r
		}
	}
	j.Abort()
}

func (j *Join) Abort() {
	j.stage.refs = resetMap(j.stage.refs)
	j.stage.dims = resetMap(j.stage.dims)
	clear(j.stage.users)
	j.stage.users = j.stage.users[:0]
}
