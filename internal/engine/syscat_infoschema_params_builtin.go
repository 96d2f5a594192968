package engine

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// infoBuiltinParameters adds information_schema.parameters' rows of the
// built-in routines routines lists (pgProcBuiltins), as PostgreSQL 15
// lists them: each argument in order, then the OUT columns of RETURNS
// TABLE. The built-in catalog keeps proargtypes, not proallargtypes and
// proargmodes, so the modes, the OUT parameters' types and the defaults
// are read from pg_get_function_arguments' and pg_get_function_result's
// texts, which name them all in that order. It keeps nothing.
func infoBuiltinParameters(o *catalogObjects, r *catRows) {
	types := o.typesByOID()
	sc := o.e.SysCatalog()
	byName := builtinTypeOIDs(o, sc)
	pseudo := map[uint32]*expr.BuiltinType{}
	for _, t := range expr.BuiltinCatalog().Types {
		pseudo[t.OID] = t
	}
	for _, p := range expr.BuiltinCatalog().Procs {
		// An ordered-set aggregate's direct arguments come before ORDER BY.
		params := splitArgList(strings.Replace(p.Args, " ORDER BY ", ", ", 1))
		nIn := len(params)
		if rest, ok := strings.CutPrefix(p.Result, "TABLE("); ok {
			for _, c := range splitArgList(strings.TrimSuffix(rest, ")")) {
				params = append(params, "OUT "+c)
			}
		}
		in := 0
		for pos, text := range params {
			mode := "IN"
			for _, m := range []string{"OUT ", "INOUT ", "VARIADIC "} {
				if rest, ok := strings.CutPrefix(text, m); ok {
					mode, text = strings.TrimSpace(m), rest
					break
				}
			}
			var name any
			if pos < len(p.ArgNames) && p.ArgNames[pos] != "" {
				name = p.ArgNames[pos]
				text = strings.TrimPrefix(text, expr.QuoteIdent(p.ArgNames[pos])+" ")
			} else if pos >= nIn { // a RETURNS TABLE column: its name is in the text
				n, rest, _ := strings.Cut(text, " ")
				name, text = n, rest
			}
			var dflt any
			if t, d, ok := strings.Cut(text, " DEFAULT "); ok {
				text, dflt = t, d
			}
			var oid uint32
			switch {
			case mode != "OUT" && in < len(p.ArgTypes):
				oid = p.ArgTypes[in]
				in++
			default:
				oid = byName[text]
			}
			if mode == "VARIADIC" {
				mode = "IN"
			}
			dataType, udt := "", ""
			if t := types[oid]; t != nil {
				dataType, udt = builtinParamDataType(t, sc), t.name
			} else if pt := pseudo[oid]; pt != nil {
				dataType, udt = pt.Out, pt.Name
			} else {
				continue
			}
			r.add("specific_catalog", DatabaseName, "specific_schema", "pg_catalog",
				"specific_name", p.Name+"_"+strconv.FormatUint(uint64(p.OID), 10), "ordinal_position", pos+1,
				"parameter_mode", mode, "is_result", "NO", "as_locator", "NO", "parameter_name", name,
				"data_type", dataType, "udt_catalog", DatabaseName, "udt_schema", "pg_catalog", "udt_name", udt,
				"dtd_identifier", strconv.Itoa(pos+1), "parameter_default", dflt)
		}
	}
}

// builtinParamDataType is a built-in routine's parameter's data_type:
// ARRAY for an array type (int2vector and oidvector too, as their
// typelem says), else its name as format_type prints it.
func builtinParamDataType(t *catType, sc *expr.SysCatalog) string {
	if t.kind.IsArray() && t.typtype != 'p' {
		return "ARRAY"
	}
	return sc.FormatType(t.oid, -1, false)
}

// builtinTypeOIDs maps the names format_type prints for the built-in
// types and pseudo-types to their oids.
func builtinTypeOIDs(o *catalogObjects, sc *expr.SysCatalog) map[string]uint32 {
	out := map[string]uint32{}
	for _, t := range o.types {
		if t.builtin == nil && t.typtype != 'p' || t.nsp == infoSchemaOID {
			continue
		}
		out[sc.FormatType(t.oid, -1, false)] = t.oid
	}
	for _, t := range expr.BuiltinCatalog().Types {
		out[t.Out] = t.OID
	}
	return out
}

// splitArgList splits an argument list as pg_get_function_arguments
// prints it at its top-level commas, outside quotes and parentheses.
func splitArgList(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			quoted = !quoted
		case quoted:
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}
