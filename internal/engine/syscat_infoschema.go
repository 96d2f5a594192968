package engine

import (
	"fmt"
	"strconv"

	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// infoSchemaRowFuncs compute the relations of information_schema, as
// PostgreSQL 15 does for a superuser: every object, in every schema.
// Materialized views are not tables there, as in PostgreSQL.
var infoSchemaRowFuncs = map[string]func(o *catalogObjects, r *catRows){
	"information_schema.schemata": func(o *catalogObjects, r *catRows) {
		for _, n := range o.e.schemaNames() {
			r.add("catalog_name", DatabaseName, "schema_name", n, "schema_owner", o.e.schemaOwner(n))
		}
	},
	"information_schema.tables":                  infoTables,
	"information_schema.columns":                 infoColumns,
	"information_schema.views":                   infoViews,
	"information_schema.table_constraints":       infoTableConstraints,
	"information_schema.key_column_usage":        infoKeyColumnUsage,
	"information_schema.constraint_column_usage": infoConstraintColumnUsage,
	"information_schema.referential_constraints": infoReferentialConstraints,
	"information_schema.check_constraints":       infoCheckConstraints,
	"information_schema.sequences":               infoSequences,
	"information_schema.routines":                infoRoutines,
	"information_schema.triggers":                infoTriggers,
	"information_schema.table_privileges":        infoTablePrivileges,
	"information_schema.role_table_grants":       infoTablePrivileges,
	"information_schema.information_schema_catalog_name": func(o *catalogObjects, r *catRows) {
		r.add("catalog_name", DatabaseName)
	},
	// The one encoding, UTF8, of the database's default collation.
	"information_schema.character_sets": func(o *catalogObjects, r *catRows) {
		r.add("character_set_name", "UTF8", "character_repertoire", "UCS", "form_of_use", "UTF8", "default_collate_catalog", DatabaseName)
	},
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

func infoTables(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		typ := map[byte]string{'r': "BASE TABLE", 'p': "BASE TABLE", 'v': "VIEW"}[rel.kind]
		if typ == "" || o.otherTemp(rel) {
			continue
		}
		if rel.temp() {
			typ = "LOCAL TEMPORARY"
		}
		insertable := rel.key != "" && rel.kind != 'v'
		if rel.kind == 'v' && rel.key != "" {
			auto, _ := sql.ViewUpdatable(o.e, rel.key, false) // as pg_relation_is_updatable(oid, false)
			insertable = auto&sql.TriggerInsert != 0
		}
		r.add("table_catalog", DatabaseName, "table_schema", rel.schema, "table_name", rel.name, "table_type", typ,
			"is_insertable_into", yesNo(insertable), "is_typed", "NO")
	}
}

func infoViews(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.kind == 'v' && rel.key != "" && !o.otherTemp(rel) {
			auto, _ := sql.ViewUpdatable(o.e, rel.key, false)
			trig := o.e.InsteadEvents(rel.key)
			r.add("table_catalog", DatabaseName, "table_schema", rel.schema, "table_name", rel.name, "view_definition", rel.viewDefinition(),
				"check_option", o.e.checkOption(rel.key),
				"is_updatable", yesNo(auto&(sql.TriggerUpdate|sql.TriggerDelete) == sql.TriggerUpdate|sql.TriggerDelete),
				"is_insertable_into", yesNo(auto&sql.TriggerInsert != 0), "is_trigger_updatable", yesNo(trig&sql.TriggerUpdate != 0),
				"is_trigger_deletable", yesNo(trig&sql.TriggerDelete != 0), "is_trigger_insertable_into", yesNo(trig&sql.TriggerInsert != 0))
		}
	}
}

