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
	rows map[string]value.Row
	// The staged changes: per changed key its row after them (nil:
	// absent), in the order keys were first changed; index finds a key's
	// entry. index is made anew after a large step, since a map that
	// grew keeps its size and a step iterates nothing of it.
	staged []stagedRow
	index  map[string]int
	kbuf   []byte
}

type stagedRow struct {
	key string
	row value.Row
}

// indexReuse is the largest index kept from one step to the next.
const indexReuse = 256

// NewTarget returns an empty target for s.
func NewTarget(s *Schema) *Target {
	return &Target{Schema: s, Name: s.Name, rows: map[string]value.Row{}, index: map[string]int{}}
}

// Len is the number of rows.
func (t *Target) Len() int { return len(t.rows) }

// Get returns the row of key, if any.
func (t *Target) Get(key value.Row) (value.Row, bool) {
	r, ok := t.rows[encodeKey(key)]
	return r, ok
}

// Rows returns the rows sorted by key.
func (t *Target) Rows() []value.Row {
	out := make([]value.Row, 0, len(t.rows))
	for _, r := range t.rows {
		out = append(out, r)
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
	s := t.Schema
	for _, c := range b {
		key := c.Key(s)
		t.kbuf = value.AppendRowKey(t.kbuf[:0], key)
		var cur value.Row
		i, staged := t.index[string(t.kbuf)]
		exists := false
		if staged {
			cur = t.staged[i].row
			exists = cur != nil
		} else {
			cur, exists = t.rows[string(t.kbuf)]
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
		k := string(t.kbuf)
		t.index[k] = len(t.staged)
		t.staged = append(t.staged, stagedRow{key: k, row: n})
	}
	return nil
}

// Commit keeps the staged changes. kept, when not nil, is told of each
// key whose row changed: its encoded key, the row before and after (nil
// when absent), for the caller's accounting.
func (t *Target) Commit(kept func(key string, before, after value.Row)) {
	for _, e := range t.staged {
		old := t.rows[e.key]
		if kept != nil {
			kept(e.key, old, e.row)
		}
		if e.row == nil {
			delete(t.rows, e.key)
		} else {
			t.rows[e.key] = e.row
		}
	}
	t.Abort()
}

// Abort drops the staged changes.
func (t *Target) Abort() {
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
