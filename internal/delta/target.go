package delta

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/deltaview/deltaview/internal/intmap"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Code of the error Target.Apply returns when a change needs a key that
// the target does not hold (PostgreSQL's no_data_found).
const CodeNoRow = "P0002"

// Target keeps a keyed relation in memory — one row per key — and applies
// explicit changes to it with MERGE semantics (MergeRules), as a keyed
// sink (a table with a primary key) applies them. A partially maintained
// view keeps its rows in one.
//
// Changes are staged (Stage, StageFacts) and then kept (Commit) or
// dropped (Abort); Apply does both. Rows stored are never modified; a
// change replaces them.
type Target struct {
	Schema *Schema
	// Name is how errors name the target (the schema's name by default).
	Name string
	// The rows, and the slot of each key: a change of a key that exists
	// writes its slot. Keys of one integer column of one kind (intKind,
	// that of the first key) map to 1 + their slot in ints, one array
	// read a key where an Index reads two; other keys are in slot.
	rows    []slotRow
	slot    Index[int]
	ints    *intmap.Map[int32]
	intKind value.Kind
	// The staged changes, one per changed key, in the order keys were
	// first changed. index finds a key's entry; it is filled only when a
	// key may come twice (a batch not strictly ordered by key, or several
	// batches staged).
	staged  []stagedRow
	index   Index[int]
	indexed bool
	prev    value.Row // the last key staged
	// blocks hold the rows StageFacts writes.
	blocks blocks
}

// slotRow is a row the target holds, as its first value's address and
// its length (16 bytes where a slice header and the block made 32: one
// pointer for the collector to follow either way), with the block it
// lives in (-1: a row the target did not write, such as Stage's): a
// change of the row finds its block where it finds the row.
type slotRow struct {
	p    *value.Value
	cols int32
	blk  int32
}

// keptRow returns the slot of row r of block blk.
func keptRow(r value.Row, blk int32) slotRow {
	p := unsafe.SliceData(r)
	if p == nil {
		p = &noValues // a row of no columns is a row
	}
	return slotRow{p: p, cols: int32(len(r)), blk: blk}
}

// noValues is where a slot's row of no columns points.
var noValues value.Value

// row returns the slot's row; nil in an empty slot.
func (s *slotRow) row() value.Row {
	if s.p == nil {
		return nil
	}
	return unsafe.Slice(s.p, s.cols)
}

type stagedRow struct {
	slot int       // the key's slot; -1 when the key is new
	key  value.Row // the key
	row  value.Row // after the change; nil: absent
	blk  int32     // row's block; -1: none
}

// indexReuse is the largest index kept from one step to the next.
const indexReuse = 256

// NewTarget returns an empty target for s.
func NewTarget(s *Schema) *Target {
	t := &Target{Schema: s, Name: s.Name, blocks: newBlocks()}
	if s.keySlice() {
		// A row's key is a slice of it: the index reads it there and
		// keeps none. Otherwise it keeps the key KeyOf made for the
		// row, which holds no row.
		t.slot.KeyOf = func(i int) value.Row { return s.KeyOf(t.rows[i].row()) }
	}
	return t
}

// Len is the number of rows.
func (t *Target) Len() int { return len(t.rows) }

// Slack returns the bytes of the target's row blocks that hold none of
// its rows: at most as many as its rows hold, once blocks are sealed.
func (t *Target) Slack() int64 { return t.blocks.slack * int64(unsafe.Sizeof(value.Value{})) }

// IndexBytes returns the bytes of the target's slots and of the index of
// its keys: what holding a row costs beyond its values.
func (t *Target) IndexBytes() int64 {
	n := int64(cap(t.rows))*int64(unsafe.Sizeof(slotRow{})) + int64(t.slot.Len())*IndexEntryBytes
	if t.ints != nil {
		n += t.ints.Bytes(4)
	}
	return n
}

// Get returns the row of key, if any.
func (t *Target) Get(key value.Row) (value.Row, bool) {
	i, ok := t.slotOf(key)
	if !ok {
		return nil, false
	}
	return t.rows[i].row(), true
}

