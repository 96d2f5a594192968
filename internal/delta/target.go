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
	Name   string
	rows   map[string]value.Row
	staged map[string]value.Row // key → row after the staged changes; nil: absent
	kbuf   []byte
}

// NewTarget returns an empty target for s.
func NewTarget(s *Schema) *Target {
	return &Target{Schema: s, Name: s.Name, rows: map[string]value.Row{}, staged: map[string]value.Row{}}
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
		cur, staged := t.staged[string(t.kbuf)]
		exists := cur != nil
		if !staged {
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
		t.staged[string(t.kbuf)] = n
	}
	return nil
}

// Commit keeps the staged changes. kept, when not nil, is told of each
// key whose row changed: its encoded key, the row before and after (nil
// when absent), for the caller's accounting.
func (t *Target) Commit(kept func(key string, before, after value.Row)) {
	for k, n := range t.staged {
		old := t.rows[k]
		if kept != nil {
			kept(k, old, n)
		}
		if n == nil {
			delete(t.rows, k)
		} else {
			t.rows[k] = n
		}
	}
	clear(t.staged)
}

// Abort drops the staged changes.
func (t *Target) Abort() { clear(t.staged) }
