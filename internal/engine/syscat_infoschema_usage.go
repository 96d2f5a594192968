package engine

import (
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
)

// information_schema's relations of domains, of what views and
// constraints use, of column privileges and of the foreign objects the
// engine does not have. They keep no state: their rows are made from the
// catalog when a statement reads them, as PostgreSQL 15 lists them for a
// superuser.

// infoSchemaDomains are information_schema's own domains, the types of
// its columns (which are their base types here: catalogTypeNames), as
// PostgreSQL 15 describes them.
var infoSchemaDomains = [][]any{
	{"domain_name", "sql_identifier", "data_type", "name", "collation_catalog", DatabaseName, "collation_schema", "pg_catalog",
		"collation_name", "C", "udt_name", "name"},
	{"domain_name", "cardinal_number", "data_type", "integer", "numeric_precision", 32, "numeric_precision_radix", 2,
		"numeric_scale", 0, "udt_name", "int4"},
	{"domain_name", "character_data", "data_type", "character varying", "character_octet_length", 1073741824,
		"collation_catalog", DatabaseName, "collation_schema", "pg_catalog", "collation_name", "C", "udt_name", "varchar"},
	{"domain_name", "yes_or_no", "data_type", "character varying", "character_maximum_length", 3, "character_octet_length", 12,
		"collation_catalog", DatabaseName, "collation_schema", "pg_catalog", "collation_name", "C", "udt_name", "varchar"},
	{"domain_name", "time_stamp", "data_type", "timestamp with time zone", "datetime_precision", 2,
		"domain_default", "CURRENT_TIMESTAMP(2)", "udt_name", "timestamptz"},
}

func infoDomains(o *catalogObjects, r *catRows) {
	for _, d := range infoSchemaDomains {
		r.add(append([]any{"domain_catalog", DatabaseName, "domain_schema", "information_schema", "udt_catalog", DatabaseName,
			"udt_schema", "pg_catalog", "dtd_identifier", "1"}, d...)...)
	}
	for _, name := range sortedKeys(o.e.domains.byName) {
		def := o.e.domains.byName[name].Def()
		sc, bare := o.e.splitKey(def.Name)
		t := def.Base
		pairs := []any{"domain_catalog", DatabaseName, "domain_schema", sc, "domain_name", bare, "dtd_identifier", "1"}
		if def.Parent != nil {
			// A domain over a domain is described by the domain it is
			// over, a user-defined type with no length or precision of
			// its own, as PostgreSQL's view reads typbasetype.
			psc, pbare := o.e.splitKey(def.Parent.Name())
			pairs = append(pairs, "data_type", "USER-DEFINED", "udt_catalog", DatabaseName, "udt_schema", psc, "udt_name", pbare)
		} else {
			dt := infoDataType(catCol{typ: t, typOID: o.e.typeOID(t, nil)}, o)
			if t.Kind.IsArray() && dt[5] == "pg_catalog" {
				dt[1] = t.String() // PostgreSQL's view formats a domain's built-in base type: integer[]
			}
			pairs = append(pairs, dt...)
		}
		text, _ := o.e.domainDefaultTexts(def)
		for p := def.Parent; text == "" && p != nil; p = p.Def().Parent {
			// CREATE DOMAIN copies the default of the domain it is over
			// into pg_type.typdefault when it sets none.
			text, _ = o.e.domainDefaultTexts(p.Def())
		}
		if text != "" {
			pairs = append(pairs, "domain_default", text) // pg_type.typdefault, as PostgreSQL's view
		}
		r.add(pairs...)
	}
}

func infoDomainConstraints(o *catalogObjects, r *catRows) {
	for _, c := range [][2]string{{"cardinal_number_domain_check", "cardinal_number"}, {"yes_or_no_check", "yes_or_no"}} {
		r.add("constraint_catalog", DatabaseName, "constraint_schema", "information_schema", "constraint_name", c[0],
			"domain_catalog", DatabaseName, "domain_schema", "information_schema", "domain_name", c[1], "is_deferrable", "NO", "initially_deferred", "NO")
	}
	for _, name := range sortedKeys(o.e.domains.byName) {
		def := o.e.domains.byName[name].Def()
		sc, bare := o.e.splitKey(def.Name)
		for _, c := range def.Checks {
			r.add("constraint_catalog", DatabaseName, "constraint_schema", sc, "constraint_name", c.Name,
				"domain_catalog", DatabaseName, "domain_schema", sc, "domain_name", bare, "is_deferrable", "NO", "initially_deferred", "NO")
		}
	}
}

