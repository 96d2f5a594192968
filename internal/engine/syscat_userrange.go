package engine

import "github.com/deltaview/deltaview/internal/value"

// The range types CREATE TYPE … AS RANGE made, in pg_type as PostgreSQL
// lists them: the range type (typtype r) and its multirange type (m),
// each with its array type, under the oids they have on the wire, so
// that regtype, to_regtype, format_type and the privilege functions
// know them.

// catalogRangeTypes lists the user range and multirange types and their
// array types.
func (e *Engine) catalogRangeTypes() []catType {
	var out []catType
	for _, name := range sortedKeys(e.userTypes) {
		t := e.userTypes[name]
		d := t.UserRange()
		if d == nil || t.Kind.IsArray() {
			continue
		}
		oid, array, typtype := d.OID, d.ArrayOID, byte('r')
		if t.Kind == value.UserMultirange {
			oid, array, typtype = d.MultiOID, d.MultiArrayOID, 'm'
		}
		out = append(out, catType{oid: oid, array: array, name: name, nsp: publicOID, kind: t.Kind, typtype: typtype},
			catType{oid: array, name: "_" + name, nsp: publicOID, kind: value.ArrayOf(t.Kind), typtype: 'b', base: oid})
	}
	return out
}

// userRangeTypeOID is the oid of t when it is a user range or
// multirange type or an array of one, 0 otherwise.
func userRangeTypeOID(t value.Type) uint32 {
	d := t.UserRange()
	if d == nil {
		return 0
	}
	switch t.Kind {
	case value.UserRange:
		return d.OID
	case value.UserMultirange:
		return d.MultiOID
	case value.ArrayOf(value.UserRange):
		return d.ArrayOID
	}
	return d.MultiArrayOID
}

// rangeAlign is pg_type.typalign of the user range or multirange type
// t: double when its subtype's is, int otherwise, as PostgreSQL aligns
// a range's bounds.
func rangeAlign(t value.Type) string {
	if d := t.UserRange(); d != nil {
		if b := builtinByKind[d.Subtype.Kind]; b != nil && b.Align == 'd' {
			return "d"
		}
	}
	return "i"
}
