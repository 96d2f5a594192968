package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/value"
)

// ALTER TYPE … RENAME VALUE of an enum that a composite type's attribute
// or a range type's subtype is: their values hold the label as the enum's
// own do (its registry slot and the label's number), so they follow the
// rename; the rows a database file keeps of the tables with columns of
// them hold it as text and are written again.

// holds reports whether values of ct hold values of the enum r renames:
// ct is the enum, an array of it, a range over it, or a record or array
// of records with a field that holds it.
func (r enumRename) holds(ct value.Type) bool {
	if r.uses(ct) || rangeUsesType(ct, r.t) {
		return true
	}
	d := ct.RecordDesc()
	return d != nil && slices.ContainsFunc(d.Fields, func(f value.RecordField) bool { return r.holds(f.Type) })
}