// infoDataType is information_schema's description of a column's type:
// data_type and udt_name, and the lengths and precisions of the types
// that have them.
func infoDataType(c catCol, o *catalogObjects) []any {
	t := c.typ
	udt, oid := "", c.typOID
	unwrapped := false
	for i := 0; i < len(o.types); i++ {
		if ct := o.types[i]; ct.oid == oid {
			if ct.typtype == 'd' && unwrapped {
				// A domain over a domain: PostgreSQL's views read one
				// level of typbasetype, a user-defined type without a
				// length or precision of its own.
				sc, bare := o.e.splitKey(ct.name)
				return []any{"data_type", "USER-DEFINED", "udt_catalog", DatabaseName, "udt_schema", sc, "udt_name", bare}
			}
			if ct.typtype == 'd' {
				oid, i, unwrapped = ct.base, -1, true // a domain's column is described by its base type
				continue
			}
			udt = ct.name
			break
		}
	}
	dataType := t.Kind.String()
	switch {
	case t.Kind.IsArray():
		dataType = "ARRAY"
	case t.Kind == value.Enum, extTypeOID(t) != 0, t.UserRange() != nil: // an extension's type (hstore, citext) and a range type CREATE made too
		dataType = "USER-DEFINED"
	}
	out := []any{"data_type", dataType, "udt_catalog", DatabaseName, "udt_schema", "pg_catalog", "udt_name", udt}
	if dataType == "USER-DEFINED" || t.Enum() != nil {
		out[5] = "public" // an enum and its array type are the schema's
	}
	switch k := t.Kind; {
	case k == value.Varchar || k == value.Char:
		if t.Mod >= 0 {
			out = append(out, "character_maximum_length", t.Mod, "character_octet_length", t.Mod*4)
		} else {
			out = append(out, "character_octet_length", 1073741824)
		}
	case k == value.Text:
		out = append(out, "character_octet_length", 1073741824)
	case k.IsInteger():
		out = append(out, "numeric_precision", map[value.Kind]int{value.Int2: 16, value.Int4: 32, value.Int8: 64}[k],
			"numeric_precision_radix", 2, "numeric_scale", 0)
	case k.IsFloat():
		out = append(out, "numeric_precision", map[value.Kind]int{value.Float4: 24, value.Float8: 53}[k], "numeric_precision_radix", 2)
	case k == value.Numeric:
		out = append(out, "numeric_precision_radix", 10)
		if p, s, ok := t.PrecisionScale(); ok {
			out = append(out, "numeric_precision", p, "numeric_scale", s)
		}
	case k == value.Date:
		out = append(out, "datetime_precision", 0)
	case k == value.Timestamp || k == value.TimestampTZ || k == value.Time || k == value.TimeTZ || k == value.Interval:
		prec := 6
		if t.Mod >= 0 && k != value.Interval {
			prec = int(t.Mod)
		}
		out = append(out, "datetime_precision", prec)
	}
	return out
}

func infoColumns(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.kind != 'r' && rel.kind != 'v' && rel.kind != 'p' || o.otherTemp(rel) {
			continue
		}
		updatable := func(int) bool { return rel.kind == 'r' && rel.key != "" }
		if rel.kind == 'v' && rel.key != "" {
			_, cols := sql.ViewUpdatable(o.e, rel.key, false)
			updatable = func(i int) bool { return i < len(cols) && cols[i] }
		}
		for i, c := range rel.cols {
			var def, genExpr any
			isGen := "NEVER"
			if c.gen {
				isGen, genExpr = "ALWAYS", c.def
			} else if c.def != "" {
				def = c.def
			}
			pairs := []any{"table_catalog", DatabaseName, "table_schema", rel.schema, "table_name", rel.name,
				"column_name", c.name, "ordinal_position", rel.num(i), "column_default", def, "is_nullable", yesNo(!c.notNull),
				"dtd_identifier", strconv.Itoa(int(rel.num(i))), "is_self_referencing", "NO", "is_identity", "NO", "identity_cycle", "NO",
				"is_generated", isGen, "generation_expression", genExpr, "is_updatable", yesNo(updatable(i))}
			pairs = append(pairs, infoDataType(c, o)...)
			pairs = append(pairs, o.infoIdentity(rel, c)...)
			if col := rel.columnDef(i); col != nil {
				pairs = append(pairs, infoCollation(col)...)
			} else if schema, name := o.e.collationName(c.coll); name != "" && name != "default" {
				pairs = append(pairs, "collation_catalog", DatabaseName, "collation_schema", schema, "collation_name", name)
			}
			if rel.t != nil && rel.t.def.Cols[i].Domain != nil && rel.t.def.Cols[i].Domain.Elem() == nil { // d[] is an array type
				sc, name := o.e.splitObject(rel.t.def.Cols[i].Domain.Name())
				pairs = append(pairs, "domain_catalog", DatabaseName, "domain_schema", sc, "domain_name", name)
			}
			r.add(pairs...)
		}
	}
}

