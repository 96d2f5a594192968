package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// suppressRedundant runs the built-in suppress_redundant_updates_trigger
// as a trigger fired for op at timing kind: the new row when it differs
// from the old, nil (the row skipped, and not counted) when every column
// holds the same value written the same way, as PostgreSQL compares the
// tuples' bytes (1.0 and 1.00 differ). Fired otherwise than BEFORE UPDATE
// FOR EACH ROW it fails as PostgreSQL's does (39P01).
func suppressRedundant(op, kind int16, old, new value.Row) (value.Row, error) {
	fail := func(what string) error {
		return pgerr.New("39P01", "suppress_redundant_updates_trigger: must be called %s", what)
	}
	switch {
	case op != sql.TriggerUpdate:
		return nil, fail("on update")
	case kind&sql.TriggerBefore == 0:
		return nil, fail("before update")
	case kind&sql.TriggerRow == 0:
		return nil, fail("for each row")
	}
	if len(old) != len(new) || value.CompareRowsExact(old, new) != 0 {
		return new, nil
	}
	return nil, nil
}