// infoColumnPrivileges is a row per privilege a role holds on a column of
// a table or view: the table's privileges that apply to columns (INSERT,
// SELECT, UPDATE, REFERENCES), as infoTablePrivileges reads them.
func infoColumnPrivileges(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.key == "" || rel.kind != 'r' && rel.kind != 'p' && rel.kind != 'v' && rel.kind != 'm' {
			continue
		}
		owner := o.e.relOwner(rel.key)
		add := func(grantor, grantee string, p sql.Privilege) {
			if grantee == "" {
				grantee = "PUBLIC"
			}
			for _, x := range columnPrivilegeNames {
				if p&x.p == 0 {
					continue
				}
				grantable := p.Options()&x.p != 0
				for _, c := range rel.cols {
					r.add("grantor", grantor, "grantee", grantee, "table_catalog", DatabaseName, "table_schema", rel.schema,
						"table_name", rel.name, "column_name", c.name, "privilege_type", x.name, "is_grantable", yesNo(grantable))
				}
			}
		}
		add(owner, owner, (sql.PrivTableAll & o.e.ownerPlainOn(rel.key)).WithOption())
		for _, it := range o.e.relItems(rel.key) {
			if it.grantee != owner || it.grantor != owner {
				add(it.grantor, it.grantee, it.privs)
			}
		}
		g := o.e.grants[rel.key] // the table's items, which a column's may repeat
		// The privileges granted on a column alone: those the grantee
		// does not hold on the whole table.
		ca := o.e.colGrants[rel.key]
		for _, c := range rel.cols {
			for _, it := range ca[c.name] {
				if it.grantee == owner && it.grantor == owner {
					continue
				}
				grantee := it.grantee
				if grantee == "" {
					grantee = "PUBLIC"
				}
				for _, x := range columnPrivilegeNames {
					p := x.p
					// A column privilege the table's grant gives alike (with or
					// without its option) is one row, as PostgreSQL's union.
					grantable := it.privs.Options()&p != 0
					same := g[itemKey(it.grantee, it.grantor, owner)]
					if it.grantor == owner {
						same |= g[leadKey(it.grantee)] // acl_lead.go
					}
					if it.privs&p == 0 || same&p != 0 && (same.Options()&p != 0) == grantable {
						continue
					}
					r.add("grantor", it.grantor, "grantee", grantee, "table_catalog", DatabaseName, "table_schema", rel.schema,
						"table_name", rel.name, "column_name", c.name, "privilege_type", x.name, "is_grantable", yesNo(grantable))
				}
			}
		}
	}
}

// columnPrivilegeNames are the table privileges that are also a
// column's.
var columnPrivilegeNames = []struct {
	p    sql.Privilege
	name string
}{{sql.PrivInsert, "INSERT"}, {sql.PrivSelect, "SELECT"}, {sql.PrivUpdate, "UPDATE"}, {sql.PrivReferences, "REFERENCES"}}

// viewDirectDeps are the relations view key reads itself: of the
// relations it reads, those no other view it reads reads too.
func (o *catalogObjects) viewDirectDeps(key string) []string {
	deps := o.e.deps[key]
	var out []string
	for _, d := range deps {
		through := false
		for _, w := range deps {
			if w != d && o.e.named[w] != nil && slices.Contains(o.e.deps[w], d) {
				through = true
				break
			}
		}
		if !through {
			out = append(out, d)
		}
	}
	return out
}