// infoIdentity is information_schema.columns' description of an identity
// column: is_identity, identity_generation, and its sequence's options.
// Nothing for another column.
func (o *catalogObjects) infoIdentity(rel *catRel, c catCol) []any {
	if c.identity == 0 {
		return nil
	}
	gen := "ALWAYS"
	if c.identity == 'd' {
		gen = "BY DEFAULT"
	}
	out := []any{"is_identity", "YES", "identity_generation", gen}
	for _, sr := range o.rels {
		if s := sr.seq; s != nil && s.identity && s.owner == [2]string{rel.key, c.name} {
			out = append(out, "identity_start", strconv.FormatInt(s.start, 10), "identity_increment", strconv.FormatInt(s.inc, 10),
				"identity_maximum", strconv.FormatInt(s.max, 10), "identity_minimum", strconv.FormatInt(s.min, 10), "identity_cycle", yesNo(s.cycle))
			break
		}
	}
	return out
}

var infoConstraintTypes = map[byte]string{'p': "PRIMARY KEY", 'u': "UNIQUE", 'f': "FOREIGN KEY", 'c': "CHECK"}

func infoTableConstraints(o *catalogObjects, r *catRows) {
	for _, c := range o.cons {
		if infoConstraintTypes[c.kind] == "" || o.otherTemp(c.rel) {
			continue // an EXCLUDE constraint, which information_schema does not list
		}
		r.add("constraint_catalog", DatabaseName, "constraint_schema", c.rel.schema, "constraint_name", c.name,
			"table_catalog", DatabaseName, "table_schema", c.rel.schema, "table_name", c.rel.name, "constraint_type", infoConstraintTypes[c.kind],
			"is_deferrable", yesNo(c.deferrable), "initially_deferred", yesNo(c.deferred), "enforced", "YES", "nulls_distinct", nullsDistinct(c))
	}
	o.notNulls(func(rel *catRel, name, _ string) {
		r.add("constraint_catalog", DatabaseName, "constraint_schema", "public", "constraint_name", name,
			"table_catalog", DatabaseName, "table_schema", rel.schema, "table_name", rel.name, "constraint_type", "CHECK",
			"is_deferrable", "NO", "initially_deferred", "NO", "enforced", "YES")
	})
}

// notNulls calls fn with each NOT NULL column of the tables of public, as
// PostgreSQL's information_schema lists it: a CHECK constraint named
// schema oid_table oid_column number_not_null, with its clause.
func (o *catalogObjects) notNulls(fn func(rel *catRel, name, clause string)) {
	for _, rel := range o.rels {
		if rel.kind != 'r' || rel.key == "" {
			continue
		}
		for i, c := range rel.cols {
			if c.notNull {
				fn(rel, fmt.Sprintf("%d_%d_%d_not_null", publicOID, rel.oid, rel.num(i)), c.name+" IS NOT NULL")
			}
		}
	}
}

// nullsDistinct is a UNIQUE constraint's nulls_distinct; NULL for other
// kinds, a primary key's too, as in PostgreSQL.
func nullsDistinct(c *catCon) any {
	if c.kind == 'u' {
		return yesNo(!c.nullsNotDistinct)
	}
	return nil
}

func infoKeyColumnUsage(o *catalogObjects, r *catRows) {
	for _, c := range o.cons {
		if c.kind == 'c' || infoConstraintTypes[c.kind] == "" || o.otherTemp(c.rel) {
			continue
		}
		for i, n := range c.cols {
			var pos any
			if c.kind == 'f' {
				pos = i + 1 // the referenced key's columns are paired in order
			}
			r.add("constraint_catalog", DatabaseName, "constraint_schema", c.rel.schema, "constraint_name", c.name,
				"table_catalog", DatabaseName, "table_schema", c.rel.schema, "table_name", c.rel.name,
				"column_name", c.rel.cols[c.rel.colByNum(n)].name, "ordinal_position", i+1, "position_in_unique_constraint", pos)
		}
	}
}

