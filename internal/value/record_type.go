package value

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Record types. A record value holds only its fields; its type says what
// they are called and what types they have, as PostgreSQL's row types do.
// A table's row has the composite type named after the table; a row
// constructor, a subquery's row or a function's record has an anonymous
// one ("record") whose fields are still known where it is bound. Like
// PostgreSQL, which gives each anonymous row type it meets a type
// modifier indexing a registry of its backend, a record type here is
// Type{Record, mod}, mod indexing a process-wide registry of descriptions
// interned by content: the same fields give the same Type, so types still
// compare with ==, and no value carries its names.
//
// Mod -1 (RecordType) is a record whose fields are not known when
// binding.

// RecordDesc describes the fields of a record type. It is immutable.
type RecordDesc struct {
	// Name is the composite type's name, the table's or view's whose row
	// it is; "" for an anonymous record.
	Name   string
	Fields []RecordField
	// OID and ArrayOID are the object numbers of a composite type made by
	// CREATE TYPE … AS (…), and of its array type; 0 for a relation's
	// row type and an anonymous record.
	OID, ArrayOID uint32
	// Unregistered marks the anonymous record of a call of a function
	// returning record: its fields have the names of the body's columns
	// (which row_to_json shows), but a query cannot select them, as
	// PostgreSQL knows them only when the call runs.
	Unregistered bool
}

// RecordField is a record type's field: its name and type.
type RecordField struct {
	Name string
	Type Type
}

// recordTypes is the registry. Readers load descs, an immutable snapshot,
// without a lock (RecordDesc is called per value where a record is written
// as json); a registration copies it under mu.
var recordTypes struct {
	mu    sync.Mutex
	descs atomic.Pointer[[]*RecordDesc]
	index map[string]int32
}

// RecordTypeOf returns the record type with these fields, named name (a
// table's or view's row type) or anonymous when name is "".
func RecordTypeOf(name string, fields []RecordField) Type {
	return CompositeTypeOf(name, 0, 0, fields)
}

// CompositeTypeOf returns the composite type name with these fields and
// object numbers, as CREATE TYPE … AS (…) makes it: each change of its
// fields or name gives another Type.
func CompositeTypeOf(name string, oid, arrayOID uint32, fields []RecordField) Type {
	return recordTypeOf(name, oid, arrayOID, fields, false)
}

// UnregisteredRecordTypeOf returns the anonymous record type with these
// fields whose fields a query cannot select (RecordDesc.Unregistered).
func UnregisteredRecordTypeOf(fields []RecordField) Type {
	return recordTypeOf("", 0, 0, fields, true)
}

func recordTypeOf(name string, oid, arrayOID uint32, fields []RecordField, unregistered bool) Type {
	k := recordKey(name, oid, arrayOID, fields, unregistered)
	recordTypes.mu.Lock()
	defer recordTypes.mu.Unlock()
	if mod, ok := recordTypes.index[k]; ok {
		return Type{Record, mod}
	}
	if recordTypes.index == nil {
		recordTypes.index = map[string]int32{}
	}
	var descs []*RecordDesc
	if p := recordTypes.descs.Load(); p != nil {
		descs = *p
	}
	d := &RecordDesc{Name: name, Fields: append([]RecordField(nil), fields...), OID: oid, ArrayOID: arrayOID, Unregistered: unregistered}
	descs = append(descs[:len(descs):len(descs)], d)
	recordTypes.descs.Store(&descs)
	mod := int32(len(descs))
	recordTypes.index[k] = mod
	return Type{Record, mod}
}

// recordKey is the registry's key of a record type's content.
func recordKey(name string, oid, arrayOID uint32, fields []RecordField, unregistered bool) string {
	var key strings.Builder
	if unregistered {
		key.WriteString("!")
	}
	key.WriteString(strconv.Quote(name))
	if oid != 0 {
		key.WriteString(" " + strconv.FormatUint(uint64(oid), 10) + " " + strconv.FormatUint(uint64(arrayOID), 10))
	}
	for _, f := range fields {
		key.WriteByte(' ')
		key.WriteString(strconv.Quote(f.Name))
		key.WriteByte(' ')
		key.WriteString(strconv.Itoa(int(f.Type.Kind)))
		key.WriteByte('.')
		key.WriteString(strconv.Itoa(int(f.Type.Mod)))
	}
	return key.String()
}

// RecordDesc returns the fields of a record type, or of the elements of
// an array of records; nil when t is another type or a record whose fields
// are not known.
func (t Type) RecordDesc() *RecordDesc {
	if t.Kind != Record && t.Kind != ArrayOf(Record) || t.Mod < 1 {
		return nil
	}
	p := recordTypes.descs.Load()
	if p == nil || int(t.Mod) > len(*p) {
		return nil
	}
	return (*p)[t.Mod-1]
}

// IsAnonymousRecord reports whether t is PostgreSQL's pseudo-type record:
// a record that is not a table's or view's row type.
func (t Type) IsAnonymousRecord() bool {
	if t.Kind != Record {
		return false
	}
	d := t.RecordDesc()
	return d == nil || d.Name == ""
}

// Field returns the field called name and its position; -1 when there is
// none.
func (d *RecordDesc) Field(name string) (RecordField, int) {
	for i, f := range d.Fields {
		if f.Name == name {
			return f, i
		}
	}
	return RecordField{}, -1
}

// ArrayTypeOf returns the type of arrays of elem: ArrayType(elem.Kind),
// keeping a record type's fields, an enum type's labels and a length,
// precision or interval's fields, which apply to each element.
func ArrayTypeOf(elem Type) Type {
	if elem.Kind == Record || elem.Kind == Enum || elem.Kind == UserRange || elem.Kind == UserMultirange || TakesModifier(elem.Kind) {
		return Type{ArrayOf(elem.Kind), elem.Mod}
	}
	return ArrayType(elem.Kind)
}

// ElemType returns the element type of an array type: a record's keeps
// its fields, an enum's its labels, a user range's its subtype; other elements have no modifier.
func (t Type) ElemType() Type {
	if t.Kind == ArrayOf(Record) || t.Kind == ArrayOf(Enum) || t.UserRange() != nil {
		return Type{t.Kind.Elem(), t.Mod}
	}
	return Type{t.Kind.Elem(), -1}
}

// recordTypeName is format_type's name of a record type: the table's for
// a row type, "record" otherwise.
func recordTypeName(t Type) string {
	if d := t.RecordDesc(); d != nil && d.Name != "" {
		// A system catalog's row type is keyed "pg_catalog.name"; its
		// schema is always searched, so PostgreSQL prints it bare.
		name := strings.TrimPrefix(d.Name, "pg_catalog.")
		if t.Kind.IsArray() {
			return name + "[]"
		}
		return name
	}
	return t.Kind.String()
}
