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
// A B-tree (github.com/tidwall/btree) of inline entries {ord, row, w}, where
// ord is the memcomparable encoding (value.AppendKey) of the key values
// followed by the sort values (bytes inverted for a descending sort
// expression). Entries are ordered by ord, then by zset.CompareRows of the
// row (so -0 and 0, 1.5 and 1.50, are two entries, as in a Z-set). An entry costs two pointers (the ord string's bytes and the row's
// backing array) and no allocation besides the ord string; nodes hold up to
// 63 entries. The rows of a key are one contiguous range found in O(log n)
// by a byte comparison of the encoded key, and the same tree gives the
// ordered scans MIN/MAX and top-k need, which a hash of key → slice of rows
// would not (it would also cost a slice header and a pointer per key, and
// rehashing pauses). The representation is private: readers see rows and
// weights through Lookup and Scan.
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
	tr     *btree.BTreeG[arrEntry]
	bytes  int64 // RowBytes of the rows and allocated bytes of the ords
	rowsB  int64 // RowBytes of the rows alone
	total  int64 // sum of weights
	owned  bool
	refs   int
	staged []stagedEntry
	arena  []byte // the staged entries' ords, back to back
	isSet  bool   // a Stage is pending
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

// arrEntry is one row of the index with its weight and its ord: the
// encoded key and sort values. An ord of up to inlineOrd bytes is kept in
// the entry itself, so that searching the tree compares bytes in the node
// instead of following a pointer per comparison (a cache miss each in a big
// index), and costs no allocation per row; longer ords keep their first
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

// makeEntry returns an entry for ord; a long ord is copied when copyLong
// is set (the entry outlives ord's bytes) and viewed otherwise.
func makeEntry(ord []byte, row value.Row, w int64, copyLong bool) arrEntry {
	e := arrEntry{row: row, w: w}
	var buf [inlineOrd]byte
	copy(buf[:], ord)
	for i := range e.pre {
		e.pre[i] = binary.BigEndian.Uint64(buf[i*8:])
	}
	switch {
	case len(ord) <= inlineOrd:
		e.n = uint8(len(ord))
	case copyLong:
		e.n, e.long = longOrd, string(ord)
	default:
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
	off, end int // ord is arena[off:end]
	row      value.Row
	w        int64
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
		tr:   btree.NewBTreeGOptions(lessArr, btree.Options{NoLocks: true}),
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

// appendOrd appends row's key and sort encoding.
func (a *Arrangement) appendOrd(buf []byte, row value.Row) ([]byte, bool, error) {
	base := len(buf)
	buf, null, err := a.AppendKey(buf, row)
	if err != nil {
		return buf, false, err
	}
	for _, s := range a.spec.Sort {
		v, err := s.Expr.Eval(row)
		if err != nil {
			return buf, false, err
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
	// Then as much of the row's own encoding as still fits inline: rows of
	// one key then compare by bytes in the tree's nodes, and only a tie on
	// that prefix compares the rows themselves. The encoding preserves
	// order (value.AppendKey), so a truncated prefix orders rows as the
	// rows compare.
	if len(buf)-base < inlineOrd {
		buf = value.AppendRowKey(buf, row)
		if len(buf)-base > inlineOrd {
			buf = buf[:base+inlineOrd]
		}
	}
	return buf, null, nil
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
		var null bool
		var err error
		a.arena, null, err = a.appendOrd(a.arena, e.Row)
		if err != nil {
			a.Abort()
			return err
		}
		if null && a.spec.DropNullKeys {
			a.arena = a.arena[:off]
			continue
		}
		a.staged = append(a.staged, stagedEntry{off: off, end: len(a.arena), row: e.Row, w: e.W})
	}
	a.isSet = true
	return nil
}

// Commit applies the staged delta. Big deltas (a cold start) are applied in
// the tree's order.
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
	var hint btree.PathHint
	for i := range st {
		s := &st[i]
		probe := makeEntry(arena[s.off:s.end], s.row, 0, false)
		a.total += s.w
		old, ok := a.tr.GetHint(probe, &hint)
		switch {
		case !ok:
			probe = makeEntry(arena[s.off:s.end], s.row, s.w, true)
			a.tr.SetHint(probe, &hint)
			a.bytes += RowBytes(s.row) + allocBytes(len(probe.long))
			a.rowsB += RowBytes(s.row)
		case old.w+s.w == 0:
			a.tr.DeleteHint(old, &hint)
			a.bytes -= RowBytes(old.row) + allocBytes(len(old.long))
			a.rowsB -= RowBytes(old.row)
		default:
			old.w += s.w
			a.tr.SetHint(old, &hint)
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

// allocBytes approximates what the runtime allocates for n bytes: Go's
// small size classes step by 8 up to 16, then by 16 up to 128 (and more
// coarsely above).
func allocBytes(n int) int64 {
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

func (a *Arrangement) scan(prefix []byte, desc bool, fn func(row value.Row, w int64) bool) {
	p := unsafeString(prefix)
	var buf [inlineOrd]byte
	if !desc {
		a.tr.Ascend(makeEntry(prefix, nil, 0, false), func(e arrEntry) bool {
			if !strings.HasPrefix(e.ord(&buf), p) {
				return false
			}
			return fn(e.row, e.w)
		})
		return
	}
	iter := func(e arrEntry) bool {
		if ord := e.ord(&buf); !strings.HasPrefix(ord, p) {
			return ord > p // past the key's range: skip; before it: stop
		}
		return fn(e.row, e.w)
	}
	// Start at the successor of the prefix: its last byte below 0xFF,
	// incremented, with what follows dropped.
	i := len(prefix) - 1
	for i >= 0 && prefix[i] == 0xFF {
		i--
	}
	if i < 0 {
		a.tr.Reverse(iter)
		return
	}
	succ := make([]byte, i+1)
	copy(succ, prefix[:i+1])
	succ[i]++
	a.tr.Descend(makeEntry(succ, nil, 0, false), iter)
}

// Weight returns row's committed weight, 0 when absent.
func (a *Arrangement) Weight(row value.Row) int64 {
	var stack [64]byte
	ord, _, err := a.appendOrd(stack[:0], row)
	if err != nil {
		// The row was staged, and so evaluated, before; an error now means
		// it was never held.
		return 0
	}
	e, _ := a.tr.Get(makeEntry(ord, row, 0, false))
	return e.w
}

// Len returns the number of distinct rows held.
func (a *Arrangement) Len() int { return a.tr.Len() }

// Total returns the sum of the weights held.
func (a *Arrangement) Total() int64 { return a.total }

// State reports the rows held and their bytes: the rows, the encoded keys
// and the tree's per-entry overhead.
func (a *Arrangement) State() StateSize {
	n := int64(a.tr.Len())
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
	a.tr.Scan(func(e arrEntry) bool {
		b.WriteString(zset.ZSet{{Row: e.row, W: e.w}}.String())
		return true
	})
	return b.String()
}
