package engine

import (
	"cmp"
	"strconv"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// information_schema's relations of the types, domains and collations
// that columns use, and of the USAGE privileges on them. They keep no
// state: their rows are made from the catalog when a statement reads
// them, as PostgreSQL 15 lists them for a superuser.

func init() {
	add := func(name, cols string, rows func(o *catalogObjects, r *catRows)) {
		addCatalogRelation("information_schema."+name, cols, rows)
	}
	add("collations", "collation_catalog:sql_identifier,collation_schema:sql_identifier,collation_name:sql_identifier,pad_attribute:character_data",
		func(o *catalogObjects, r *catRows) {
			o.eachCollation(func(schema, name string) {
				r.add("collation_catalog", DatabaseName, "collation_schema", schema, "collation_name", name, "pad_attribute", "NO PAD")
			})
		})
	add("collation_character_set_applicability", "collation_catalog:sql_identifier,collation_schema:sql_identifier,collation_name:sql_identifier,"+
		"character_set_catalog:sql_identifier,character_set_schema:sql_identifier,character_set_name:sql_identifier",
		func(o *catalogObjects, r *catRows) {
			o.eachCollation(func(schema, name string) {
				r.add("collation_catalog", DatabaseName, "collation_schema", schema, "collation_name", name, "character_set_name", "UTF8")
			})
		})
	add("column_domain_usage", "domain_catalog:sql_identifier,domain_schema:sql_identifier,domain_name:sql_identifier,table_catalog:sql_identifier,"+
		"table_schema:sql_identifier,table_name:sql_identifier,column_name:sql_identifier", infoColumnDomainUsage)
	add("column_udt_usage", "udt_catalog:sql_identifier,udt_schema:sql_identifier,udt_name:sql_identifier,table_catalog:sql_identifier,"+
		"table_schema:sql_identifier,table_name:sql_identifier,column_name:sql_identifier", infoColumnUDTUsage)
	add("domain_udt_usage", "udt_catalog:sql_identifier,udt_schema:sql_identifier,udt_name:sql_identifier,domain_catalog:sql_identifier,"+
		"domain_schema:sql_identifier,domain_name:sql_identifier", infoDomainUDTUsage)
	privs := "grantor:sql_identifier,grantee:sql_identifier,udt_catalog:sql_identifier,udt_schema:sql_identifier,udt_name:sql_identifier," +
		"privilege_type:character_data,is_grantable:yes_or_no"
	add("udt_privileges", privs, infoUDTPrivileges)
	add("role_udt_grants", privs, infoUDTPrivileges) // a superuser's enabled roles are all the roles
	usage := "grantor:sql_identifier,grantee:sql_identifier,object_catalog:sql_identifier,object_schema:sql_identifier,object_name:sql_identifier," +
		"object_type:character_data,privilege_type:character_data,is_grantable:yes_or_no"
	add("usage_privileges", usage, infoUsagePrivileges)
	add("role_usage_grants", usage, infoUsagePrivileges)
	add("data_type_privileges", "object_catalog:sql_identifier,object_schema:sql_identifier,object_name:sql_identifier,object_type:character_data,"+
		"dtd_identifier:sql_identifier", infoDataTypePrivileges)
	add("element_types", "object_catalog:sql_identifier,object_schema:sql_identifier,object_name:sql_identifier,object_type:character_data,"+
		"collection_type_identifier:sql_identifier,data_type:character_data,character_maximum_length:cardinal_number,"+
		"character_octet_length:cardinal_number,character_set_catalog:sql_identifier,character_set_schema:sql_identifier,"+
		"character_set_name:sql_identifier,collation_catalog:sql_identifier,collation_schema:sql_identifier,collation_name:sql_identifier,"+
		"numeric_precision:cardinal_number,numeric_precision_radix:cardinal_number,numeric_scale:cardinal_number,"+
		"datetime_precision:cardinal_number,interval_type:character_data,interval_precision:cardinal_number,domain_default:character_data,"+
		"udt_catalog:sql_identifier,udt_schema:sql_identifier,udt_name:sql_identifier,scope_catalog:sql_identifier,"+
		"scope_schema:sql_identifier,scope_name:sql_identifier,maximum_cardinality:cardinal_number,dtd_identifier:sql_identifier", infoElementTypes)
	add("column_column_usage", "table_catalog:sql_identifier,table_schema:sql_identifier,table_name:sql_identifier,column_name:sql_identifier,"+
		"dependent_column:sql_identifier", infoColumnColumnUsage)
	add("check_constraint_routine_usage", "constraint_catalog:sql_identifier,constraint_schema:sql_identifier,constraint_name:sql_identifier,"+
		"specific_catalog:sql_identifier,specific_schema:sql_identifier,specific_name:sql_identifier", infoCheckConstraintRoutineUsage)
}

// eachCollation calls fn with the schema and name of each collation
// pg_collation lists: the byte-wise and ICU built-in ones, then the
// user collations.
func (o *catalogObjects) eachCollation(fn func(schema, name string)) {
	for _, c := range builtinCollations {
		fn("pg_catalog", c)
	}
	for _, c := range icuCollations {
		fn("pg_catalog", c.locale+"-x-icu")
	}
	for _, key := range sortedKeys(o.e.colls) {
		fn(o.e.colls[key].Schema, o.e.colls[key].Name)
	}
}

// typesByOID indexes o's types by oid.
func (o *catalogObjects) typesByOID() map[uint32]*catType {
	m := make(map[uint32]*catType, len(o.types))
	for i := range o.types {
		m[o.types[i].oid] = &o.types[i]
	}
	return m
}

// typeSchemaName is the schema and name of type t as information_schema
// names it.
func (o *catalogObjects) typeSchemaName(t *catType) (string, string) {
	if t.builtin != nil {
		return "pg_catalog", t.name
	}
	if t.nsp == infoSchemaOID {
		return "information_schema", t.name
	}
	if t.nsp == pgCatalogOID && t.relid != 0 {
		return "pg_catalog", t.name // a catalog's row type
	}
	if t.nsp != publicOID && t.nsp != 0 && t.typtype != 'd' && t.typtype != 'c' && t.typtype != 'e' {
		return nspName(t.nsp), t.name
	}
	return o.e.splitObject(t.name)
}

// typeOwnerName is the owner of the user type keyed name.
func (o *catalogObjects) typeOwnerName(name string) string {
	if role, ok := o.e.typeOwners[name]; ok {
		return role
	}
	return SuperuserName
}

// columnRels are the relations whose columns the usage views list:
// tables, views and partitioned tables.
func columnRel(rel *catRel) bool {
	return rel.kind == 'r' || rel.kind == 'v' || rel.kind == 'p'
}

func infoColumnDomainUsage(o *catalogObjects, r *catRows) {
	types := o.typesByOID()
	for _, rel := range o.rels {
		if !columnRel(rel) {
			continue
		}
		for _, c := range rel.cols {
			t := types[c.typOID]
			if t == nil || t.typtype != 'd' {
				continue
			}
			sc, name := o.typeSchemaName(t)
			r.add("domain_catalog", DatabaseName, "domain_schema", sc, "domain_name", name, "table_catalog", DatabaseName,
				"table_schema", rel.schema, "table_name", rel.name, "column_name", c.name)
		}
	}
}

// infoColumnUDTUsage lists each column's type, a domain's column its
// domain's base type.
func infoColumnUDTUsage(o *catalogObjects, r *catRows) {
	types := o.typesByOID()
	for _, rel := range o.rels {
		if !columnRel(rel) {
			continue
		}
		for _, c := range rel.cols {
			t := types[c.typOID]
			if t != nil && t.typtype == 'd' {
				t = types[t.base]
			}
			if t == nil {
				continue
			}
			sc, name := o.typeSchemaName(t)
			r.add("udt_catalog", DatabaseName, "udt_schema", sc, "udt_name", name, "table_catalog", DatabaseName,
				"table_schema", rel.schema, "table_name", rel.name, "column_name", c.name)
		}
	}
}

func infoDomainUDTUsage(o *catalogObjects, r *catRows) {
	types := o.typesByOID()
	for i := range o.types {
		d := &o.types[i]
		if d.typtype != 'd' {
			continue
		}
		bt := types[d.base]
		if bt == nil {
			continue
		}
		sc, name := o.typeSchemaName(d)
		bsc, bname := o.typeSchemaName(bt)
		r.add("udt_catalog", DatabaseName, "udt_schema", bsc, "udt_name", bname, "domain_catalog", DatabaseName,
			"domain_schema", sc, "domain_name", name)
	}
}

// infoUDTPrivileges lists USAGE on each composite type and each
// relation's row type: the items of its ACL, each from its grantor, or
// its owner's (grantable) and PUBLIC's, a type's default privileges.
func infoUDTPrivileges(o *catalogObjects, r *catRows) {
	for i := range o.types {
		t := &o.types[i]
		if t.typtype != 'c' || t.relid == 0 {
			continue
		}
		sc, name := o.typeSchemaName(t)
		key := t.name
		if k, ok := catalogTypeKey(t); ok {
			key = k
		}
		owner := o.typeOwnerName(key)
		if o.e.composites[key] == nil {
			owner = o.e.relOwner(key) // a relation's row type is its owner's
		}
		for _, it := range o.e.typeItems(key) {
			r.add("grantor", it.grantor, "grantee", cmp.Or(it.grantee, "PUBLIC"), "udt_catalog", DatabaseName, "udt_schema", sc, "udt_name", name,
				"privilege_type", "TYPE USAGE", "is_grantable", yesNo(o.e.typeItemGrantable(it, owner)))
		}
	}
}

// typeItemGrantable is information_schema's is_grantable of the item it
// of a type owner owns: it holds the grant option, or its grantee holds
// the owner's privileges.
func (e *Engine) typeItemGrantable(it aclItem, owner string) bool {
	return it.privs.Options() != 0 || it.grantee != "" && (e.hasPrivsOf(it.grantee, owner) || e.isSuperuser(it.grantee))
}

// infoUsagePrivileges lists USAGE on the collations (PUBLIC's, from the
// superuser), on the domains (their owner's and PUBLIC's, a type's
// default privileges) and on the sequences a GRANT named (the owner's,
// and each item of granted USAGE, from its grantor).
func infoUsagePrivileges(o *catalogObjects, r *catRows) {
	row := func(grantor, grantee, schema, name, kind string, grantable bool) {
		r.add("grantor", grantor, "grantee", grantee, "object_catalog", DatabaseName, "object_schema", schema, "object_name", name,
			"object_type", kind, "privilege_type", "USAGE", "is_grantable", yesNo(grantable))
	}
	for _, c := range builtinCollations {
		row(SuperuserName, "PUBLIC", "pg_catalog", c, "COLLATION", false)
	}
	for i := range o.types {
		t := &o.types[i]
		if t.typtype != 'd' {
			continue
		}
		sc, name := o.typeSchemaName(t)
		owner := o.typeOwnerName(t.name)
		for _, it := range o.e.typeItems(t.name) {
			row(it.grantor, cmp.Or(it.grantee, "PUBLIC"), sc, name, "DOMAIN", o.e.typeItemGrantable(it, owner))
		}
	}
	for _, rel := range o.rels {
		if _, ok := o.e.grants[rel.key]; rel.kind != 'S' || rel.key == "" || !ok {
			continue // a sequence's default privileges hold no USAGE in pg_class's terms
		}
		owner := o.e.relOwner(rel.key)
		if o.e.ownerPlainOn(rel.key)&sql.PrivUsage != 0 {
			row(owner, owner, rel.schema, rel.name, "SEQUENCE", true)
		}
		for _, it := range o.e.relItems(rel.key) {
			if it.privs&sql.PrivUsage != 0 && (it.grantee != owner || it.grantor != owner) {
				row(it.grantor, cmp.Or(it.grantee, "PUBLIC"), rel.schema, rel.name, "SEQUENCE", it.privs.Options()&sql.PrivUsage != 0)
			}
		}
	}
}

// infoDataTypePrivileges lists the objects that have a data type
// descriptor: the attributes, columns, domains, parameters and routines,
// each with the dtd_identifier its own view gives it.
func infoDataTypePrivileges(o *catalogObjects, r *catRows) {
	for _, src := range []struct{ view, schema, name, kind string }{
		{"attributes", "udt_schema", "udt_name", "USER-DEFINED TYPE"},
		{"columns", "table_schema", "table_name", "TABLE"},
		{"domains", "domain_schema", "domain_name", "DOMAIN"},
		{"parameters", "specific_schema", "specific_name", "ROUTINE"},
		{"routines", "specific_schema", "specific_name", "ROUTINE"},
	} {
		rows := o.relationRows("information_schema." + src.view)
		sc, name, dtd := rows.idx[src.schema], rows.idx[src.name], rows.idx["dtd_identifier"]
		for _, row := range rows.rows {
			r.add("object_catalog", DatabaseName, "object_schema", row[sc], "object_name", row[name], "object_type", src.kind,
				"dtd_identifier", row[dtd])
		}
	}
}

// relationRows computes the rows of the catalog relation name over o.
func (o *catalogObjects) relationRows(name string) *catRows {
	cr := catalogRelations[name]
	r := &catRows{cols: cr.cols, idx: make(map[string]int, len(cr.cols))}
	for i, c := range cr.cols {
		r.idx[c.Name] = i
	}
	cr.rows(o, r)
	return r
}

// infoColumnColumnUsage lists, for each stored generated column, the
// columns of its table its expression reads.
func infoColumnColumnUsage(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.t == nil || rel.index != nil || rel.key == "" || !columnRel(rel) {
			continue
		}
		cols := rel.t.def.Cols
		for i, c := range cols {
			if c.Generated == nil {
				continue
			}
			for _, j := range expr.Columns(c.Generated) {
				if j == i || j < 0 || j >= len(cols) {
					continue
				}
				r.add("table_catalog", DatabaseName, "table_schema", rel.schema, "table_name", rel.name,
					"column_name", cols[j].Name, "dependent_column", c.Name)
			}
		}
	}
}

