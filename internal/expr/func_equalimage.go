package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The btree "equal image" support functions (procedure 4), callable by
// name as in PostgreSQL: btequalimage says any type's equal values are
// alike byte for byte, whatever the operator class's input type;
// btvarstrequalimage answers by the collation it is called under, and
// a call from SQL has none (its argument, an oid, takes no COLLATE), so
// it fails as PostgreSQL's does. Stateless.
func init() {
	strict("btequalimage", kinds(value.Oid), value.BoolType, func([]value.Value) (value.Value, error) {
		return value.NewBool(true), nil
	})
	strict("btvarstrequalimage", kinds(value.Oid), value.BoolType, func([]value.Value) (value.Value, error) {
		return value.Null, pgerr.New("42P22", "could not determine which collation to use for string comparison").
			WithHint("Use the COLLATE clause to set the collation explicitly.")
	})
}
