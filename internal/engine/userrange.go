package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// User range types (CREATE TYPE … AS RANGE) are user types as enums are:
// the range type and its multirange type are both in e.userTypes, under
// their names, and share one value.RangeDesc. A store records the range
// type alone, its multirange with it (StoredType.Range); DROP TYPE of
// the range drops the multirange, which cannot be dropped alone.

// StoredRange is what a store keeps of a user range type beyond its name
// and object numbers.
type StoredRange struct {
	Subtype          string `json:"subtype"` // the subtype's name, a built-in type's or an enum's
	SubtypeDiff      string `json:"subtype_diff,omitempty"`
	MultiName        string `json:"multirange"`
	MultiOID         uint32 `json:"multirange_oid"`
	MultiArrayOID    uint32 `json:"multirange_array_oid"`
	Constructor      string `json:"constructor"`
	MultiConstructor string `json:"multirange_constructor"`
}

var _ sql.RangeCatalog = (*Engine)(nil)

// RangeConstructor implements sql.RangeCatalog.
func (e *Engine) RangeConstructor(name string) (value.Type, bool) {
	for _, t := range e.userTypes {
		if d := t.UserRange(); d != nil && t.Kind == value.UserRange {
			switch name {
			case d.Constructor:
				return t, true
			case d.MultiConstructor:
				return t.MultirangeType(), true
			}
		}
	}
	return value.Type{}, false
}

// RangeConstructor implements sql.RangeCatalog, noting the type the
// statement calls the constructor of.
func (r *recorder) RangeConstructor(name string) (value.Type, bool) {
	rc, ok := r.cat.(sql.RangeCatalog)
	if !ok {
		return value.Type{}, false
	}
	t, ok := rc.RangeConstructor(name)
	if ok {
		r.UserType(t.String())
	}
	return t, ok
}

// RangeConstructor implements sql.RangeCatalog.
func (v viewRecorder) RangeConstructor(name string) (value.Type, bool) {
	return v.r.RangeConstructor(name)
}

func (e *Engine) createRange(c *sql.CreateRange) (Result, error) {
	for _, n := range []string{c.Name, c.MultiName} {
		if e.typeNameTaken(n) {
			return Result{}, pgerr.New(pgerr.DuplicateObject, "type %q already exists", e.bareName(n))
		}
	}
	if e.nextOID < firstUserOID {
		e.nextOID = firstUserOID
	}
	if c.MultiName == c.Name {
		return Result{}, pgerr.New(pgerr.UniqueViolation, `duplicate key value violates unique constraint "pg_type_typname_nsp_index"`).
			WithDetail("Key (typname, typnamespace)=(%s, 2200) already exists.", c.Name)
	}
	t := value.NewRangeType(value.RangeDesc{Name: c.Name, MultiName: c.MultiName, Subtype: c.Subtype, SubtypeDiff: c.SubtypeDiff,
		Constructor: c.Name, MultiConstructor: c.MultiName,
		OID: e.nextOID, ArrayOID: e.nextOID + 1, MultiOID: e.nextOID + 2, MultiArrayOID: e.nextOID + 3})
	if err := e.saveType("", t); err != nil {
		return Result{}, err
	}
	e.nextOID += 4
	e.addRangeType(t)
	return Result{Tag: "CREATE TYPE"}, nil
}

// addRangeType puts the range type t and its multirange type among the
// user types.
func (e *Engine) addRangeType(t value.Type) {
	if e.userTypes == nil {
		e.userTypes = map[string]value.Type{}
	}
	d := t.UserRange()
	e.userTypes[d.Name] = t
	e.userTypes[d.MultiName] = t.MultirangeType()
}

// storedRange is what a store keeps of the range type d.
func storedRange(d *value.RangeDesc) StoredType {
	return StoredType{Name: d.Name, OID: d.OID, ArrayOID: d.ArrayOID, Range: &StoredRange{
		Subtype: d.Subtype.String(), SubtypeDiff: d.SubtypeDiff, MultiName: d.MultiName, MultiOID: d.MultiOID,
		MultiArrayOID: d.MultiArrayOID, Constructor: d.Constructor, MultiConstructor: d.MultiConstructor}}
}

// loadRange restores a stored range type.
func (e *Engine) loadRange(st StoredType) error {
	r := st.Range
	sub, err := value.TypeFromName(r.Subtype, nil)
	sub.Mod = -1 // a subtype has none ("character" would read as character(1))
	if err != nil {
		var ok bool
		if sub, ok = e.userTypes[r.Subtype]; !ok || sub.Enum() == nil {
			return pgerr.New("XX001", "stored range type %s has an unknown subtype %s", st.Name, r.Subtype)
		}
	}
	e.addRangeType(value.NewRangeType(value.RangeDesc{Name: st.Name, MultiName: r.MultiName, Subtype: sub, SubtypeDiff: r.SubtypeDiff,
		Constructor: r.Constructor, MultiConstructor: r.MultiConstructor,
		OID: st.OID, ArrayOID: st.ArrayOID, MultiOID: r.MultiOID, MultiArrayOID: r.MultiArrayOID}))
	e.nextOID = max(e.nextOID, r.MultiArrayOID+1)
	return nil
}

// renameRange renames the user range or multirange type t, from old.
func (e *Engine) renameRange(old, name string, t value.Type) error {
	stored := t.UserRange().Name // the store keeps the range type under its name
	rename := func() error {
		value.RenameRangeType(t, name)
		delete(e.userTypes, old)
		e.userTypes[name] = t
		return nil
	}
	if e.renamesInUse(old, t) {
		// Its users are written again under the new name (enum_rename.go).
		undo := func() {
			value.RenameRangeType(t, old)
			delete(e.userTypes, name)
			e.userTypes[old] = t
		}
		if err := e.renameEnumInUse(enumRename{t: t, key: old, newKey: name}, rename, undo); err != nil {
			return err
		}
		e.renameTypeUses(old, name)
	} else if err := rename(); err != nil {
		return err
	}
	return e.saveType(stored, t.RangeType())
}

// refuseDropMultirange refuses to drop a multirange type alone, as
// PostgreSQL does: it goes with its range type.
func refuseDropMultirange(name string, t value.Type) error {
	if t.Kind != value.UserMultirange {
		return nil
	}
	d := t.UserRange()
	return pgerr.New(pgerr.DependentObjects, "cannot drop type %s because type %s requires it", name, d.Name).
		WithHint("You can drop type %s instead.", d.Name)
}

// rangeUsesType reports whether the user range type t (or its
// multirange) is of, or over, the user type u.
func rangeUsesType(t, u value.Type) bool {
	d := t.UserRange()
	if d == nil {
		return false
	}
	if u.UserRange() != nil {
		return t.Mod == u.Mod
	}
	return d.Subtype.Enum() != nil && d.Subtype.Mod == u.Mod && u.Enum() != nil
}