// infoElementTypes describes the element type of each array that has a
// data type descriptor: a column's (of a table, view or composite type),
// a domain's base type, a routine's parameter or result (a built-in
// routine's result only). Collations are
// NULL: the columns here have the database's default one, which
// PostgreSQL leaves out too.
func infoElementTypes(o *catalogObjects, r *catRows) {
	types := o.typesByOID()
	add := func(schema, name, kind string, dtd int, typOID uint32) {
		t := types[typOID]
		if t == nil || !t.kind.IsArray() {
			return
		}
		var elem *catType
		switch {
		case t.builtin != nil && t.oid == t.builtin.ArrayOID:
			elem = types[t.builtin.OID]
		case t.builtin != nil && t.kind.IsVector(): // int2vector, oidvector: typelem int2, oid
			elem = types[map[bool]uint32{true: 21, false: 26}[t.kind == value.Int2Vector]]
		case t.base != 0:
			elem = types[t.base]
		}
		if elem == nil {
			return
		}
		esc, ename := o.typeSchemaName(elem)
		dataType := "USER-DEFINED"
		if esc == "pg_catalog" && elem.builtin != nil {
			dataType = elem.kind.String()
		}
		r.add("object_catalog", DatabaseName, "object_schema", schema, "object_name", name, "object_type", kind,
			"collection_type_identifier", strconv.Itoa(dtd), "data_type", dataType, "udt_catalog", DatabaseName,
			"udt_schema", esc, "udt_name", ename, "dtd_identifier", "a"+strconv.Itoa(dtd))
	}
	for _, rel := range o.rels {
		if !columnRel(rel) && rel.kind != 'c' {
			continue
		}
		kind := "TABLE"
		if rel.kind == 'c' {
			kind = "USER-DEFINED TYPE"
		}
		for i, c := range rel.cols {
			add(rel.schema, rel.name, kind, int(rel.num(i)), c.typOID)
		}
	}
	for i := range o.types {
		if d := &o.types[i]; d.typtype == 'd' {
			sc, name := o.typeSchemaName(d)
			add(sc, name, "DOMAIN", 1, d.base)
		}
	}
	for _, p := range o.procs {
		sc, name := o.e.splitObject(p.name)
		specific := name + "_" + strconv.FormatUint(uint64(p.oid), 10)
		for i, a := range p.args {
			add(sc, specific, "ROUTINE", i+1, a)
		}
		if p.kind != "p" {
			add(sc, specific, "ROUTINE", 0, p.ret)
		}
	}
	// The built-in routines' results (information_schema.routines lists
	// them; parameters does not list their parameters).
	for _, p := range expr.BuiltinCatalog().Procs {
		if p.Kind != "p" {
			add("pg_catalog", p.Name+"_"+strconv.FormatUint(uint64(p.OID), 10), "ROUTINE", 0, p.RetType)
		}
	}
}
