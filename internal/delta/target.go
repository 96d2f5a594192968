package delta

import (
	"slices"
	"strings"

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
// Changes are staged (Stage) and then kept (Commit) or dropped (Abort);
// Apply does both. Rows stored are never modified; a change replaces them.
type Target struct {
	Schema *Schema
	// Name is how errors name the target (the schema's name by default).
	Name string
	// The rows, with their encoded keys, and the slot of each key: a
	// change of a key that exists writes its slot, allocating nothing.
	rows []value.Row
	keys []string
	slot map[string]int
	// The staged changes, one per changed key, in the order keys were
	// first changed. index finds a key's entry; it is filled only when a
	// key may come twice (a batch not strictly ordered by key, or several
	// batches staged), and made anew after a large step, since a map
	// that grew keeps its size.
	staged  []stagedRow
	index   map[string]int
	indexed bool
	kbuf    []byte
}

type stagedRow struct {
	slot int       // the key's slot; -1 when the key is new
	key  string    // the encoded key
	row  value.Row // after the change; nil: absent
}

// indexReuse is the largest index kept from one step to the next.
const indexReuse = 256

// NewTarget returns an empty target for s.
func NewTarget(s *Schema) *Target {
	return &Target{Schema: s, Name: s.Name, slot: map[string]int{}, index: map[string]int{}}
}

// Len is the number of rows.
func (t *Target) Len() int { return len(t.rows) }

// Get returns the row of key, if any.
func (t *Target) Get(key value.Row) (value.Row, bool) {
	i, ok := t.slot[encodeKey(key)]
	if !ok {
		return nil, false
	}
	return t.rows[i], true
}

// Rows returns the rows sorted by key.
func (t *Target) Rows() []value.Row {
	out := slices.Clone(t.rows)
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
	s := t.Schema
	var prev value.Row
	for _, c := range b {
		key := c.Key(s)
		// Without an index, a key can come again only if the batch is
		// not strictly ordered: index what is staged, and go on with it.
		if !t.indexed && (len(t.staged) > 0 && prev == nil || prev != nil && value.CompareRows(prev, key) >= 0) {
			t.indexed = true
			for i, e := range t.staged {
				t.index[e.key] = i
			}
		}
		prev = key
		t.kbuf = value.AppendRowKey(t.kbuf[:0], key)
		var cur value.Row
		exists, at := false, -1
		i, staged := -1, false
		if t.indexed {
			i, staged = t.index[string(t.kbuf)]
		}
		if staged {
			cur = t.staged[i].row
			exists = cur != nil
		} else if at, exists = t.slot[string(t.kbuf)]; exists {
			cur = t.rows[at]
		} else {
			at = -1
		}
		n, code := Merge(c, cur, exists)
		switch code {
		case CodeNoRow:
			return pgerr.New(CodeNoRow, "deltaview: %s of %s key %s: no such row", c.Kind(), t.Name, key)
		case pgerr.UniqueViolation:
			return pgerr.New(pgerr.UniqueViolation, "deltaview: insert into %s: key %s exists already", t.Name, key)
		}
		if !exists && n == nil {
			continue // a safe deletion of an absent key
		}
		if emit != nil {
			if !exists {
				cur = nil
			}
			emit(cur, n)
		}
		if staged {
			t.staged[i].row = n
			continue
		}
		e := stagedRow{slot: at, row: n}
		if at >= 0 {
			e.key = t.keys[at]
		} else {
			e.key = string(t.kbuf)
		}
		if t.indexed {
			t.index[e.key] = len(t.staged)
		}
		t.staged = append(t.staged, e)
	}
	return nil
}

// Commit keeps the staged changes. kept, when not nil, is told of each
// key whose row changed: its encoded key, the row before and after (nil
// when absent), for the caller's accounting.
func (t *Target) Commit(kept func(key string, before, after value.Row)) {
	// Rows change in their slots and new keys take new slots; then the
	// keys that leave give their slot to the last row, which moves no
	// slot a staged change refers to any more.
	for _, e := range t.staged {
		var old value.Row
		if e.slot >= 0 {
			old = t.rows[e.slot]
		}
		if kept != nil {
			kept(e.key, old, e.row)
		}
		switch {
		case e.row == nil:
		case e.slot >= 0:
			t.rows[e.slot] = e.row
		default:
			t.slot[e.key] = len(t.rows)
			t.rows = append(t.rows, e.row)
			t.keys = append(t.keys, e.key)
		}
	}
	for _, e := range t.staged {
		if e.row != nil || e.slot < 0 {
			continue
		}
		i := t.slot[e.key]
		last := len(t.rows) - 1
		t.rows[i], t.keys[i] = t.rows[last], t.keys[last]
		t.slot[t.keys[i]] = i
		t.rows[last], t.keys[last] = nil, ""
		t.rows, t.keys = t.rows[:last], t.keys[:last]
		delete(t.slot, e.key)
	}
	t.Abort()
}

// Abort drops the staged changes.
func (t *Target) Abort() {
	t.indexed = false
	if len(t.index) > indexReuse {
		t.index = map[string]int{}
	} else {
		clear(t.index)
	}
	clear(t.staged)
	t.staged = t.staged[:0]
	if cap(t.staged) > indexReuse {
		t.staged = nil
	}
}
