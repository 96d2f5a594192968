package dataflow

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
	"github.com/tidwall/btree"
)

// Arrangement keeps an indexed Z-set: the rows of one input with their
// nonzero weights, indexed by a key computed from each row, and ordered
// within a key by optional sort expressions and then by the row. It serves
// joins (the rows with a given key), and MIN/MAX and top-k refills (the
// rows of a key, or of everything when the key is empty, in order).
//
// # Representation
//
// A hash map from each key's encoding (value.AppendKey of the key values)
// to a run: the rows of that key, in the order of their ords, the
// memcomparable encoding (value.AppendKey) of the sort values (bytes
// inverted for a descending sort expression) followed by a prefix of the
// row's own encoding, and then of the rows (zset.CompareRows, so -0 and 0,
// 1.5 and 1.50, are two entries, as in a Z-set). Reaching a key costs a
// hash and a cache miss or two however many keys there are, where one tree
// over all rows would cost a cache miss per level; a run is a sorted slice
// while small and a B-tree (github.com/tidwall/btree) beyond (see run). An
// entry keeps its ord's first bytes inline, so searching a run compares
// bytes in place; it costs two pointers (a long ord's bytes, the row's
// backing array) and no allocation besides a long ord. Reading every row
// in key order (Scan with a nil key) sorts the keys. The representation is
// private: readers see rows and weights through Lookup and Scan.
//
// # Ownership and sharing
//
// An arrangement has exactly one owner, the party that calls Stage, Commit
// and Abort: an op.Arrange node in a circuit (which passes its input on), a
// join keeping a private index, or the engine for a base table's
// arrangement shared by several views. Claim records the owner and panics on
// a second claim. Any number of readers (joins, aggregates, in the same
// circuit or in other circuits) hold the *Arrangement and only call its
// read methods. Retain and Release count the views that use it, so that its
// bytes can be split among them and it can be dropped with the last one.
//
// Readers always see the committed state. Since the owner stages during a
// step and commits only when the whole step (every circuit of the
// transaction) commits, every reader in a step sees the state before that
// step: exactly what the join's delta rule Δl⋈R + L⋈Δr + Δl⋈Δr requires.
//
// The owner must stage what the arrangement's readers take as the
// arrangement's input: a join reading an arrangement as its left index must
// be fed, as its left input, the same batches the owner stages.
//
// An Arrangement is not safe for concurrent use with its owner's Stage or
// Commit; concurrent readers are safe between commits.
type Arrangement struct {
	spec   ArrangementSpec
	runs   map[string]*run // encoded key → its rows
	n      int             // distinct rows held
	bytes  int64           // RowBytes of the rows, allocated bytes of the ords and keys, the runs
	rowsB  int64           // RowBytes of the rows alone
	total  int64           // sum of weights
	owned  bool
	refs   int
	staged []stagedEntry
	arena  []byte         // the staged entries' ords, back to back
	isSet  bool           // a Stage is pending
	hint   btree.PathHint // for run B-trees, kept here so as not to allocate one per change
}

// ArrangementSpec describes what an arrangement indexes.
type ArrangementSpec struct {
	// Name names the arranged input for EXPLAIN ("left", "orders").
	Name string
	// Columns names the arranged row's columns for EXPLAIN (optional).
	Columns []string
	// Key is the key, expressions over the row. Two arrangements looked up
	// with each other's keys must have keys of the same types (the binder
	// casts both sides to a common type). Empty: every row has the same,
	// empty key.
	Key []expr.Expr
	// Sort orders the rows within a key (before the row itself).
	Sort []SortKey
	// DropNullKeys leaves out rows whose key has a NULL component; joins,
	// under which such rows never match, set it to save the memory.
	DropNullKeys bool
}

// SortKey is one sort expression, as ORDER BY has it: Desc reverses the
// order of values, and NullsFirst puts NULL before every value (otherwise
// after), whatever the direction. PostgreSQL's defaults are ASC NULLS LAST
// and DESC NULLS FIRST; callers set NullsFirst explicitly.
type SortKey struct {
	Expr       expr.Expr
	Desc       bool
	NullsFirst bool // NULL before every value, in either direction
}

