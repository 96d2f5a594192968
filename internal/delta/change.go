package delta

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Kind names one of the seven kinds of change of the explicit model.
type Kind uint8

// The seven kinds. Insert, Update and Delete are complete; the other four
// are partial.
const (
	KindInsert Kind = iota
	KindUpdate
	KindPartialUpdate
	KindUpsert
	KindDelete
	KindTruePartialDelete
	KindSafePartialDelete
	NumKinds
)

var kindNames = [...]string{
	KindInsert:            "insert",
	KindUpdate:            "update",
	KindPartialUpdate:     "partial-update",
	KindUpsert:            "upsert",
	KindDelete:            "delete",
	KindTruePartialDelete: "true-partial-delete",
	KindSafePartialDelete: "safe-partial-delete",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Complete reports whether the kind carries the full old and new rows.
func (k Kind) Complete() bool { return k == KindInsert || k == KindUpdate || k == KindDelete }

// Change is one change to one key of a keyed relation: one of Insert,
// Update, PartialUpdate, Upsert, Delete, TruePartialDelete and
// SafePartialDelete. Rows are full-width (one value per column of the
// relation); keys are the key columns' values in key order. Changes are
// values: a Change's rows are never modified once it is built.
type Change interface {
	Kind() Kind
	// Key returns the changed key, in key order.
	Key(s *Schema) value.Row
	change()
}

// Insert: the key did not exist; now it holds Row.
type Insert struct{ Row value.Row }

// Update: the key held Old; now it holds New (same key).
type Update struct{ Old, New value.Row }

// PartialUpdate: the key existed, its old row unknown; now it holds Row,
// except the columns in Unknown, which kept their (unknown) old values.
// Key columns are never unknown; Row holds NULL in the unknown columns.
type PartialUpdate struct {
	Row     value.Row
	Unknown Cols
}

// Upsert: the key may or may not have existed; now it holds Row.
type Upsert struct{ Row value.Row }

// Delete: the key held Row; now it does not exist.
type Delete struct{ Row value.Row }

// TruePartialDelete: the key existed; now it does not.
type TruePartialDelete struct{ KeyVals value.Row }

// SafePartialDelete: the key may or may not have existed; now it does not.
type SafePartialDelete struct{ KeyVals value.Row }

func (Insert) Kind() Kind            { return KindInsert }
func (Update) Kind() Kind            { return KindUpdate }
func (PartialUpdate) Kind() Kind     { return KindPartialUpdate }
func (Upsert) Kind() Kind            { return KindUpsert }
func (Delete) Kind() Kind            { return KindDelete }
func (TruePartialDelete) Kind() Kind { return KindTruePartialDelete }
func (SafePartialDelete) Kind() Kind { return KindSafePartialDelete }

func (c Insert) Key(s *Schema) value.Row            { return s.KeyOf(c.Row) }
func (c Update) Key(s *Schema) value.Row            { return s.KeyOf(c.New) }
func (c PartialUpdate) Key(s *Schema) value.Row     { return s.KeyOf(c.Row) }
func (c Upsert) Key(s *Schema) value.Row            { return s.KeyOf(c.Row) }
func (c Delete) Key(s *Schema) value.Row            { return s.KeyOf(c.Row) }
func (c TruePartialDelete) Key(s *Schema) value.Row { return c.KeyVals }
func (c SafePartialDelete) Key(s *Schema) value.Row { return c.KeyVals }

func (Insert) change()            {}
func (Update) change()            {}
func (PartialUpdate) change()     {}
func (Upsert) change()            {}
func (Delete) change()            {}
func (TruePartialDelete) change() {}
func (SafePartialDelete) change() {}

// Format prints a change as its kind and rows: "update (1, a) -> (1, b)",
// "partial-update (1, -, b)", "true-partial-delete (1)".
func Format(c Change) string {
	switch c := c.(type) {
	case Insert:
		return "insert " + c.Row.String()
	case Update:
		return "update " + c.Old.String() + " -> " + c.New.String()
	case PartialUpdate:
		return "partial-update " + formatRow(c.Row, c.Unknown)
	case Upsert:
		return "upsert " + c.Row.String()
	case Delete:
		return "delete " + c.Row.String()
	case TruePartialDelete:
		return "true-partial-delete " + c.KeyVals.String()
	case SafePartialDelete:
		return "safe-partial-delete " + c.KeyVals.String()
	}
	return "?"
}

// Validate checks that c is well formed for s: rows of the relation's
// arity, keys of the key's arity, no NULL key value, an update that keeps
// its key, a partial update whose unknown columns are in range and not key
// columns. Errors are *pgerr.Error values with code 22023.
func (s *Schema) Validate(c Change) error {
	row := func(r value.Row, what string) error {
		if len(r) != len(s.Columns) {
			return s.errf(c, "%s row has %d columns, %s has %d", what, len(r), s.Name, len(s.Columns))
		}
		for _, k := range s.Key {
			if r[k].IsNull() {
				return s.errf(c, "%s row has NULL in key column %s", what, s.Columns[k])
			}
		}
		return nil
	}
	key := func(k value.Row) error {
		if len(k) != len(s.Key) {
			return s.errf(c, "key has %d values, the key of %s has %d columns", len(k), s.Name, len(s.Key))
		}
		for i, v := range k {
			if v.IsNull() {
				return s.errf(c, "key column %s is NULL", s.Columns[s.Key[i]])
			}
		}
		return nil
	}
	switch c := c.(type) {
	case Insert:
		return row(c.Row, "new")
	case Upsert:
		return row(c.Row, "new")
	case Delete:
		return row(c.Row, "old")
	case Update:
		if err := row(c.Old, "old"); err != nil {
			return err
		}
		if err := row(c.New, "new"); err != nil {
			return err
		}
		if value.CompareRows(s.KeyOf(c.Old), s.KeyOf(c.New)) != 0 {
			return s.errf(c, "update changes the key from %s to %s; send a deletion and an insertion", s.KeyOf(c.Old), s.KeyOf(c.New))
		}
		return nil
	case PartialUpdate:
		if err := row(c.Row, "new"); err != nil {
			return err
		}
		for _, i := range c.Unknown.Slice() {
			if i >= len(s.Columns) {
				return s.errf(c, "unknown column #%d out of range", i)
			}
			if s.IsKey(i) {
				return s.errf(c, "key column %s is unknown", s.Columns[i])
			}
		}
		return nil
	case TruePartialDelete:
		return key(c.KeyVals)
	case SafePartialDelete:
		return key(c.KeyVals)
	case nil:
		return pgerr.New(pgerr.InvalidParameter, "deltaview: nil change to %s", s.Name)
	}
	return pgerr.New(pgerr.InvalidParameter, "deltaview: unknown change type %T", c)
}

func (s *Schema) errf(c Change, format string, args ...any) error {
	e := pgerr.New(pgerr.InvalidParameter, format, args...)
	e.Message = "deltaview: " + c.Kind().String() + " of " + s.Name + ": " + e.Message
	return e
}
