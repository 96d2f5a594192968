package engine

import (
	"strconv"
	"strings"
)

// information_schema's views of the composite types CREATE TYPE … AS
// (…) made: user_defined_types, a row per type (category STRUCTURED), and
// attributes, a row per attribute described as information_schema.columns
// describes a column.

func init() {
	add := func(name, cols string, rows func(o *catalogObjects, r *catRows)) {
		addCatalogRelation("information_schema."+name, cols, rows)
	}
	add("user_defined_types", "user_defined_type_catalog:sql_identifier,user_defined_type_schema:sql_identifier,user_defined_type_name:sql_identifier,"+
		"user_defined_type_category:character_data,is_instantiable:yes_or_no,is_final:yes_or_no,ordering_form:character_data,ordering_category:character_data,"+
		"ordering_routine_catalog:sql_identifier,ordering_routine_schema:sql_identifier,ordering_routine_name:sql_identifier,reference_type:character_data,"+
		"data_type:character_data,character_maximum_length:cardinal_number,character_octet_length:cardinal_number,character_set_catalog:sql_identifier,"+
		"character_set_schema:sql_identifier,character_set_name:sql_identifier,collation_catalog:sql_identifier,collation_schema:sql_identifier,"+
		"collation_name:sql_identifier,numeric_precision:cardinal_number,numeric_precision_radix:cardinal_number,numeric_scale:cardinal_number,"+
		"datetime_precision:cardinal_number,interval_type:character_data,interval_precision:cardinal_number,source_dtd_identifier:sql_identifier,"+
		"ref_dtd_identifier:sql_identifier", infoUserDefinedTypes)
	add("attributes", "udt_catalog:sql_identifier,udt_schema:sql_identifier,udt_name:sql_identifier,attribute_name:sql_identifier,"+
		"ordinal_position:cardinal_number,attribute_default:character_data,is_nullable:yes_or_no,data_type:character_data,"+
		"character_maximum_length:cardinal_number,character_octet_length:cardinal_number,character_set_catalog:sql_identifier,"+
		"character_set_schema:sql_identifier,character_set_name:sql_identifier,collation_catalog:sql_identifier,collation_schema:sql_identifier,"+
		"collation_name:sql_identifier,numeric_precision:cardinal_number,numeric_precision_radix:cardinal_number,numeric_scale:cardinal_number,"+
		"datetime_precision:cardinal_number,interval_type:character_data,interval_precision:cardinal_number,attribute_udt_catalog:sql_identifier,"+
		"attribute_udt_schema:sql_identifier,attribute_udt_name:sql_identifier,scope_catalog:sql_identifier,scope_schema:sql_identifier,"+
		"scope_name:sql_identifier,maximum_cardinality:cardinal_number,dtd_identifier:sql_identifier,is_derived_reference_attribute:yes_or_no", infoAttributes)
}

func infoUserDefinedTypes(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.kind == 'c' && rel.key != "" {
			r.add("user_defined_type_catalog", DatabaseName, "user_defined_type_schema", rel.schema, "user_defined_type_name", rel.name,
				"user_defined_type_category", "STRUCTURED", "is_instantiable", "YES")
		}
	}
}

func infoAttributes(o *catalogObjects, r *catRows) {
	for _, rel := range o.rels {
		if rel.kind != 'c' || rel.key == "" {
			continue
		}
		for i, c := range rel.cols {
			pairs := []any{"udt_catalog", DatabaseName, "udt_schema", rel.schema, "udt_name", rel.name, "attribute_name", c.name,
				"ordinal_position", int(rel.num(i)), "is_nullable", yesNo(!c.notNull), "dtd_identifier", strconv.Itoa(int(rel.num(i))),
				"is_derived_reference_attribute", "NO"}
			typ := infoDataType(c, o)
			for j := 0; j < len(typ); j += 2 {
				if k := typ[j].(string); strings.HasPrefix(k, "udt_") {
					typ[j] = "attribute_" + k
				}
			}
			r.add(append(pairs, typ...)...)
		}
	}
}