// arrEntry is one row of a run with its weight and its ord: the encoded
// sort values and a prefix of the row. An ord of up to inlineOrd bytes is
// kept in the entry itself, so that searching a run compares bytes in place
// instead of following a pointer per comparison (a cache miss each in a big
// run), and costs no allocation per row; a longer ord keeps its first
// bytes inline and the whole in long.
type arrEntry struct {
	pre  [inlineOrd / 8]uint64 // the ord's first bytes, big-endian, zero-padded
	n    uint8                 // the ord's length when inline; longOrd otherwise
	long string
	row  value.Row
	w    int64
}

const (
	inlineOrd = 40
	longOrd   = 255
)

// makeEntry returns an entry for ord, viewing a long ord's bytes (see
// keepEntry).
func makeEntry(ord []byte, row value.Row, w int64) arrEntry {
	e := arrEntry{row: row, w: w}
	var buf [inlineOrd]byte
	copy(buf[:], ord)
	for i := range e.pre {
		e.pre[i] = binary.BigEndian.Uint64(buf[i*8:])
	}
	if len(ord) <= inlineOrd {
		e.n = uint8(len(ord))
	} else {
		e.n, e.long = longOrd, unsafeString(ord)
	}
	return e
}

// ord returns the entry's whole ord, using buf for an inline one.
func (e *arrEntry) ord(buf *[inlineOrd]byte) string {
	if e.n == longOrd {
		return e.long
	}
	for i, x := range e.pre {
		binary.BigEndian.PutUint64(buf[i*8:], x)
	}
	return unsafeString(buf[:e.n])
}

// compareOrd orders entries by ord, bytewise.
func compareOrd(a, b *arrEntry) int {
	for i := range a.pre {
		if a.pre[i] != b.pre[i] {
			if a.pre[i] < b.pre[i] {
				return -1
			}
			return 1
		}
	}
	if a.n != longOrd && b.n != longOrd {
		return int(a.n) - int(b.n)
	}
	var x, y [inlineOrd]byte
	return strings.Compare(a.ord(&x), b.ord(&y))
}

type stagedEntry struct {
	off, mid, end int // the key is arena[off:mid], the ord arena[mid:end]
	row           value.Row
	w             int64
}

func lessArr(a, b arrEntry) bool {
	if c := compareOrd(&a, &b); c != 0 {
		return c < 0
	}
	return zset.CompareRows(a.row, b.row) < 0
}

// arrEntryOverhead is an entry's cost in the tree beyond its row and ord:
// the entry itself, plus one entry's size of node slack (see the same
// reasoning for counts in package op).
const arrEntryOverhead = 2*int64(unsafe.Sizeof(arrEntry{})) - rowHeaderBytes + 2

// NewArrangement returns an empty arrangement, unowned and unreferenced.
func NewArrangement(spec ArrangementSpec) *Arrangement {
	return &Arrangement{
		spec: spec,
		runs: map[string]*run{},
	}
}

// Spec returns what the arrangement indexes.
func (a *Arrangement) Spec() ArrangementSpec { return a.spec }

// Claim makes the caller the arrangement's owner, the only party that may
// call Stage, Commit and Abort. It panics if the arrangement is owned.
func (a *Arrangement) Claim() {
	if a.owned {
		panic(fmt.Sprintf("dataflow: arrangement %s already has an owner", a.Describe()))
	}
	a.owned = true
}

// Retain counts one more view using the arrangement.
func (a *Arrangement) Retain() { a.refs++ }

// Release counts one view less and returns how many remain; at zero the
// owner may drop the arrangement.
func (a *Arrangement) Release() int {
	if a.refs == 0 {
		panic("dataflow: arrangement released more often than retained")
	}
	a.refs--
	return a.refs
}

// Refs returns the number of views using the arrangement.
func (a *Arrangement) Refs() int { return a.refs }

// AppendKey appends to buf the encoding of row's key (the key expressions
// over row), as Lookup and LookupEncoded take it, and reports whether a
// component is NULL (such a key matches nothing under SQL's '=').
func (a *Arrangement) AppendKey(buf []byte, row value.Row) ([]byte, bool, error) {
	null := false
	for _, x := range a.spec.Key {
		v, err := x.Eval(row)
		if err != nil {
			return buf, false, err
		}
		null = null || v.IsNull()
		buf = value.AppendKey(buf, v)
	}
	return buf, null, nil
}

