package value

import (
	"encoding/binary"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Enum types (CREATE TYPE … AS ENUM). An enum type is Type{Enum, mod},
// mod indexing a process-wide registry of enum types, one entry per type
// created (never interned: two databases' types named alike are two
// types). An enum value holds its type's mod and its label's number (the
// order labels were added in), inline: Value.n = mod<<32 | number.
//
// A label's sort position is a float64 given when the label is added and
// never changed after (ALTER TYPE … ADD VALUE BEFORE/AFTER takes the
// midpoint of its neighbours', as PostgreSQL's pg_enum.enumsortorder), so
// the order of existing values, and every key and index built on it,
// stays valid when labels are added. Renaming a label or the type changes
// only the description.

// maxEnumLabelLen is PostgreSQL's limit on a label's bytes (NAMEDATALEN-1).
const maxEnumLabelLen = 63

// EnumDesc describes an enum type at one moment. It is immutable: each
// change makes a new one.
type EnumDesc struct {
	Name string
	// OID is the type's object number on the wire; ArrayOID its array
	// type's.
	OID, ArrayOID uint32
	// Labels and Sorts are each label's text and sort position, by
	// number.
	Labels []string
	Sorts  []float64
}

// enumTypes is the registry. Readers load a slot's description without
// a lock (Compare and the text output call Enum per value); registering
// or changing a type takes mu.
var enumTypes struct {
	mu    sync.Mutex
	slots atomic.Pointer[[]*atomic.Pointer[EnumDesc]]
}

// NewEnumType registers a new enum type with these labels, in order,
// checking them as CREATE TYPE does.
func NewEnumType(name string, oid, arrayOID uint32, labels []string) (Type, error) {
	return NewEnumTypeAt(name, oid, arrayOID, labels, nil)
}

// NewEnumTypeAt is NewEnumType with each label's sort position, as a
// store kept them: ascending, one per label; nil gives 1, 2, ….
func NewEnumTypeAt(name string, oid, arrayOID uint32, labels []string, sorts []float64) (Type, error) {
	if sorts != nil && len(sorts) != len(labels) {
		return Type{}, pgerr.New(pgerr.Internal, "enum %s has %d labels and %d sort positions", name, len(labels), len(sorts))
	}
	d := &EnumDesc{Name: name, OID: oid, ArrayOID: arrayOID}
	for i, l := range labels {
		if err := checkEnumLabel(l); err != nil {
			return Type{}, err
		}
		if d.number(l) >= 0 {
			return Type{}, errDuplicateLabel(l, oid)
		}
		pos := float64(i + 1)
		if sorts != nil {
			pos = sorts[i]
			if i > 0 && !(pos > sorts[i-1]) {
				return Type{}, pgerr.New(pgerr.Internal, "enum %s: the sort positions of its labels are not ascending", name)
			}
		}
		d.Labels = append(d.Labels, l)
		d.Sorts = append(d.Sorts, pos)
	}
	enumTypes.mu.Lock()
	defer enumTypes.mu.Unlock()
	var slots []*atomic.Pointer[EnumDesc]
	if p := enumTypes.slots.Load(); p != nil {
		slots = *p
	}
	slot := &atomic.Pointer[EnumDesc]{}
	slot.Store(d)
	slots = append(slots[:len(slots):len(slots)], slot)
	enumTypes.slots.Store(&slots)
	return Type{Enum, int32(len(slots))}, nil
}

func checkEnumLabel(l string) error {
	if len(l) > maxEnumLabelLen {
		return pgerr.New("42602", "invalid enum label %q", l).
			WithDetail("Labels must be %d bytes or less.", maxEnumLabelLen)
	}
	return nil
}

// errDuplicateLabel is PostgreSQL's error for a label written twice in
// CREATE TYPE: its catalog's unique index says so.
func errDuplicateLabel(l string, oid uint32) error {
	return pgerr.New(pgerr.UniqueViolation, "duplicate key value violates unique constraint \"pg_enum_typid_label_index\"").
		WithDetail("Key (enumtypid, enumlabel)=(%d, %s) already exists.", oid, l)
}

// enumSlot returns the registry's slot of mod; nil when there is none.
func enumSlot(mod int32) *atomic.Pointer[EnumDesc] {
	p := enumTypes.slots.Load()
	if p == nil || mod < 1 || int(mod) > len(*p) {
		return nil
	}
	return (*p)[mod-1]
}

// Enum returns the description of an enum type, or of the elements of an
// array of enums, as it is now; nil for any other type.
func (t Type) Enum() *EnumDesc {
	if t.Kind != Enum && t.Kind != ArrayOf(Enum) {
		return nil
	}
	if s := enumSlot(t.Mod); s != nil {
		return s.Load()
	}
	return nil
}

// IsEnum reports whether t is an enum type.
func (t Type) IsEnum() bool { return t.Kind == Enum }

// number returns the number of the label l, -1 when there is none.
func (d *EnumDesc) number(l string) int {
	for i, x := range d.Labels {
		if x == l {
			return i
		}
	}
	return -1
}

// Ordered returns the labels' numbers in sort order.
func (d *EnumDesc) Ordered() []int {
	out := make([]int, len(d.Labels))
	for i := range out {
		out[i] = i
	}
	// Few labels: an insertion sort keeps this free of closures.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && d.Sorts[out[j]] < d.Sorts[out[j-1]]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// OrderedLabels returns the labels in sort order.
func (d *EnumDesc) OrderedLabels() []string {
	var out []string
	for _, i := range d.Ordered() {
		out = append(out, d.Labels[i])
	}
	return out
}

// OrderedSorts returns the labels' sort positions in sort order.
func (d *EnumDesc) OrderedSorts() []float64 {
	var out []float64
	for _, i := range d.Ordered() {
		out = append(out, d.Sorts[i])
	}
	return out
}

// enumChange replaces t's description by what f makes of a copy of it.
func enumChange(t Type, f func(d *EnumDesc) error) error {
	enumTypes.mu.Lock()
	defer enumTypes.mu.Unlock()
	s := enumSlot(t.Mod)
	if t.Kind != Enum || s == nil {
		return pgerr.New(pgerr.Internal, "%s is not an enum type", t)
	}
	old := s.Load()
	d := &EnumDesc{Name: old.Name, OID: old.OID, ArrayOID: old.ArrayOID,
		Labels: append([]string(nil), old.Labels...), Sorts: append([]float64(nil), old.Sorts...)}
	if err := f(d); err != nil {
		return err
	}
	s.Store(d)
	return nil
}

// EnumAddValue adds the label l to the enum type t: last, or just before
// or after the label neighbour. added is false when l exists and
// ifNotExists says to leave it be.
func EnumAddValue(t Type, l, neighbour string, before, ifNotExists bool) (added bool, err error) {
	err = enumChange(t, func(d *EnumDesc) error {
		if d.number(l) >= 0 {
			if ifNotExists {
				return nil
			}
			return pgerr.New(pgerr.DuplicateObject, "enum label %q already exists", l)
		}
		if err := checkEnumLabel(l); err != nil {
			return err
		}
		pos, err := d.newSort(neighbour, before)
		if err != nil {
			return err
		}
		d.Labels = append(d.Labels, l)
		d.Sorts = append(d.Sorts, pos)
		added = true
		return nil
	})
	return added, err
}

// newSort returns the sort position of a label added last (neighbour
// "") or next to neighbour: the midpoint between it and the label beside
// it on that side, or one past the end.
func (d *EnumDesc) newSort(neighbour string, before bool) (float64, error) {
	order := d.Ordered()
	if neighbour == "" {
		if len(order) == 0 {
			return 1, nil
		}
		return d.Sorts[order[len(order)-1]] + 1, nil
	}
	n := d.number(neighbour)
	if n < 0 {
		return 0, pgerr.New(pgerr.InvalidParameter, "%q is not an existing enum label", neighbour)
	}
	at := 0
	for i, x := range order {
		if x == n {
			at = i
		}
	}
	here := d.Sorts[n]
	var other float64
	switch {
	case before && at == 0:
		other = here - 2
	case before:
		other = d.Sorts[order[at-1]]
	case at == len(order)-1:
		other = here + 2
	default:
		other = d.Sorts[order[at+1]]
	}
	mid := (here + other) / 2
	if mid == here || mid == other {
		// Positions never change once given, so that values keep their
		// order in every index: a place halved some fifty times over is
		// full.
		return 0, pgerr.New(pgerr.FeatureNotSupported, "no room is left for another enum label %s %q", map[bool]string{true: "before", false: "after"}[before], neighbour).
			WithHint("add the label elsewhere, or create the type again with its labels in order")
	}
	return mid, nil
}

// EnumRenameValue renames the label from of the enum type t to to.
func EnumRenameValue(t Type, from, to string) error {
	return enumChange(t, func(d *EnumDesc) error {
		n := d.number(from)
		if n < 0 {
			return pgerr.New(pgerr.InvalidParameter, "%q is not an existing enum label", from)
		}
		if d.number(to) >= 0 {
			return pgerr.New(pgerr.DuplicateObject, "enum label %q already exists", to)
		}
		if err := checkEnumLabel(to); err != nil {
			return err
		}
		d.Labels[n] = to
		return nil
	})
}

// EnumRename renames the enum type t.
func EnumRename(t Type, name string) error {
	return enumChange(t, func(d *EnumDesc) error {
		d.Name = name
		return nil
	})
}

// NewEnum returns the value of the enum type t whose label is number n.
func NewEnum(t Type, n int) Value {
	return Value{kind: Enum, n: int64(t.Mod)<<32 | int64(n)}
}

// EnumType returns the type of an enum value.
func (v Value) EnumType() Type { return Type{Enum, int32(v.n >> 32)} }

// enumDesc returns the description of an enum value's type.
func (v Value) enumDesc() *EnumDesc { return v.EnumType().Enum() }

// EnumLabel returns an enum value's label.
func (v Value) EnumLabel() string {
	d := v.enumDesc()
	n := int(uint32(v.n))
	if d == nil || n >= len(d.Labels) {
		return ""
	}
	return d.Labels[n]
}

// enumSort returns an enum value's sort position.
func (v Value) enumSort() float64 {
	d := v.enumDesc()
	n := int(uint32(v.n))
	if d == nil || n >= len(d.Sorts) {
		return 0
	}
	return d.Sorts[n]
}

// compareEnums orders two enum values by their labels' positions; values
// of different types (which the binder keeps apart) by their types.
func compareEnums(a, b Value) int {
	if a.n>>32 != b.n>>32 {
		return cmpInt(a.n>>32, b.n>>32)
	}
	return cmpFloat(a.enumSort(), b.enumSort())
}

// appendEnumKey encodes an enum value as its type's mod and its label's
// sort position, ordered.
func appendEnumKey(buf []byte, v Value) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(v.n>>32))
	return binary.BigEndian.AppendUint64(buf, floatKeyBits(v.enumSort()))
}