// infoConstraintColumnUsage lists the columns each constraint uses: a
// key's own, a foreign key's referenced columns, those a CHECK reads.
func infoConstraintColumnUsage(o *catalogObjects, r *catRows) {
	for _, c := range o.cons {
		if infoConstraintTypes[c.kind] == "" {
			continue
		}
		rel, cols := c.rel, c.cols
		if c.kind == 'f' {
			rel, cols = c.ref, c.refCols
		}
		for _, n := range cols {
			r.add("table_catalog", DatabaseName, "table_schema", rel.schema, "table_name", rel.name, "column_name", rel.cols[rel.colByNum(n)].name,
				"constraint_catalog", DatabaseName, "constraint_schema", c.rel.schema, "constraint_name", c.name)
		}
	}
}

var infoRules = map[byte]string{'a': "NO ACTION", 'r': "RESTRICT", 'c': "CASCADE", 'n': "SET NULL", 'd': "SET DEFAULT"}

func infoReferentialConstraints(o *catalogObjects, r *catRows) {
	for _, c := range o.cons {
		if c.kind != 'f' {
			continue
		}
		var unique any
		for _, k := range o.cons {
			if (k.kind == 'p' || k.kind == 'u') && k.index == c.index && k.rel == c.ref {
				unique = k.name
			}
		}
		match := "NONE"
		if c.match == 'f' {
			match = "FULL"
		}
		r.add("constraint_catalog", DatabaseName, "constraint_schema", c.rel.schema, "constraint_name", c.name,
			"unique_constraint_catalog", DatabaseName, "unique_constraint_schema", "public", "unique_constraint_name", unique,
			"match_option", match, "update_rule", infoRules[c.upd], "delete_rule", infoRules[c.del])
	}
}

func infoCheckConstraints(o *catalogObjects, r *catRows) {
	for _, c := range o.cons {
		if c.kind == 'c' {
			r.add("constraint_catalog", DatabaseName, "constraint_schema", c.rel.schema, "constraint_name", c.name, "check_clause", c.def[len("CHECK "):])
		}
	}
	o.notNulls(func(_ *catRel, name, clause string) {
		r.add("constraint_catalog", DatabaseName, "constraint_schema", "public", "constraint_name", name, "check_clause", clause)
	})
	for _, c := range o.domainCons() {
		r.add("constraint_catalog", DatabaseName, "constraint_schema", c.schema, "constraint_name", c.name, "check_clause", c.def[len("CHECK "):])
	}
}

func infoSequences(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		s := rel.seq
		if s == nil || s.identity || o.otherTemp(rel) {
			continue // an identity column's sequence is described by the column, as in PostgreSQL
		}
		r.add("sequence_catalog", DatabaseName, "sequence_schema", rel.schema, "sequence_name", rel.name, "data_type", s.typ.String(),
			"numeric_precision", map[value.Kind]int{value.Int2: 16, value.Int4: 32, value.Int8: 64}[s.typ], "numeric_precision_radix", 2,
			"numeric_scale", 0, "start_value", strconv.FormatInt(s.start, 10), "minimum_value", strconv.FormatInt(s.min, 10),
			"maximum_value", strconv.FormatInt(s.max, 10), "increment", strconv.FormatInt(s.inc, 10), "cycle_option", yesNo(s.cycle))
	}
}

func infoRoutines(o *catalogObjects, r *catRows) {
	for _, p := range o.procs {
		sc, name := o.e.splitObject(p.name)
		specific := name + "_" + strconv.FormatUint(uint64(p.oid), 10)
		kind, dtd := "FUNCTION", any("0")
		if p.kind == "p" {
			kind, dtd = "PROCEDURE", nil // a procedure has no result
		}
		r.add("specific_catalog", DatabaseName, "specific_schema", sc, "specific_name", specific,
			"routine_catalog", DatabaseName, "routine_schema", sc, "routine_name", name, "routine_type", kind,
			"routine_body", "SQL", "routine_definition", p.src, "parameter_style", "GENERAL", "is_deterministic", "NO",
			"sql_data_access", "MODIFIES", "is_null_call", yesNo(p.strict), "schema_level_routine", "YES",
			"max_dynamic_result_sets", 0, "is_user_defined_cast", "NO", "is_implicitly_invocable", "NO", "security_type", "INVOKER",
			"as_locator", "NO", "is_udt_dependent", "NO", "dtd_identifier", dtd)
	}
	infoBuiltinRoutines(o, r)
}