// infoViewTableUsage lists the tables and views each view reads, as
// PostgreSQL does: a materialized view is neither a view nor a table there.
func infoViewTableUsage(o *catalogObjects, r *catRows) {
	for _, v := range o.rels {
		if v.kind != 'v' || v.key == "" || o.e.named[v.key] == nil {
			continue
		}
		for _, d := range o.viewDirectDeps(v.key) {
			t := o.relKeyed(d)
			if t == nil || t.kind != 'r' && t.kind != 'v' && t.kind != 'p' {
				continue
			}
			r.add("view_catalog", DatabaseName, "view_schema", v.schema, "view_name", v.name,
				"table_catalog", DatabaseName, "table_schema", t.schema, "table_name", t.name)
		}
	}
}

// infoViewRoutineUsage lists the functions of statements (not the
// built-in ones) each view calls.
func infoViewRoutineUsage(o *catalogObjects, r *catRows) {
	for _, v := range o.rels {
		if v.kind != 'v' || v.key == "" {
			continue
		}
		// The functions its own text calls: its binding inlined the
		// bodies of the SQL functions it calls, and the views it reads,
		// whose calls PostgreSQL does not list as the view's.
		var called []string
		if nv := o.e.named[v.key]; nv != nil {
			called, _ = sql.StmtNames(nv.query)
		}
		for _, sig := range o.e.funcDeps[v.key] {
			if _, n := o.e.splitObject(sig[:max(strings.IndexByte(sig, '('), 0)]); !slices.Contains(called, n) {
				continue
			}
			for _, p := range o.procs {
				if p.key != sig {
					continue
				}
				sc, name := o.e.splitObject(p.name)
				r.add("table_catalog", DatabaseName, "table_schema", v.schema, "table_name", v.name,
					"specific_catalog", DatabaseName, "specific_schema", sc, "specific_name", name+"_"+strconv.FormatUint(uint64(p.oid), 10))
			}
		}
	}
}

// infoConstraintTableUsage lists the table of each primary key, unique
// constraint and foreign key (the table it references), as PostgreSQL's
// does: CHECK constraints are not there.
func infoConstraintTableUsage(o *catalogObjects, r *catRows) {
	for _, c := range o.cons {
		t := c.rel
		if c.kind == 'f' {
			t = c.ref
		}
		if t == nil || c.kind != 'p' && c.kind != 'u' && c.kind != 'f' {
			continue
		}
		r.add("table_catalog", DatabaseName, "table_schema", t.schema, "table_name", t.name,
			"constraint_catalog", DatabaseName, "constraint_schema", c.rel.schema, "constraint_name", c.name)
	}
}

// infoTriggeredUpdateColumns lists the columns of each trigger's UPDATE OF.
func infoTriggeredUpdateColumns(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		for _, tr := range rel.triggers() {
			for _, i := range tr.cols {
				if i < 0 || i >= len(rel.cols) {
					continue
				}
				r.add("trigger_catalog", DatabaseName, "trigger_schema", rel.schema, "trigger_name", tr.name,
					"event_object_catalog", DatabaseName, "event_object_schema", rel.schema, "event_object_table", rel.name,
					"event_object_column", rel.cols[i].name)
			}
		}
	}
}

