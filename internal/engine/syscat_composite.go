package engine

import (
	"github.com/deltaview/deltaview/internal/value"
)

// Composite types in the catalogs keep no state of their own: a composite
// type CREATE TYPE … AS (…) made is, as in PostgreSQL, a pg_type row of
// typtype 'c' whose typrelid is a pg_class row of relkind 'c' holding its
// attributes in pg_attribute, with an array type "_name". Every table,
// view and materialized view has such a row type too, named after it,
// whose typrelid is the relation itself (pg_class.reltype). A composite
// type keeps the oids CREATE TYPE gave it; a relation's row type has oids
// derived from the relation's name (rowTypeOIDs).

// recordIOFuncs are a composite type's typinput, typoutput, typreceive
// and typsend, with PostgreSQL's oids. They are not callable.
var recordIOFuncs = []struct {
	oid  uint32
	name string
}{{2290, "record_in"}, {2291, "record_out"}, {2402, "record_recv"}, {2403, "record_send"}}

// recordIORegs are a composite type's typinput, typoutput, typreceive and
// typsend.
func recordIORegs() [4]value.Value {
	var out [4]value.Value
	for i, f := range recordIOFuncs {
		out[i] = value.NewReg(value.RegProc, f.oid, f.name)
	}
	return out
}

// rowTypeOIDs are the oids of the row type of the relation keyed name and
// of its array type.
func rowTypeOIDs(name string) (uint32, uint32) {
	return objectOID("type", name), objectOID("type", "_"+name)
}

// compositeTypeOID is the oid of t when it is a composite type, a
// relation's row type or an array of either; 0 otherwise.
func (e *Engine) compositeTypeOID(t value.Type) uint32 {
	d := t.RecordDesc()
	if d == nil || d.Name == "" {
		return 0
	}
	oid, arr := d.OID, d.ArrayOID
	if oid == 0 {
		if c, a, ok := catalogRowTypeOIDsOf(d.Name); ok {
			oid, arr = c, a
		} else if _, ok := e.kindOf(d.Name); ok {
			oid, arr = rowTypeOIDs(d.Name)
		} else {
			return 0
		}
	}
	if t.Kind.IsArray() {
		return arr
	}
	return oid
}

// compositeRels adds the pg_class rows of the composite types CREATE TYPE
// made (relkind 'c'), their attributes as columns.
func (o *catalogObjects) compositeRels(add func(*catRel)) {
	e := o.e
	for _, name := range sortedKeys(e.composites) {
		ct := e.composites[name]
		r := &catRel{oid: RelationOID(name), name: name, nsp: publicOID, kind: 'c', rows: -1}
		for _, a := range ct.Attrs {
			r.cols = append(r.cols, catCol{name: a.Name, typ: a.Type, typOID: e.typeOID(a.Type, a.Domain), num: a.Attnum})
		}
		for _, d := range ct.Dropped {
			if d.Def != nil { // its pg_attribute row keeps what its type was
				d.Attr, d.Def = columnAttr(d.Def.Type, nil), nil
			}
			r.dropped = append(r.dropped, d)
		}
		d := ct.Type.RecordDesc()
		r.reltype = d.OID
		add(r)
	}
}

// rowTypes lists the row types of o's relations that have one, and of the
// composite types: each with its array type. It sets each relation's
// reltype.
func (o *catalogObjects) rowTypes() []catType {
	out := o.catalogRowTypes()
	for _, r := range o.rels {
		if r.key == "" {
			continue
		}
		switch r.kind {
		case 'r', 'p', 'v', 'm':
			r.reltype, _ = rowTypeOIDs(r.key)
			_, arr := rowTypeOIDs(r.key)
			out = append(out, o.rowType(r, r.reltype, arr)...)
		case 'c':
			d := o.e.composites[r.key].Type.RecordDesc()
			out = append(out, o.rowType(r, d.OID, d.ArrayOID)...)
		}
	}
	return out
}

// rowType is the pg_type rows of relation r's row type and its array.
func (o *catalogObjects) rowType(r *catRel, oid, arr uint32) []catType {
	return []catType{{oid: oid, array: arr, name: r.key, nsp: publicOID, kind: value.Record, typtype: 'c', relid: r.oid},
		{oid: arr, name: "_" + r.key, nsp: publicOID, kind: value.ArrayOf(value.Record), typtype: 'b', base: oid}}
}

// pgDependRowTypes adds the dependencies PostgreSQL records for row
// types: a row type on its relation, a composite type's relation on the
// type, an array type on its element type (all internal, 'i'), and a
// composite type on its schema ('n').
func pgDependRowTypes(o *catalogObjects, r *catRows) {
	typeClass, classClass := uint32(catalogRelOIDs["pg_type"]), uint32(catalogRelOIDs["pg_class"])
	dep := func(classid, objid, refclassid, refobjid uint32, deptype string) {
		r.add("classid", classid, "objid", objid, "objsubid", 0, "refclassid", refclassid, "refobjid", refobjid,
			"refobjsubid", 0, "deptype", deptype)
	}
	for _, t := range o.types {
		switch {
		case t.nsp == pgCatalogOID || t.nsp == infoSchemaOID:
			// The system's row types, whose dependencies (none for a
			// pinned catalog's) are left out as the system views' are.
		case t.typtype == 'c' && t.relid != 0:
			if o.e.composites[t.name] != nil {
				sc, _ := o.e.splitObject(t.name)
				dep(typeClass, t.oid, uint32(catalogRelOIDs["pg_namespace"]), schemaOID(sc), "n")
				dep(classClass, t.relid, typeClass, t.oid, "i")
			} else {
				dep(typeClass, t.oid, classClass, t.relid, "i")
			}
		case t.kind == value.ArrayOf(value.Record) && t.base != 0:
			dep(typeClass, t.oid, typeClass, t.base, "i")
		}
	}
}
