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

// Target is a keyed relation in memory that applies explicit changes with
// MERGE semantics, as a keyed sink (a table with a primary key) applies
// them:
//
//	Insert             INSERT; the key must not exist
//	Update             UPDATE; the key must exist
//	PartialUpdate      UPDATE of the known columns; the key must exist
//	Upsert             INSERT … ON CONFLICT DO UPDATE
//	Delete             DELETE; the key must exist
//	TruePartialDelete  DELETE; the key must exist
//	SafePartialDelete  DELETE if present
//
// Rows stored are never modified; Apply replaces them.
type Target struct {
	Schema *Schema
	rows   map[string]value.Row
}

// NewTarget returns an empty target for s.
func NewTarget(s *Schema) *Target { return &Target{Schema: s, rows: map[string]value.Row{}} }

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
// names the key and the target is left as it was. Update and Delete
// replace or remove the row whatever its current value; Apply does not
// compare old rows.
func (t *Target) Apply(b Batch) error {
	s := t.Schema
	staged := map[string]*value.Row{} // key → new row, or nil row for a deletion
	get := func(k string) (value.Row, bool) {
		if p, ok := staged[k]; ok {
			return *p, *p != nil
		}
		r, ok := t.rows[k]
		return r, ok
	}
	set := func(k string, r value.Row) { staged[k] = &r }
	for _, c := range b {
		if err := s.Validate(c); err != nil {
			return err
		}
		key := c.Key(s)
		k := encodeKey(key)
		cur, exists := get(k)
		if !exists && c.Kind() != KindInsert && c.Kind() != KindUpsert && c.Kind() != KindSafePartialDelete {
			return pgerr.New(CodeNoRow, "deltaview: %s of %s key %s: no such row", c.Kind(), s.Name, key)
		}
		switch c := c.(type) {
		case Insert:
			if exists {
				return pgerr.New(pgerr.UniqueViolation, "deltaview: insert into %s: key %s exists already", s.Name, key)
			}
			set(k, c.Row)
		case Update:
			set(k, c.New)
		case Upsert:
			set(k, c.Row)
		case PartialUpdate:
			n := append(value.Row(nil), c.Row...)
			for _, i := range c.Unknown.Slice() {
				n[i] = cur[i]
			}
			set(k, n)
		case Delete, TruePartialDelete, SafePartialDelete:
			set(k, nil)
		}
	}
	for k, p := range staged {
		if *p == nil {
			delete(t.rows, k)
		} else {
			t.rows[k] = *p
		}
	}
	return nil
}