// Rows returns the rows sorted by key.
func (t *Target) Rows() []value.Row {
	out := make([]value.Row, len(t.rows))
	for i := range t.rows {
		out[i] = t.rows[i].row()
	}
	slices.SortFunc(out, func(a, b value.Row) int { return value.CompareRows(t.Schema.KeyOf(a), t.Schema.KeyOf(b)) })
	return out
}

// String prints the rows sorted by key, one a line.
func (t *Target) String() string {
	var b strings.Builder
	for _, r := range t.Rows() {
		b.WriteString(r.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Apply applies the changes of b in order, all or nothing: when a change
// fails (an insertion of a key that exists: 23505; a change that needs a
// key that does not exist: P0002; a malformed change: 22023), the error
// names the key and the target is left as it was.
func (t *Target) Apply(b Batch) error {
	for i, c := range b {
		err := t.Schema.Validate(c)
		if err == nil {
			err = t.Stage(b[i:i+1], nil)
		}
		if err != nil {
			t.Abort()
			return err
		}
	}
	t.Commit(nil)
	return nil
}

// Stage applies the changes of b in order on top of those staged since
// the last Commit or Abort, without changing the rows Get and Rows read.
// emit, when not nil, is told of each change's effect on its key: the
// row before (nil when absent) and after (nil when absent). On error
// (23505, P0002, naming the target and the key) the caller aborts.
func (t *Target) Stage(b Batch, emit func(before, after value.Row)) error {
	for _, c := range b {
		key := c.Key(t.Schema)
		i, at, cur, exists := t.find(key)
		n, code := Merge(c, cur, exists)
		if err := t.refuse(code, c.Kind(), key); err != nil {
			return err
		}
		t.put(i, at, cur, exists, n, -1, emit)
	}
	t.prev = nil
	return nil
}

// StageFacts is Stage for the changes the facts state (Fact.Net of
// each, without its copies): it applies each fact's change by MergeRules
// and writes the rows it keeps itself, so that the facts' rows need live
// only for the call. The facts' keys must be distinct.
func (t *Target) StageFacts(facts []Fact, emit func(before, after value.Row)) error {
	need := 0
	for i := range facts {
		if facts[i].After {
			need++
		}
	}
	for fi := range facts {
		f := &facts[fi]
		kind := f.Kind()
		i, at, cur, exists := t.find(f.Key)
		r := MergeRules[kind]
		if err := t.refuse(r.check(exists), kind, f.Key); err != nil {
			return err
		}
		var n value.Row
		blk := int32(-1)
		if r.Writes != WriteDelete {
			n, blk = t.blocks.row(len(f.New), need)
			need--
			for c := range n {
				switch {
				case !f.NewUnknown.Has(c):
					n[c] = f.New[c]
				case f.Before == Present && !f.OldUnknown.Has(c):
					n[c] = f.Old[c] // Fill: an unknown new column kept its old value
				case r.Writes == WriteKnown:
					n[c] = cur[c]
				}
			}
		}
		t.put(i, at, cur, exists, n, blk, emit)
	}
	t.prev = nil
	return nil
}

// find returns the staged entry of key (-1 when none), its slot (-1 when
// none, or when staged), and the key's row as staged or stored.
func (t *Target) find(key value.Row) (i, at int, cur value.Row, exists bool) {
	// Without an index, a key can come again only if the changes are
	// not strictly ordered: index what is staged, and go on with it.
	if !t.indexed && len(t.staged) > 0 && (t.prev == nil || value.CompareRows(t.prev, key) >= 0) {
		t.indexed = true
		for i, e := range t.staged {
			t.index.Set(e.key, i)
		}
	}
	t.prev = key
	if t.indexed {
		if i, ok := t.index.Get(key); ok {
			cur = t.staged[i].row
			return i, -1, cur, cur != nil
		}
	}
	if at, ok := t.slotOf(key); ok {
		return -1, at, t.rows[at].row(), true
	}
	return -1, -1, nil, false
}

// isInt reports whether key's slot is kept in ints.
func (t *Target) isInt(key value.Row) bool {
	return t.ints != nil && len(key) == 1 && key[0].Kind() == t.intKind
}

// slotOf returns key's slot.
func (t *Target) slotOf(key value.Row) (int, bool) {
	if t.isInt(key) {
		p, ok := t.ints.Get(key[0].Int())
		return int(p) - 1, ok
	}
	return t.slot.Get(key)
}

// setSlot keeps i as key's slot.
func (t *Target) setSlot(key value.Row, i int) {
	if t.ints == nil && t.slot.Len() == 0 && len(key) == 1 && value.KeyIsInt(key[0].Kind()) {
		t.ints, t.intKind = intmap.New[int32](), key[0].Kind()
	}
	if t.isInt(key) {
		t.ints.Set(key[0].Int(), int32(i)+1)
		return
	}
	t.slot.Set(key, i)
}

// deleteSlot removes key, whose slot is i.
func (t *Target) deleteSlot(key value.Row, i int) {
	if t.isInt(key) {
		t.ints.Delete(key[0].Int(), int32(i)+1)
		return
	}
	t.slot.Delete(key)
}

// refuse returns the error of a change whose rule's requirement failed.
func (t *Target) refuse(code string, kind Kind, key value.Row) error {
	switch code {
	case CodeNoRow:
		return pgerr.New(CodeNoRow, "deltaview: %s of %s key %s: no such row", kind, t.Name, key)
	case pgerr.UniqueViolation:
		return pgerr.New(pgerr.UniqueViolation, "deltaview: insert into %s: key %s exists already", t.Name, key)
	}
	return nil
}

// put stages n (nil: absent, else a row of block blk, or -1) as a key's
// row; i is its staged entry, at its slot, cur and exists its row before.
func (t *Target) put(i, at int, cur value.Row, exists bool, n value.Row, blk int32, emit func(before, after value.Row)) {
	if !exists && n == nil {
		return // a safe deletion of an absent key
	}
	if emit != nil {
		if !exists {
			cur = nil
		}
		emit(cur, n)
	}
	if i >= 0 {
		t.staged[i].row, t.staged[i].blk = n, blk
		return
	}
	// The key is a slice of a row the target keeps, not the caller's,
	// which may not live.
	e := stagedRow{slot: at, row: n, blk: blk}
	if at >= 0 {
		e.key = t.Schema.KeyOf(t.rows[at].row())
	} else {
		e.key = t.Schema.KeyOf(n)
	}
	if t.indexed {
		t.index.Set(e.key, len(t.staged))
	}
	t.staged = append(t.staged, e)
}

// Commit keeps the staged changes. kept, when not nil, is told of each
// key whose row changed: the row before and after (nil when absent), for
// the caller's accounting.
func (t *Target) Commit(kept func(before, after value.Row)) {
	// Rows change in their slots and new keys take new slots; then the
	// keys that leave give their slot to the last row, which moves no
	// slot a staged change refers to any more.
	for _, e := range t.staged {
		var old value.Row
		if e.slot >= 0 {
			old = t.rows[e.slot].row()
		}
		if kept != nil && (old != nil || e.row != nil) {
			kept(old, e.row)
		}
		switch {
		case e.row == nil:
		case e.slot >= 0:
			t.blocks.drop(t.rows[e.slot].blk)
			t.rows[e.slot] = keptRow(e.row, e.blk)
			t.blocks.put(e.slot, e.blk)
		default:
			t.rows = append(t.rows, keptRow(e.row, e.blk))
			t.setSlot(e.key, len(t.rows)-1)
			t.blocks.put(len(t.rows)-1, e.blk)
		}
	}
	for _, e := range t.staged {
		if e.row != nil || e.slot < 0 {
			continue
		}
		i, _ := t.slotOf(e.key)
		last := len(t.rows) - 1
		t.deleteSlot(e.key, i)
		t.blocks.drop(t.rows[i].blk)
		if i != last {
			t.rows[i] = t.rows[last]
			t.setSlot(t.Schema.KeyOf(t.rows[i].row()), i)
			t.blocks.move(last, i, t.rows[i].blk)
		}
		t.rows[last] = slotRow{}
		t.rows = t.rows[:last]
	}
	// The blocks that lost rows are compacted once their rows are where
	// they stay.
	t.blocks.compact(t.rows)
	t.Abort()
}

// Abort drops the staged changes.
func (t *Target) Abort() {
	t.indexed, t.prev = false, nil
	t.index.Clear()
	clear(t.staged)
	t.staged = t.staged[:0]
	if cap(t.staged) > indexReuse {
		t.staged = nil
	}
}