// appendOrd appends row's key encoding, then its ord: the sort encoding
// and as much of the row's own encoding as fits inline. It returns where
// the ord starts.
func (a *Arrangement) appendOrd(buf []byte, row value.Row) ([]byte, int, bool, error) {
	buf, null, err := a.AppendKey(buf, row)
	if err != nil {
		return buf, 0, false, err
	}
	mid := len(buf)
	for _, s := range a.spec.Sort {
		v, err := s.Expr.Eval(row)
		if err != nil {
			return buf, 0, false, err
		}
		if v.IsNull() {
			// NULL goes first or last whatever the direction: 0 is below
			// every kind's tag and its complement, 0xFF above them.
			if s.NullsFirst {
				buf = append(buf, 0)
			} else {
				buf = append(buf, 0xFF)
			}
			continue
		}
		start := len(buf)
		buf = value.AppendKey(buf, v)
		if s.Desc {
			for i := start; i < len(buf); i++ {
				buf[i] = ^buf[i]
			}
		}
	}
	// Then as much of the row's own encoding as still fits inline: rows
	// then compare by bytes in place, and only a tie on that prefix
	// compares the rows themselves. The encoding preserves order
	// (value.AppendKey), so a truncated prefix orders rows as the rows
	// compare.
	if len(buf)-mid < inlineOrd {
		buf = value.AppendRowKey(buf, row)
		if len(buf)-mid > inlineOrd {
			buf = buf[:mid+inlineOrd]
		}
	}
	return buf, mid, null, nil
}

// Stage computes the keys of delta's rows and keeps them to apply at
// Commit. Only the owner calls it, at most once per step; delta must stay
// valid and unmodified until Commit or Abort. Stage changes nothing readers
// see. On error nothing is staged.
func (a *Arrangement) Stage(delta zset.ZSet) error {
	if a.isSet {
		panic(fmt.Sprintf("dataflow: arrangement %s staged twice in one step", a.Describe()))
	}
	a.staged = a.staged[:0]
	a.arena = a.arena[:0]
	for _, e := range delta {
		off := len(a.arena)
		var mid int
		var null bool
		var err error
		a.arena, mid, null, err = a.appendOrd(a.arena, e.Row)
		if err != nil {
			a.Abort()
			return err
		}
		if null && a.spec.DropNullKeys {
			a.arena = a.arena[:off]
			continue
		}
		a.staged = append(a.staged, stagedEntry{off: off, mid: mid, end: len(a.arena), row: e.Row, w: e.W})
	}
	a.isSet = true
	return nil
}

// Commit applies the staged delta. Big deltas (a cold start) are applied in
// the order of keys and entries.
func (a *Arrangement) Commit() {
	st, arena := a.staged, a.arena
	if len(st) > 64 {
		slices.SortFunc(st, func(x, y stagedEntry) int {
			if c := strings.Compare(unsafeString(arena[x.off:x.end]), unsafeString(arena[y.off:y.end])); c != 0 {
				return c
			}
			return zset.CompareRows(x.row, y.row)
		})
	}
	var r *run
	var key []byte
	for i := range st {
		s := &st[i]
		if k := arena[s.off:s.mid]; r == nil || string(k) != string(key) {
			key, r = k, a.runs[string(k)]
			if r == nil {
				r = &run{}
				a.runs[string(k)] = r
				a.bytes += runOverhead + AllocBytes(len(k))
			}
		}
		e := makeEntry(arena[s.mid:s.end], s.row, s.w)
		a.total += s.w
		switch before := r.add(e, &a.hint); {
		case before == 0:
			a.n++
			a.bytes += RowBytes(s.row) + AllocBytes(len(e.long))
			a.rowsB += RowBytes(s.row)
		case before+s.w == 0:
			a.n--
			a.bytes -= RowBytes(s.row) + AllocBytes(len(e.long))
			a.rowsB -= RowBytes(s.row)
			if r.len() == 0 {
				delete(a.runs, string(key))
				a.bytes -= runOverhead + AllocBytes(len(key))
				r = nil
			}
		}
	}
	a.Abort()
}

// Abort drops the staged delta.
func (a *Arrangement) Abort() {
	clear(a.staged)
	if cap(a.staged) > maxReusedBatch {
		a.staged, a.arena = nil, nil
	}
	a.staged = a.staged[:0]
	a.arena = a.arena[:0]
	a.isSet = false
}

// unsafeString views b as a string without copying; the string must not
// outlive b's contents.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// AllocBytes approximates what the runtime allocates for n bytes: Go's
// small size classes step by 8 up to 16, then by 16 up to 128 (and more
// coarsely above).
func AllocBytes(n int) int64 {
	switch {
	case n == 0:
		return 0
	case n <= 8:
		return 8
	case n <= 128:
		return int64(n+15) &^ 15
	}
	return int64(n+31) &^ 31
}

