package engine

import (
	"github.com/deltaview/deltaview/internal/value"
)

// pg_range lists the built-in range types and those CREATE TYPE … AS
// RANGE made, as PostgreSQL 15 lists them: each with its subtype, its
// multirange type, the subtype's collation (the default, 100, for a
// collatable subtype), the subtype's default btree operator class, the
// canonical function of a discrete built-in range and the subtype
// difference function, by their PostgreSQL oids.

// rangeFuncs are the canonical and subtype difference functions of the
// built-in range types.
var rangeFuncs = map[value.Kind][2]value.Value{
	value.Int4Range: {procReg(3914, "int4range_canonical"), procReg(3922, "int4range_subdiff")},
	value.NumRange:  {procReg(0, ""), procReg(3924, "numrange_subdiff")},
	value.TSRange:   {procReg(0, ""), procReg(3929, "tsrange_subdiff")},
	value.TSTZRange: {procReg(0, ""), procReg(3930, "tstzrange_subdiff")},
	value.DateRange: {procReg(3915, "daterange_canonical"), procReg(3925, "daterange_subdiff")},
	value.Int8Range: {procReg(3928, "int8range_canonical"), procReg(3923, "int8range_subdiff")},
}

// subtypeDiffOIDs are the oids of the functions SUBTYPE_DIFF may name.
var subtypeDiffOIDs = map[string]uint32{
	"float8mi": 219, "float8pl": 218, "float8mul": 216, "float8div": 217,
	"int4range_subdiff": 3922, "int8range_subdiff": 3923, "numrange_subdiff": 3924,
	"daterange_subdiff": 3925, "tsrange_subdiff": 3929, "tstzrange_subdiff": 3930,
}

func pgRange(o *catalogObjects, r *catRows) {
	for _, k := range []value.Kind{value.Int4Range, value.NumRange, value.TSRange, value.TSTZRange, value.DateRange, value.Int8Range} {
		sub := builtinByKind[k.RangeElem()]
		f := rangeFuncs[k]
		r.add("rngtypid", builtinByKind[k].OID, "rngsubtype", sub.OID, "rngmultitypid", builtinByKind[k.MultirangeOf()].OID,
			"rngcollation", uint32(0), "rngsubopc", defaultBtreeOpclass(sub.OID), "rngcanonical", f[0], "rngsubdiff", f[1])
	}
	for _, name := range sortedKeys(o.e.userTypes) {
		t := o.e.userTypes[name]
		d := t.UserRange()
		if d == nil || t.Kind != value.UserRange {
			continue
		}
		sub := o.e.typeOID(d.Subtype, nil)
		diff := procReg(0, "")
		if d.SubtypeDiff != "" {
			diff = procReg(subtypeDiffOIDs[d.SubtypeDiff], d.SubtypeDiff)
		}
		coll := uint32(0)
		if k := d.Subtype.Kind; k == value.Text || k == value.Varchar || k == value.Char {
			coll = 100 // the default collation
		}
		opcIn := sub
		switch {
		case d.Subtype.Kind == value.Enum:
			opcIn = 3500 // anyenum
		case d.Subtype.Kind == value.Varchar:
			opcIn = 25 // text's operator class, varchar being binary-coercible to text
		}
		r.add("rngtypid", d.OID, "rngsubtype", sub, "rngmultitypid", d.MultiOID,
			"rngcollation", coll, "rngsubopc", defaultBtreeOpclass(opcIn), "rngcanonical", procReg(0, ""), "rngsubdiff", diff)
	}
}

// defaultBtreeOpclass is the oid of the default btree operator class of
// the type of oid typ, 0 when there is none.
func defaultBtreeOpclass(typ uint32) uint32 {
	for _, f := range catalogFields(builtinOpclasses, 7) {
		if f[1] == "403" && f[5] == "t" && catOID(f[4]) == typ {
			return catOID(f[0])
		}
	}
	return 0
}
