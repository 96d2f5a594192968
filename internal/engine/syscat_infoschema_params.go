package engine

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// infoParameters computes information_schema.parameters: a row per
// parameter of each routine CREATE FUNCTION and CREATE PROCEDURE made,
// in declared order, OUT parameters and RETURNS TABLE's columns
// included (a VARIADIC one is IN), as PostgreSQL lists them. It keeps nothing: the routines
// are read when a statement reads it. parameter_default is NULL (the
// defaults' text is not kept in PostgreSQL's deparsed form).
func infoParameters(o *catalogObjects, r *catRows) {
	for _, p := range o.procs {
		f := o.e.routineByKey(p.name, p.key)
		if f == nil {
			continue
		}
		sc, name := o.e.splitObject(p.name)
		specific := name + "_" + strconv.FormatUint(uint64(p.oid), 10)
		modes := f.Modes()
		if modes == "" {
			for range f.Params {
				modes += "i"
			}
		}
		in, out := 0, 0
		for pos := 0; pos < len(modes); pos++ {
			m := modes[pos]
			var pname string
			var t value.Type
			poly := sql.PolyNone
			switch {
			case f.Procedure && pos < len(f.Params):
				pname, t, poly = f.Params[pos].Name, f.Params[pos].Type, f.Params[pos].Poly
			case (m == 'i' || m == 'b') && in < len(f.Params):
				pname, t, poly = f.Params[in].Name, f.Params[in].Type, f.Params[in].Poly
				in++
				if m == 'b' {
					out++ // an INOUT parameter is a result column too
				}
			case (m == 'o' || m == 't') && out < len(f.Cols):
				pname, t = f.Cols[out].Name, f.Cols[out].Type
				out++
			default:
				continue
			}
			mode := map[byte]string{'i': "IN", 'o': "OUT", 'b': "INOUT", 't': "OUT"}[m]
			var nameVal any
			if pname != "" {
				nameVal = pname
			}
			pairs := []any{"specific_catalog", DatabaseName, "specific_schema", sc, "specific_name", specific,
				"ordinal_position", pos + 1, "parameter_mode", mode, "is_result", "NO", "as_locator", "NO",
				"parameter_name", nameVal, "dtd_identifier", strconv.Itoa(pos + 1)}
			// Of the type's description, PostgreSQL gives a parameter's
			// name and data type only: its lengths and precisions are NULL.
			desc := infoDataType(catCol{typ: value.Type{Kind: t.Kind, Mod: -1}, typOID: o.e.typeOID(t, nil)}, o)
			if poly != sql.PolyNone { // a pseudo-type is its own data type
				desc = []any{"data_type", poly.String(), "udt_catalog", DatabaseName, "udt_schema", "pg_catalog", "udt_name", poly.String()}
			}
			for i := 0; i+1 < len(desc); i += 2 {
				switch desc[i] {
				case "data_type", "udt_catalog", "udt_schema", "udt_name":
					pairs = append(pairs, desc[i], desc[i+1])
				}
			}
			r.add(pairs...)
		}
	}
	infoBuiltinParameters(o, r)
}

// routineByKey is the routine named name whose signature is key, nil
// for none.
func (e *Engine) routineByKey(name, key string) *sql.Function {
	for _, f := range e.funcs[name] {
		if f.Signature() == key {
			return f
		}
	}
	return nil
}

func init() {
	name := "information_schema.parameters"
	cols := "specific_catalog:sql_identifier,specific_schema:sql_identifier,specific_name:sql_identifier,ordinal_position:cardinal_number," +
		"parameter_mode:character_data,is_result:yes_or_no,as_locator:yes_or_no,parameter_name:sql_identifier,data_type:character_data," +
		"character_maximum_length:cardinal_number,character_octet_length:cardinal_number,character_set_catalog:sql_identifier," +
		"character_set_schema:sql_identifier,character_set_name:sql_identifier,collation_catalog:sql_identifier,collation_schema:sql_identifier," +
		"collation_name:sql_identifier,numeric_precision:cardinal_number,numeric_precision_radix:cardinal_number,numeric_scale:cardinal_number," +
		"datetime_precision:cardinal_number,interval_type:character_data,interval_precision:cardinal_number,udt_catalog:sql_identifier," +
		"udt_schema:sql_identifier,udt_name:sql_identifier,scope_catalog:sql_identifier,scope_schema:sql_identifier,scope_name:sql_identifier," +
		"maximum_cardinality:cardinal_number,dtd_identifier:sql_identifier,parameter_default:character_data"
	catalogColumns[name], catalogRowFuncs[name] = cols, infoParameters
	catalogRelations[name] = catalogRelation{cols: catalogCols(cols), rows: infoParameters}
}
