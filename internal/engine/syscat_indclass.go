package engine

import (
	"strconv"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/value"
)

// pg_index.indclass and indcollation: per key element of an index, the
// operator class it uses (the one CREATE INDEX named, else the default
// class of its access method for the element's type, as PostgreSQL's
// GetDefaultOpClass finds it) and its collation (the type's: default for
// the string types, "C" for name, none for the others). Keeps no state
// but the operator classes indexed once by method and input type.

// indexAMOIDs are the access methods' oids, by name.
var indexAMOIDs = map[string]uint32{"btree": btreeAMOID, "hash": 405, "gist": 783, "gin": 2742, "spgist": 4000, "brin": 3580}

type opclassKey struct {
	method uint32
	intype uint32
}

var opclassIndex = sync.OnceValues(func() (byType map[opclassKey]uint32, byName map[string]uint32) {
	byType, byName = map[opclassKey]uint32{}, map[string]uint32{}
	for _, f := range catalogFields(builtinOpclasses, 7) {
		oid, method := catOID(f[0]), catOID(f[1])
		byName[f[1]+"/"+f[2]] = oid
		if f[5] == "t" {
			byType[opclassKey{method, catOID(f[4])}] = oid
		}
	}
	return byType, byName
})

// opclassInType is the input type whose default class serves a type
// without one of its own: varchar takes text's, cidr inet's, arrays,
// enums, ranges, multiranges and composites their pseudo-type's.
func opclassInType(t value.Type, typOID uint32) []uint32 {
	k := t.Kind
	out := []uint32{typOID}
	for i := range value.BuiltinTypes {
		if b := &value.BuiltinTypes[i]; b.Kind == k && b.OID != typOID {
			out = append(out, b.OID) // a domain's base type
		}
	}
	switch {
	case k == value.Varchar:
		out = append(out, 25)
	case k == value.Cidr:
		out = append(out, 869)
	case k.IsArray() && !k.IsVector():
		out = append(out, 2277)
	case k == value.Enum:
		out = append(out, 3500)
	case k.IsRange():
		out = append(out, 3831)
	case k.IsMultirange():
		out = append(out, 4537)
	case k == value.Record:
		out = append(out, 2249)
	}
	return out
}

// indexOpclass is a key element's operator class: the one its options
// name (a word ending in _ops), else its method's default for t; 0 when
// none is known.
func indexOpclass(method, opts string, t value.Type, typOID uint32) uint32 {
	if method == "" {
		method = "btree"
	}
	am := indexAMOIDs[method]
	byType, byName := opclassIndex()
	for _, w := range strings.Fields(opts) {
		if strings.HasSuffix(w, "_ops") {
			return byName[strconv.FormatUint(uint64(am), 10)+"/"+w]
		}
	}
	for _, in := range opclassInType(t, typOID) {
		if oid, ok := byType[opclassKey{am, in}]; ok {
			return oid
		}
	}
	return 0
}

// typeCollation is the collation of a column or key of type t: "C" for
// name and its arrays, the default for the other string types and their
// arrays, none for the rest.
func typeCollation(t value.Type) uint32 {
	k := t.Kind
	if k.IsArray() && !k.IsVector() {
		k = k.Elem()
	}
	switch {
	case k == value.Name:
		return cCollOID
	case k.IsString():
		return defaultCollOID
	}
	return 0
}

// indexCollation is a key element's collation: the one its options name
// (COLLATE "C", "POSIX", an ICU one), else its type's.
func indexCollation(opts string, t value.Type) uint32 {
	coll := typeCollation(t)
	if coll != 0 {
		if _, rest, ok := strings.Cut(opts, `COLLATE "`); ok {
			if name, _, ok := strings.Cut(rest, `"`); ok {
				if oid := collationOID(name); oid != 0 {
					return oid
				}
			}
		}
	}
	return coll
}
