package engine

import (
	"sort"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// The catalogs of extensions: pg_extension (the installed ones, plpgsql
// first), pg_available_extensions and pg_available_extension_versions
// (those the engine provides, one version each), the installed
// extensions' functions in pg_proc, and their membership in pg_depend
// (deptype 'e').

// pgExtensionOID is pg_extension's oid, the class of an extension in
// pg_depend; plpgsqlExtOID plpgsql's, as in a new PostgreSQL database.
const (
	pgExtensionOID = 3079
	plpgsqlExtOID  = 13559
)

// catExt is an installed extension as the catalogs list it.
type catExt struct {
	oid    uint32
	x      *expr.Extension
	schema string
}

func init() {
	add := addCatalogRelation
	add("pg_catalog.pg_extension", "oid:oid,extname:name,extowner:oid,extnamespace:oid,extrelocatable:boolean,extversion:text,extconfig:oid[],extcondition:text[]",
		func(o *catalogObjects, r *catRows) {
			for _, x := range o.exts {
				r.add("oid", x.oid, "extname", x.x.Name, "extowner", uint32(superuserOID), "extnamespace", schemaOID(x.schema),
					"extrelocatable", x.x.Relocatable, "extversion", x.x.Version)
			}
		})
	add("pg_catalog.pg_available_extensions", "name:name,default_version:text,installed_version:text,comment:text",
		func(o *catalogObjects, r *catRows) {
			for _, x := range expr.Extensions() {
				r.add("name", x.Name, "default_version", x.Version, "installed_version", o.installedVersion(x.Name), "comment", x.Comment)
			}
		})
	add("pg_catalog.pg_available_extension_versions", "name:name,version:text,installed:boolean,superuser:boolean,trusted:boolean,relocatable:boolean,schema:name,requires:name[],comment:text",
		func(o *catalogObjects, r *catRows) {
			for _, x := range expr.Extensions() {
				var schema any
				if x.Schema != "" {
					schema = x.Schema
				}
				r.add("name", x.Name, "version", x.Version, "installed", o.installedVersion(x.Name) != nil, "superuser", true,
					"trusted", true, "relocatable", x.Relocatable, "schema", schema, "comment", x.Comment)
			}
		})
}

// installedVersion is the version of the extension named that is
// installed, nil when it is not.
func (o *catalogObjects) installedVersion(name string) any {
	for _, x := range o.exts {
		if x.x.Name == name {
			return x.x.Version
		}
	}
	return nil
}

// catalogExtensions lists the installed extensions, plpgsql first, then
// in creation order.
func (e *Engine) catalogExtensions() []catExt {
	pl, _ := expr.LookupExtension(builtinExtension)
	out := []catExt{{oid: plpgsqlExtOID, x: pl, schema: "pg_catalog"}}
	var names []string
	for name := range e.exts {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return e.exts[names[i]].seq < e.exts[names[j]].seq })
	for _, name := range names {
		ie := e.exts[name]
		out = append(out, catExt{oid: objectOID("extension", name), x: ie.x, schema: ie.schema})
	}
	return out
}

// extProcOID is the oid of an extension's function in pg_proc.
func extProcOID(f *expr.FuncDef) uint32 { return objectOID("function", f.Ext+"."+f.Signature()) }

// pgProcExtensions lists the installed extensions' functions in pg_proc.
func pgProcExtensions(o *catalogObjects, r *catRows) {
	for _, x := range o.exts {
		for _, f := range x.x.Funcs {
			args := make([]string, len(f.Params))
			for i, k := range f.Params {
				// typeOID knows the extensions' types (hstore) too.
				args[i] = strconv.FormatUint(uint64(o.e.typeOID(value.Type{Kind: k, Mod: -1}, nil)), 10)
			}
			volatile := "i"
			if f.Volatile {
				volatile = "v"
			} else if f.Session != nil || f.Stable {
				volatile = "s" // it reads the session's settings, or is declared so
			}
			r.add("oid", extProcOID(f), "proname", f.Name, "pronamespace", schemaOID(x.schema), "proowner", uint32(superuserOID),
				"prolang", uint32(13), "procost", 1.0, "prorows", 0.0, "provariadic", uint32(0),
				"prosupport", value.NewReg(value.RegProc, 0, ""), "prokind", "f", "prosecdef", false, "proleakproof", false,
				"proisstrict", f.Strict, "proretset", f.Rows != nil, "provolatile", volatile, "proparallel", "s", "pronargs", len(f.Params),
				"pronargdefaults", 0, "prorettype", o.e.typeOID(f.Result, nil), "proargtypes", strings.Join(args, " "),
				"prosrc", f.Name)
		}
	}
}

// pgDepend lists the dependencies the catalog records: the installed
// extensions' functions on their extension, and the sequences of serial
// ('a') and identity ('i') columns on their column (psql's "Owned by").
func pgDepend(o *catalogObjects, r *catRows) {
	// plpgsql's members: its language and the language's handlers, which
	// the language needs (deptype 'n'), as initdb records them (\dx+).
	procClass, langClass := uint32(catalogRelOIDs["pg_proc"]), uint32(catalogRelOIDs["pg_language"])
	for _, fn := range []uint32{13560, 13561, 13562} {
		r.add("classid", procClass, "objid", fn, "objsubid", 0,
			"refclassid", uint32(pgExtensionOID), "refobjid", uint32(plpgsqlExtOID), "refobjsubid", 0, "deptype", "e")
	}
	r.add("classid", langClass, "objid", uint32(plpgsqlLangOID), "objsubid", 0,
		"refclassid", uint32(pgExtensionOID), "refobjid", uint32(plpgsqlExtOID), "refobjsubid", 0, "deptype", "e")
	for _, fn := range []uint32{13562, 13561, 13560} {
		r.add("classid", langClass, "objid", uint32(plpgsqlLangOID), "objsubid", 0,
			"refclassid", procClass, "refobjid", fn, "refobjsubid", 0, "deptype", "n")
	}
	for _, x := range o.exts {
		for _, f := range x.x.Funcs {
			r.add("classid", uint32(catalogRelOIDs["pg_proc"]), "objid", extProcOID(f), "objsubid", 0,
				"refclassid", uint32(pgExtensionOID), "refobjid", x.oid, "refobjsubid", 0, "deptype", "e")
		}
	}
	classOID := uint32(catalogRelOIDs["pg_class"])
	for _, rel := range o.rels {
		if rel.seq == nil || rel.seq.owner[0] == "" {
			continue
		}
		for _, t := range o.rels {
			if t.key != rel.seq.owner[0] || t.kind != 'r' && t.kind != 'p' {
				continue
			}
			for i, c := range t.cols {
				if c.name == rel.seq.owner[1] {
					deptype := "a"
					if rel.seq.identity {
						deptype = "i"
					}
					r.add("classid", classOID, "objid", rel.oid, "objsubid", 0,
						"refclassid", classOID, "refobjid", t.oid, "refobjsubid", t.num(i), "deptype", deptype)
				}
			}
		}
	}
	pgDependRowTypes(o, r)
	pgDependViews(o, r)
}

// describeExtensions gives each installed extension its comment in
// pg_description, as its control file gives it in PostgreSQL (psql's \dx
// prints it).
func (o *catalogObjects) describeExtensions() {
	for _, x := range o.exts {
		o.descs[expr.DescKey{ClassOID: pgExtensionOID, ObjOID: x.oid}] = x.x.Comment
	}
}