// Lookup calls fn for each committed row whose key equals key (compared as
// value.Compare does, so a NULL component equals NULL here: callers with
// SQL '=' semantics skip NULL keys), in order, until fn returns false. It
// encodes key into a new buffer; LookupEncoded with a reused buffer does
// not allocate.
func (a *Arrangement) Lookup(key value.Row, fn func(row value.Row, w int64) bool) {
	a.LookupEncoded(value.AppendRowKey(nil, key), fn)
}

// LookupEncoded is Lookup with the key encoded by AppendKey (or by
// value.AppendRowKey of the key values). fn must not keep key.
func (a *Arrangement) LookupEncoded(key []byte, fn func(row value.Row, w int64) bool) {
	a.scan(key, false, fn)
}

// Scan calls fn for each committed row of key in the order of the sort
// expressions then the row (reversed when desc), until fn returns false. A
// nil key scans every row, in key order first.
func (a *Arrangement) Scan(key value.Row, desc bool, fn func(row value.Row, w int64) bool) {
	var enc []byte
	if key != nil {
		enc = value.AppendRowKey(nil, key)
	}
	a.scan(enc, desc, fn)
}

func (a *Arrangement) scan(key []byte, desc bool, fn func(row value.Row, w int64) bool) {
	if key != nil || len(a.spec.Key) == 0 {
		if r := a.runs[string(key)]; r != nil {
			r.scan(desc, fn)
		}
		return
	}
	keys := make([]string, 0, len(a.runs))
	for k := range a.runs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if desc {
		slices.Reverse(keys)
	}
	for _, k := range keys {
		if !a.runs[k].scan(desc, fn) {
			return
		}
	}
}

// Weight returns row's committed weight, 0 when absent.
func (a *Arrangement) Weight(row value.Row) int64 {
	var stack [64]byte
	ord, mid, _, err := a.appendOrd(stack[:0], row)
	if err != nil {
		// The row was staged, and so evaluated, before; an error now means
		// it was never held.
		return 0
	}
	r := a.runs[string(ord[:mid])]
	if r == nil {
		return 0
	}
	p := makeEntry(ord[mid:], row, 0)
	e, _ := r.get(&p)
	return e.w
}

// Len returns the number of distinct rows held.
func (a *Arrangement) Len() int { return a.n }

// Total returns the sum of the weights held.
func (a *Arrangement) Total() int64 { return a.total }

// State reports the rows held and their bytes: the rows, the encoded keys
// and the tree's per-entry overhead.
func (a *Arrangement) State() StateSize {
	n := int64(a.n)
	return StateSize{Rows: n, Bytes: a.bytes + n*arrEntryOverhead}
}

// Describe says what the arrangement holds, for EXPLAIN:
// "index of orders on (#1) with columns (id, cust)".
func (a *Arrangement) Describe() string {
	var b strings.Builder
	b.WriteString("index of ")
	if a.spec.Name != "" {
		b.WriteString(a.spec.Name)
	} else {
		b.WriteString("input")
	}
	if len(a.spec.Key) == 0 {
		b.WriteString(" (no key)")
	} else {
		b.WriteString(" on (")
		for i, x := range a.spec.Key {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(x.String())
		}
		b.WriteByte(')')
	}
	if len(a.spec.Sort) > 0 {
		b.WriteString(" ordered by ")
		for i, s := range a.spec.Sort {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(s.Expr.String())
			if s.Desc {
				b.WriteString(" DESC")
			}
			switch {
			case s.NullsFirst && !s.Desc:
				b.WriteString(" NULLS FIRST")
			case !s.NullsFirst && s.Desc:
				b.WriteString(" NULLS LAST")
			}
		}
	}
	if len(a.spec.Columns) > 0 {
		b.WriteString(" with columns (")
		b.WriteString(strings.Join(a.spec.Columns, ", "))
		b.WriteByte(')')
	}
	return b.String()
}

// String prints the committed rows as a Z-set prints, in the arrangement's
// order.
func (a *Arrangement) String() string {
	var b strings.Builder
	a.scan(nil, false, func(row value.Row, w int64) bool {
		b.WriteString(zset.ZSet{{Row: row, W: w}}.String())
		return true
	})
	return b.String()
}
