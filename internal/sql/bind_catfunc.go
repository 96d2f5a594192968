package sql

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// catFunc is a function over the system catalogs: its signatures, by
// arity, its result and how it reads the statement's catalog.
type catFunc struct {
	sigs   [][]value.Kind
	result value.Kind
	strict bool
	eval   func(sc *expr.SysCatalog, a []value.Value) (value.Value, error)
	// nameOrOID: the text parameter also takes an oid, as its text
	// (pg_database_size(name) and (oid)).
	nameOrOID bool
}

var (
	oidK  = value.Oid
	textK = value.Text
	int4K = value.Int4
	boolK = value.Bool
)

// catFuncs are the functions clients call over the catalogs.
var catFuncs = map[string]catFunc{
	"format_type": {sigs: [][]value.Kind{{oidK, int4K}}, result: textK, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		return text(sc.FormatType(a[0].OID(), int32(a[1].Int()), !a[1].IsNull())), nil
	}},
	"oidvectortypes": {sigs: [][]value.Kind{{value.OidVector}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		// The types' names as format_type prints them, separated by ", ".
		var b strings.Builder
		for i, e := range a[0].Elems() {
			if i > 0 {
				b.WriteString(", ")
			}
			if e.OID() == 0 {
				b.WriteString("-") // format_type_extended's invalid type
				continue
			}
			b.WriteString(sc.FormatType(e.OID(), -1, false))
		}
		return text(b.String()), nil
	}},
	"pg_get_userbyid": {sigs: [][]value.Kind{{oidK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		if name, ok := sc.Names[value.RegRole][a[0].OID()]; ok {
			return text(name), nil
		}
		return text(fmt.Sprintf("unknown (OID=%d)", a[0].OID())), nil
	}},
	"pg_get_indexdef": {sigs: [][]value.Kind{{oidK}, {oidK, int4K, boolK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		def := textOrNull(sc.IndexDefs, a[0])
		if p, ok := sc.IndexPrettyDefs[a[0].OID()]; ok && len(a) == 3 && a[2].Bool() {
			def = text(p)
		}
		if len(a) == 3 && a[1].Int() != 0 {
			if full := textOrNull(sc.IndexDefs, a[0]); !full.IsNull() {
				return text(indexColumnDef(full.String(), int(a[1].Int()), a[2].Bool())), nil
			}
			return value.Null, nil
		}
		if len(a) == 3 && a[2].Bool() && !def.IsNull() {
			// Pretty-printed, a relation in the search path is unqualified.
			return text(strings.Replace(def.String(), " ON public.", " ON ", 1)), nil
		}
		return def, nil
	}},
	"pg_get_constraintdef": {sigs: [][]value.Kind{{oidK}, {oidK, boolK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		if p, ok := sc.ConstraintPrettyDefs[a[0].OID()]; ok && len(a) == 2 && a[1].Bool() {
			return text(p), nil
		}
		return textOrNull(sc.ConstraintDefs, a[0]), nil
	}},
	"pg_get_triggerdef": {sigs: [][]value.Kind{{oidK}, {oidK, boolK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		def := textOrNull(sc.TriggerDefs, a[0])
		if len(a) == 2 && a[1].Bool() && !def.IsNull() {
			// Pretty-printed, a relation in the search path is unqualified.
			return text(strings.Replace(def.String(), " ON public.", " ON ", 1)), nil
		}
		return def, nil
	}},
	"pg_relation_is_updatable": {sigs: [][]value.Kind{{oidK, boolK}}, result: int4K, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		mask, _ := sc.Updatable(a[0].OID(), a[1].Bool())
		return value.NewInt(value.Int4, int64(mask)), nil
	}},
	"pg_column_is_updatable": {sigs: [][]value.Kind{{oidK, value.Int2, boolK}}, result: boolK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		_, cols := sc.Updatable(a[0].OID(), a[2].Bool())
		i := a[1].Int() - 1
		return value.NewBool(i >= 0 && i < int64(len(cols)) && cols[i]), nil
	}},
	"pg_get_ruledef": {sigs: [][]value.Kind{{oidK}, {oidK, boolK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		if len(a) == 2 && a[1].Bool() {
			return textOrNull(sc.RuleDefsPretty, a[0]), nil
		}
		return textOrNull(sc.RuleDefs, a[0]), nil
	}},
	"pg_get_partition_constraintdef": {sigs: [][]value.Kind{{oidK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		def, ok := sc.PartitionConstraints[a[0].OID()]
		switch {
		case !ok:
			return value.Null, nil
		case def == "":
			return value.Null, pgerr.New(pgerr.FeatureNotSupported, "pg_get_partition_constraintdef of a hash partition, or of a key of several columns, an expression or a type other than numbers, text, dates, times and booleans is not supported")
		}
		return text(def), nil
	}},
	"pg_partition_root": {sigs: [][]value.Kind{{value.RegClass}}, result: value.RegClass, strict: true, eval: partitionRoot},
	"pg_get_partkeydef": {sigs: [][]value.Kind{{oidK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		return textOrNull(sc.PartitionKeyDefs, a[0]), nil
	}},
	"pg_get_viewdef": {sigs: [][]value.Kind{{value.RegClass}, {value.RegClass, boolK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		if len(a) == 2 && a[1].Bool() {
			if t, ok := sc.ViewDefsPretty[a[0].OID()]; ok {
				return text(t), nil
			}
		}
		return textOrNull(sc.ViewDefs, a[0]), nil
	}},
	"pg_get_expr": {sigs: [][]value.Kind{{textK, oidK}, {textK, oidK, boolK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		// An expression is kept as its text (pg_attrdef.adbin); pretty,
		// the parentheses around the whole go, as PostgreSQL's.
		if len(a) == 3 && a[2].Bool() {
			if t, ok := ExprTextPretty(a[0].String()); ok {
				return text(t), nil
			}
			if t := a[0].String(); strings.HasPrefix(t, "(") {
				if g, n := parenGroup(t); n == len(t) {
					return text(g[1 : n-1]), nil
				}
			}
		}
		return a[0], nil
	}},
	"pg_get_functiondef": {sigs: [][]value.Kind{{oidK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		return textOrNull(sc.FuncDefs, a[0]), nil
	}},
	"pg_get_function_arguments": {sigs: [][]value.Kind{{oidK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		return textIf(sc.FuncArgText(a[0].OID(), false)), nil
	}},
	"pg_get_function_identity_arguments": {sigs: [][]value.Kind{{oidK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		return textIf(sc.FuncArgText(a[0].OID(), true)), nil
	}},
	"pg_get_function_result": {sigs: [][]value.Kind{{oidK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		return textIf(sc.FuncResultText(a[0].OID())), nil
	}},
	"pg_get_serial_sequence": {sigs: [][]value.Kind{{textK, textK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		seq, ok, err := sc.SerialSequence(a[0].String(), a[1].String())
		if !ok || err != nil {
			return value.Null, err
		}
		return text(seq), nil
	}},
	"pg_my_temp_schema": {sigs: [][]value.Kind{{}}, result: oidK, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		return value.NewOid(sc.MyTempSchema), nil
	}},
	"pg_is_other_temp_schema": {sigs: [][]value.Kind{{oidK}}, result: boolK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		oid := a[0].OID()
		return value.NewBool(oid != sc.MyTempSchema && sc.TempSchemas[oid]), nil
	}},
	"pg_table_is_visible":    visible(value.RegClass),
	"pg_type_is_visible":     visible(value.RegType),
	"pg_function_is_visible": visible(value.RegProcedure),
	"obj_description": {sigs: [][]value.Kind{{oidK}, {oidK, textK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		for _, c := range descClasses {
			if len(a) == 2 && a[1].String() != c.name {
				continue
			}
			if d, ok := sc.Descriptions[expr.DescKey{ClassOID: c.oid, ObjOID: a[0].OID()}]; ok {
				return text(d), nil
			}
		}
		return value.Null, nil
	}},
	"col_description": {sigs: [][]value.Kind{{oidK, int4K}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		if d, ok := sc.Descriptions[expr.DescKey{ClassOID: expr.PgClassOID, ObjOID: a[0].OID(), SubID: int32(a[1].Int())}]; ok {
			return text(d), nil
		}
		return value.Null, nil
	}},
	"shobj_description": {sigs: [][]value.Kind{{oidK, textK}}, result: textK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		class := map[string]uint32{"pg_authid": 1260, "pg_database": 1262}[a[1].String()]
		if d, ok := sc.Descriptions[expr.DescKey{ClassOID: class, ObjOID: a[0].OID()}]; ok && class != 0 {
			return text(d), nil
		}
		return value.Null, nil
	}},
	"to_regclass":            toReg(value.RegClass),
	"to_regtype":             toReg(value.RegType),
	"to_regproc":             toReg(value.RegProc),
	"to_regprocedure":        toReg(value.RegProcedure),
	"to_regnamespace":        toReg(value.RegNamespace),
	"to_regrole":             toReg(value.RegRole),
	"to_regoper":             toReg(value.RegOper),
	"to_regoperator":         toReg(value.RegOperator),
	"to_regcollation":        toReg(value.RegCollation),
	"pg_operator_is_visible": visible(value.RegOperator),
}

// descClasses are the catalogs whose objects have comments, in the order
// obj_description(oid) without a catalog looks in.
var descClasses = []struct {
	name string
	oid  uint32
}{{"pg_class", expr.PgClassOID}, {"pg_type", expr.PgTypeOID}, {"pg_proc", expr.PgProcOID}, {"pg_namespace", expr.PgNamespaceOID},
	{"pg_constraint", 2606}, {"pg_trigger", 2620}, {"pg_rewrite", 2618}, {"pg_policy", 3256}, {"pg_extension", 3079},
	{"pg_language", 2612}, {"pg_am", 2601}, {"pg_operator", 2617}, {"pg_statistic_ext", 3381}, {"pg_ts_config", 3602},
	{"pg_ts_dict", 3600}, {"pg_ts_parser", 3601}, {"pg_ts_template", 3764}}

func text(s string) value.Value { return value.NewText(value.Text, s) }

// textIf is s as text, NULL when ok is false.
func textIf(s string, ok bool) value.Value {
	if !ok {
		return value.Null
	}
	return text(s)
}

func textOrNull(m map[uint32]string, oid value.Value) value.Value {
	if s, ok := m[oid.OID()]; ok {
		return text(s)
	}
	return value.Null
}

// visible is pg_table_is_visible and its kin: every object is in the
// search path (pg_catalog, public) but those of information_schema; NULL
// for an oid that names nothing.
func visible(k value.Kind) catFunc {
	return catFunc{sigs: [][]value.Kind{{oidK}}, result: boolK, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		name, ok := sc.Name(k, a[0].OID())
		if !ok {
			return value.Null, nil
		}
		if i := strings.IndexByte(name, '('); i >= 0 {
			name = name[:i] // a routine's arguments' types
		}
		return value.NewBool(k != value.RegClass && k != value.RegType && k != value.RegProcedure && k != value.RegOperator || !strings.Contains(name, ".")), nil
	}}
}

// toReg is to_regclass and its kin: the reg* input, NULL where the input
// names nothing (or, for a routine or operator, several); a name that
// cannot be read (a syntax error, a cross-database reference) fails as
// the input does, as in PostgreSQL 15.
func toReg(k value.Kind) catFunc {
	return catFunc{sigs: [][]value.Kind{{textK}}, result: k, strict: true, eval: func(sc *expr.SysCatalog, a []value.Value) (value.Value, error) {
		v, err := sc.RegIn(k, a[0].String())
		if err == nil {
			return v, nil
		}
		switch pgerr.Code(err) {
		case pgerr.UndefinedTable, pgerr.UndefinedObject, pgerr.UndefinedFunction, pgerr.InvalidSchemaName, CodeAmbiguousFunction, pgerr.InvalidCatalogName:
			return value.Null, nil
		}
		return value.Null, err
	}}
}

// bindCatalogCall binds a call of one of catFuncs; ok is false for other
// functions, and when the catalog has no system catalogs. What they
// return changes with the catalog, not with a view's tables: a
// materialized view cannot call them.
func (b *binder) bindCatalogCall(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, bool, error) {
	cf, ok := catFuncs[name]
	sc := b.sysCatalog()
	if sc == nil || f.AggStar || f.FuncVariadic || len(f.AggOrder) > 0 {
		return nil, false, nil
	}
	if !ok {
		return b.bindPrivilegeCall(s, name, f, sc)
	}
	if err := b.refuseCatalogRead(f, name); err != nil {
		return nil, true, err
	}
	var sig []value.Kind
	for _, c := range cf.sigs {
		if len(c) == len(f.Args) {
			sig = c
		}
	}
	if sig == nil {
		return nil, true, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(f.Args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	args := make([]expr.Expr, len(f.Args))
	for i, a := range f.Args {
		e, err := b.bindExpr(s, a)
		if err != nil {
			return nil, true, err
		}
		if sig[i].IsReg() && !e.Type().Kind.IsReg() {
			// A name or an oid given for a reg* parameter is read as
			// its cast would read it ('t' for regclass).
			c := &pg_query.TypeCast{Arg: a, Location: nodeLoc(a, f.Location), TypeName: &pg_query.TypeName{Location: f.Location}}
			if args[i], err = b.regCast(e, sig[i], c); err != nil {
				return nil, true, err
			}
			continue
		}
		if k := e.Type().Kind; cf.nameOrOID && (k.IsOid() || k.IsInteger()) {
			if args[i], err = expr.Coerce(e, value.TextType, true); err != nil {
				return nil, true, err
			}
			continue
		}
		if args[i], err = b.coerce(e, value.Type{Kind: sig[i], Mod: -1}, nodeLoc(a, f.Location)); err != nil {
			return nil, true, err
		}
	}
	t := value.Type{Kind: cf.result, Mod: -1}
	def := &expr.FuncDef{Name: name, Strict: cf.strict, Params: sig, Result: t,
		Eval: func(a []value.Value) (value.Value, error) { return cf.eval(sc, a) }}
	return &expr.Func{Def: def, Args: args, T: t}, true, nil
}

// indexColumnDef is pg_get_indexdef(index, col, pretty)'s text for
// col > 0: the col-th column of the index's key columns then its INCLUDE
// columns, bare of ordering and operator class, an expression pretty
// without the parentheses the whole definition puts around it; "" past
// the last.
func indexColumnDef(def string, col int, pretty bool) string {
	i := strings.Index(def, " USING ")
	if i < 0 {
		return ""
	}
	rest := def[i:]
	var elems []string
	for _, lead := range []string{"", " INCLUDE "} {
		if !strings.HasPrefix(rest, lead) {
			break
		}
		open := strings.IndexByte(rest, '(')
		if open < 0 {
			break
		}
		group, n := parenGroup(rest[open:])
		elems = append(elems, splitTopLevel(group[1:len(group)-1])...)
		rest = rest[open+n:]
	}
	if col < 1 || col > len(elems) {
		return ""
	}
	e := strings.TrimSpace(elems[col-1])
	if strings.HasPrefix(e, "(") {
		g, _ := parenGroup(e)
		if pretty {
			return g[1 : len(g)-1]
		}
		return g
	}
	// A column or a function call: its name, then the call's arguments.
	end := 0
	for end < len(e) && e[end] != ' ' && e[end] != '(' {
		if e[end] == '"' {
			if j := strings.IndexByte(e[end+1:], '"'); j >= 0 {
				end += j + 1
			}
		}
		end++
	}
	if end < len(e) && e[end] == '(' {
		_, n := parenGroup(e[end:])
		end += n
	}
	return e[:end]
}

// parenGroup returns the balanced parenthesised text s starts with and its
// length; quoted text does not count.
func parenGroup(s string) (string, int) {
	end := len(s)
	walkUnquoted(s, func(i, depth int) bool {
		if s[i] == ')' && depth == 1 {
			end = i + 1
			return false
		}
		return true
	})
	return s[:end], end
}

// splitTopLevel splits s at the commas outside parentheses and quotes.
func splitTopLevel(s string) []string {
	var out []string
	start := 0
	walkUnquoted(s, func(i, depth int) bool {
		if s[i] == ',' && depth == 0 {
			out = append(out, s[start:i])
			start = i + 1
		}
		return true
	})
	return append(out, s[start:])
}

// walkUnquoted calls f with the index of each byte of s outside quotes
// and the parenthesis depth before it, until f returns false.
func walkUnquoted(s string, f func(i, depth int) bool) {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		}
		if !f(i, depth) {
			return
		}
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
}

// refuseCatalogRead refuses, in a materialized view, the call f of name,
// which reads the system catalog.
func (b *binder) refuseCatalogRead(f *pg_query.FuncCall, name string) error {
	if b.forView {
		return b.refuse(f.Location, "%s() reads the system catalog and cannot be maintained in a materialized view", name)
	}
	return nil
}

// catalogSRFArg binds the one argument of f, a call of the set-returning
// function name that reads the system catalog: another number of
// arguments is 42883, a call in a materialized view refused.
func (b *binder) catalogSRFArg(f *pg_query.FuncCall, name string) (expr.Expr, error) {
	if len(f.Args) != 1 || f.AggStar || f.FuncVariadic {
		return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s with %d arguments does not exist", name, len(f.Args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if err := b.refuseCatalogRead(f, name); err != nil {
		return nil, err
	}
	return b.bindExpr(b.argScope(), f.Args[0])
}