// parseEnum reads a label of the enum type t (enum_in): the label
// exactly, else 22P02.
func parseEnum(s string, t Type) (Value, error) {
	d := t.Enum()
	if d == nil {
		return Null, pgerr.New(pgerr.Internal, "enum type %s has no labels", strconv.Itoa(int(t.Mod)))
	}
	if n := d.number(s); n >= 0 {
		return NewEnum(t, n), nil
	}
	return Null, pgerr.New(pgerr.InvalidTextRep, "invalid input value for enum %s: %q", d.Name, s)
}

// EnumRange returns the labels of the enum type t from lo to hi, both
// included, as values in sort order; a NULL bound is the type's first or
// last label (enum_range).
func EnumRange(t Type, lo, hi Value) []Value {
	d := t.Enum()
	var out []Value
	for _, n := range d.Ordered() {
		v := NewEnum(t, n)
		if (lo.IsNull() || Compare(lo, v) <= 0) && (hi.IsNull() || Compare(v, hi) <= 0) {
			out = append(out, v)
		}
	}
	return out
}

// EnumRestore makes d, a descriptor t.Enum() returned earlier, t's again:
// the undo of the changes made to t since (a rolled-back transaction
// block's ALTER TYPE … ADD VALUE). Descriptors are never changed once
// stored, so d is as it was.
func EnumRestore(t Type, d *EnumDesc) {
	enumTypes.mu.Lock()
	defer enumTypes.mu.Unlock()
	if s := enumSlot(t.Mod); s != nil && t.Kind == Enum {
		s.Store(d)
	}
}