func init() {
	none := func(*catalogObjects, *catRows) {}
	add := func(name, cols string, rows func(o *catalogObjects, r *catRows)) {
		addCatalogRelation("information_schema."+name, cols, rows)
	}
	add("domains", "domain_catalog:sql_identifier,domain_schema:sql_identifier,domain_name:sql_identifier,data_type:character_data,"+
		"character_maximum_length:cardinal_number,character_octet_length:cardinal_number,character_set_catalog:sql_identifier,"+
		"character_set_schema:sql_identifier,character_set_name:sql_identifier,collation_catalog:sql_identifier,collation_schema:sql_identifier,"+
		"collation_name:sql_identifier,numeric_precision:cardinal_number,numeric_precision_radix:cardinal_number,numeric_scale:cardinal_number,"+
		"datetime_precision:cardinal_number,interval_type:character_data,interval_precision:cardinal_number,domain_default:character_data,"+
		"udt_catalog:sql_identifier,udt_schema:sql_identifier,udt_name:sql_identifier,scope_catalog:sql_identifier,scope_schema:sql_identifier,"+
		"scope_name:sql_identifier,maximum_cardinality:cardinal_number,dtd_identifier:sql_identifier", infoDomains)
	add("domain_constraints", "constraint_catalog:sql_identifier,constraint_schema:sql_identifier,constraint_name:sql_identifier,"+
		"domain_catalog:sql_identifier,domain_schema:sql_identifier,domain_name:sql_identifier,is_deferrable:yes_or_no,initially_deferred:yes_or_no",
		infoDomainConstraints)
	add("column_privileges", "grantor:sql_identifier,grantee:sql_identifier,table_catalog:sql_identifier,table_schema:sql_identifier,"+
		"table_name:sql_identifier,column_name:sql_identifier,privilege_type:character_data,is_grantable:yes_or_no", infoColumnPrivileges)
	add("view_table_usage", "view_catalog:sql_identifier,view_schema:sql_identifier,view_name:sql_identifier,table_catalog:sql_identifier,"+
		"table_schema:sql_identifier,table_name:sql_identifier", infoViewTableUsage)
	add("view_routine_usage", "table_catalog:sql_identifier,table_schema:sql_identifier,table_name:sql_identifier,"+
		"specific_catalog:sql_identifier,specific_schema:sql_identifier,specific_name:sql_identifier", infoViewRoutineUsage)
	add("constraint_table_usage", "table_catalog:sql_identifier,table_schema:sql_identifier,table_name:sql_identifier,"+
		"constraint_catalog:sql_identifier,constraint_schema:sql_identifier,constraint_name:sql_identifier", infoConstraintTableUsage)
	add("triggered_update_columns", "trigger_catalog:sql_identifier,trigger_schema:sql_identifier,trigger_name:sql_identifier,"+
		"event_object_catalog:sql_identifier,event_object_schema:sql_identifier,event_object_table:sql_identifier,event_object_column:sql_identifier",
		infoTriggeredUpdateColumns)
	// The foreign data wrappers, servers, tables and user mappings, and
	// the transforms, which the engine does not have.
	for _, c := range []struct{ name, cols string }{
		{"foreign_data_wrappers", "foreign_data_wrapper_catalog:sql_identifier,foreign_data_wrapper_name:sql_identifier,authorization_identifier:sql_identifier,library_name:character_data,foreign_data_wrapper_language:character_data"},
		{"foreign_data_wrapper_options", "foreign_data_wrapper_catalog:sql_identifier,foreign_data_wrapper_name:sql_identifier,option_name:sql_identifier,option_value:character_data"},
		{"foreign_servers", "foreign_server_catalog:sql_identifier,foreign_server_name:sql_identifier,foreign_data_wrapper_catalog:sql_identifier,foreign_data_wrapper_name:sql_identifier,foreign_server_type:character_data,foreign_server_version:character_data,authorization_identifier:sql_identifier"},
		{"foreign_server_options", "foreign_server_catalog:sql_identifier,foreign_server_name:sql_identifier,option_name:sql_identifier,option_value:character_data"},
		{"foreign_tables", "foreign_table_catalog:sql_identifier,foreign_table_schema:sql_identifier,foreign_table_name:sql_identifier,foreign_server_catalog:sql_identifier,foreign_server_name:sql_identifier"},
		{"foreign_table_options", "foreign_table_catalog:sql_identifier,foreign_table_schema:sql_identifier,foreign_table_name:sql_identifier,option_name:sql_identifier,option_value:character_data"},
		{"user_mappings", "authorization_identifier:sql_identifier,foreign_server_catalog:sql_identifier,foreign_server_name:sql_identifier"},
		{"user_mapping_options", "authorization_identifier:sql_identifier,foreign_server_catalog:sql_identifier,foreign_server_name:sql_identifier,option_name:sql_identifier,option_value:character_data"},
		{"column_options", "table_catalog:sql_identifier,table_schema:sql_identifier,table_name:sql_identifier,column_name:sql_identifier,option_name:sql_identifier,option_value:character_data"},
		{"transforms", "udt_catalog:sql_identifier,udt_schema:sql_identifier,udt_name:sql_identifier,specific_catalog:sql_identifier,specific_schema:sql_identifier,specific_name:sql_identifier,group_name:sql_identifier,transform_type:character_data"},
	} {
		add(c.name, c.cols, none)
	}
}
