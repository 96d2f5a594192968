package value

import (
	"sync"
	"sync/atomic"
)

// User-defined range types (CREATE TYPE … AS RANGE). A user range type is
// Type{UserRange, mod} and its multirange type Type{UserMultirange, mod},
// mod indexing a process-wide registry of range types, one entry per
// type created (never interned, as enums). Their values are built and
// operated on as the built-in ranges' are (MakeRange, MakeMultirange):
// a value holds its bounds, each a value of the subtype, and not its
// type, which the expression or the column that holds it gives. A user
// range has no canonical function (PostgreSQL's needs one written in C),
// so it is continuous: no bound is ever stepped.

// RangeDesc describes a user range type at one moment. It is immutable:
// a change makes a new one.
type RangeDesc struct {
	// Name is the range type's name, MultiName its multirange type's.
	Name, MultiName string
	// Constructor and MultiConstructor name the types' constructor
	// functions: the types' names when they were created.
	Constructor, MultiConstructor string
	// Subtype is the type of the bounds.
	Subtype Type
	// SubtypeDiff names the subtype difference function, "" when none.
	SubtypeDiff string
	// The object numbers on the wire of the range type, its array type,
	// the multirange type and its array type.
	OID, ArrayOID, MultiOID, MultiArrayOID uint32
}

// rangeTypes is the registry: readers load a slot without a lock.
var rangeTypes struct {
	mu    sync.Mutex
	slots atomic.Pointer[[]*atomic.Pointer[RangeDesc]]
}

// NewRangeType registers a new user range type; it returns the range
// type, whose MultirangeType is its multirange type.
func NewRangeType(d RangeDesc) Type {
	rangeTypes.mu.Lock()
	defer rangeTypes.mu.Unlock()
	var slots []*atomic.Pointer[RangeDesc]
	if p := rangeTypes.slots.Load(); p != nil {
		slots = *p
	}
	slot := &atomic.Pointer[RangeDesc]{}
	slot.Store(&d)
	slots = append(slots[:len(slots):len(slots)], slot)
	rangeTypes.slots.Store(&slots)
	return Type{UserRange, int32(len(slots))}
}

// rangeSlot returns the registry's slot of mod; nil when there is none.
func rangeSlot(mod int32) *atomic.Pointer[RangeDesc] {
	p := rangeTypes.slots.Load()
	if p == nil || mod < 1 || int(mod) > len(*p) {
		return nil
	}
	return (*p)[mod-1]
}

// UserRange returns the description of a user range or multirange type,
// or of the elements of an array of one, as it is now; nil for any other
// type.
func (t Type) UserRange() *RangeDesc {
	switch t.Kind {
	case UserRange, UserMultirange, ArrayOf(UserRange), ArrayOf(UserMultirange):
		if s := rangeSlot(t.Mod); s != nil {
			return s.Load()
		}
	}
	return nil
}

// RenameRangeType renames the user range or multirange type t; the other
// keeps its name, and both their constructors theirs, as in PostgreSQL.
func RenameRangeType(t Type, name string) {
	rangeTypes.mu.Lock()
	defer rangeTypes.mu.Unlock()
	if s := rangeSlot(t.Mod); s != nil {
		d := *s.Load()
		if t.Kind == UserMultirange {
			d.MultiName = name
		} else {
			d.Name = name
		}
		s.Store(&d)
	}
}

// typeName is the name of the type of kind k (the range, the multirange
// or an array of either) that d describes.
func (d *RangeDesc) typeName(k Kind) string {
	switch k {
	case UserRange:
		return d.Name
	case UserMultirange:
		return d.MultiName
	case ArrayOf(UserRange):
		return d.Name + "[]"
	}
	return d.MultiName + "[]"
}

// RangeSubtype returns the type of the bounds of a range or multirange
// type.
func (t Type) RangeSubtype() Type {
	if d := t.UserRange(); d != nil {
		return d.Subtype
	}
	k := t.Kind
	if k.IsMultirange() {
		k = k.MultirangeOf()
	}
	return Type{k.RangeElem(), -1}
}

// MultirangeType returns the multirange type of a range type; a
// multirange type is its own.
func (t Type) MultirangeType() Type {
	if t.Kind.IsRange() {
		return Type{t.Kind.MultirangeOf(), t.Mod}
	}
	return t
}

// RangeType returns the range type of a multirange type; a range type is
// its own.
func (t Type) RangeType() Type {
	if t.Kind.IsMultirange() {
		return Type{t.Kind.MultirangeOf(), t.Mod}
	}
	return t
}
