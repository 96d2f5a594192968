package delta

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// MERGE semantics: how each kind of change applies to a keyed relation
// (a view's rows, Target, a table of a SQL sink). The rule table is the
// one statement of it; Merge applies it in memory and the SQL sinks derive
// their statements from it.

// Presence is what a rule requires of the key before the change.
type Presence uint8

// Presences.
const (
	KeyAny     Presence = iota // the key may or may not exist
	KeyAbsent                  // the key must not exist (else 23505)
	KeyPresent                 // the key must exist (else P0002)
)

// Write is what a rule writes.
type Write uint8

// Writes.
const (
	WriteRow    Write = iota // the whole new row: inserted, or replacing the old one
	WriteKnown               // the new row's known columns; the unknown ones keep their value
	WriteDelete              // the row is removed (if there is one)
)

// MergeRule is what MERGE does with one kind of change.
type MergeRule struct {
	Requires Presence
	Writes   Write
}

// MergeRules is the rule of each kind:
//
//	Insert             INSERT; the key must not exist
//	Update             UPDATE; the key must exist
//	PartialUpdate      UPDATE of the known columns; the key must exist
//	Upsert             INSERT … ON CONFLICT DO UPDATE
//	Delete             DELETE; the key must exist
//	TruePartialDelete  DELETE; the key must exist
//	SafePartialDelete  DELETE if present
//
// Update and Delete replace or remove the row whatever its current value:
// MERGE does not compare old rows.
var MergeRules = [NumKinds]MergeRule{
	KindInsert:            {KeyAbsent, WriteRow},
	KindUpdate:            {KeyPresent, WriteRow},
	KindPartialUpdate:     {KeyPresent, WriteKnown},
	KindUpsert:            {KeyAny, WriteRow},
	KindDelete:            {KeyPresent, WriteDelete},
	KindTruePartialDelete: {KeyPresent, WriteDelete},
	KindSafePartialDelete: {KeyAny, WriteDelete},
}

// NewRow returns the row a change leaves (nil for a deletion) and the
// columns of it that are unknown.
func NewRow(c Change) (value.Row, Cols) {
	switch c := c.(type) {
	case Insert:
		return c.Row, nil
	case Update:
		return c.New, nil
	case PartialUpdate:
		return c.Row, c.Unknown
	case Upsert:
		return c.Row, nil
	}
	return nil, nil
}

// Merge applies c to a key whose row is cur (exists says whether there is
// one) by c's rule, and returns the row after, nil when the key is absent
// after. When the rule's requirement fails it returns the error's code,
// 23505 or CodeNoRow, and the caller says where. A partial update's row
// is a new row, cur is never modified.
func Merge(c Change, cur value.Row, exists bool) (value.Row, string) {
	r := MergeRules[c.Kind()]
	if code := r.check(exists); code != "" {
		return nil, code
	}
	n, unknown := NewRow(c)
	switch r.Writes {
	case WriteDelete:
		return nil, ""
	case WriteKnown:
		if !unknown.Empty() {
			n = append(value.Row(nil), n...)
			for i := range n {
				if unknown.Has(i) {
					n[i] = cur[i]
				}
			}
		}
	}
	return n, ""
}

// check returns the code of the error the rule's requirement gives when
// the key exists or not (23505, CodeNoRow), or "" when it holds.
func (r MergeRule) check(exists bool) string {
	switch {
	case r.Requires == KeyAbsent && exists:
		return pgerr.UniqueViolation
	case r.Requires == KeyPresent && !exists:
		return CodeNoRow
	}
	return ""
}
