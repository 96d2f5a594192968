package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// SQLSTATEs of function definitions that pgerr does not name.
const (
	CodeInvalidFunctionDef = "42P13"
	CodeDuplicateFunction  = "42723"
	CodeAmbiguousFunction  = "42725"
)

// bindCreateFunction binds CREATE [OR REPLACE] FUNCTION … LANGUAGE sql.
// The body is parsed here; it is checked against the catalog by
// CheckFunctionBody, which the engine runs unless check_function_bodies
// is off (as when a store recreates its functions).
func (b *binder) bindCreateFunction(cf *pg_query.CreateFunctionStmt) (Bound, error) {
	if cf.IsProcedure {
		return b.bindCreateProcedure(cf)
	}
	name, err := b.functionName(cf.Funcname)
	if err != nil {
		return nil, err
	}
	f := &Function{Name: name, SQL: b.stmt.SQL}
	var bodyText *pg_query.DefElem
	var settings []FuncSetting
	lang := ""
	langLoc := int32(-1)
	for _, o := range cf.Options {
		d := o.GetDefElem()
		switch d.GetDefname() {
		case "language":
			lang, langLoc = strings.ToLower(d.Arg.GetString_().GetSval()), d.Location
		case "as":
			bodyText = d
		case "strict":
			f.Strict = defBool(d)
		case "security":
			f.SecDef = defBool(d)
		case "set":
			fs, err := b.funcSetting(d)
			if err != nil {
				return nil, err
			}
			settings = append(settings, fs)
		case "volatility":
			f.Volatility = strings.ToLower(d.Arg.GetString_().GetSval())
		case "cost", "rows":
			v, ok := defNumber(d)
			if !ok || v <= 0 {
				return nil, pgerr.New(pgerr.InvalidParameter, "%s must be positive", strings.ToUpper(d.Defname))
			}
			if d.Defname == "cost" {
				f.Cost = v
			} else {
				f.Rows = v
			}
		case "parallel", "leakproof":
			// Planner hints, which inlining makes moot: what a call does
			// is its body's.
		default:
			return nil, b.refuse(d.Location, "CREATE FUNCTION option %s is not supported", strings.ToUpper(d.GetDefname()))
		}
	}
	switch {
	case lang == "" && cf.SqlBody != nil:
		lang = "sql"
	case lang == "":
		return nil, pgerr.New(CodeInvalidFunctionDef, "no language specified")
	}
	switch lang {
	case "sql":
	case LangPLpgSQL:
		cr, err := b.plpgsqlFunction(f, cf, bodyText)
		if c, ok := cr.(*CreateFunction); ok {
			c.Settings = settings
		}
		return cr, err
	default:
		return nil, b.refuse(langLoc, "language %s is not supported", lang).WithHint("write the function in LANGUAGE sql or plpgsql")
	}
	if err := b.functionParams(f, cf); err != nil {
		return nil, err
	}
	for _, p := range f.Params {
		if p.Type.Kind.IsValueless() || p.Type.Kind == value.Cstring { // PostgreSQL's SQL validator refuses them
			return nil, pgerr.New(CodeInvalidFunctionDef, "SQL functions cannot have arguments of type %s", p.Type.Kind)
		}
		if p.Poly == PolyRecord {
			return nil, pgerr.New(CodeInvalidFunctionDef, "SQL functions cannot have arguments of type record")
		}
	}
	var stmts []*pg_query.Node
	var texts []string
	off := -1
	switch {
	case cf.SqlBody != nil:
		stmts = atomicStatements(cf.SqlBody)
		texts = make([]string, len(stmts))
		f.Atomic = true
	case bodyText != nil:
		stmts, texts, off, err = b.textStatements(bodyText)
	default:
		return nil, pgerr.New(CodeInvalidFunctionDef, "no function body specified")
	}
	if err != nil {
		return nil, err
	}
	if tc, ok := b.cat.(TempCatalog); ok {
		// The body's names of the session's temporary functions and types,
		// as the statement's own.
		for i, st := range stmts {
			if stmts[i], err = tc.RenameTemp(st); err != nil {
				return nil, err
			}
		}
	}
	paramFields(f, stmts)
	b.prepareCode(f, cf, stmts, texts)
	if f.code != nil && (off >= 0 || f.Atomic) {
		f.code.stmts = stmts
	}
	if loc, what, changes := changesData(stmts); changes || len(f.Cols) == 0 {
		why := "returns void"
		if changes {
			why = "modifies data (" + what + ")"
		}
		if !f.RunAsCode(why) {
			if f.AnyRecord {
				return nil, b.refuse(loc, "a SQL function returning record without OUT parameters that %s is not supported", why).
					WithHint("declare its columns with OUT parameters or RETURNS TABLE")
			}
			if changes {
				return nil, b.refuse(loc, "a SQL function body that modifies data (%s) is not supported", what)
			}
			return nil, b.refuse(-1, "a function returning void is not supported")
		}
		return &CreateFunction{Func: f, Replace: cf.Replace, Settings: settings}, nil
	}
	if f.Body, f.Earlier, err = b.bodyStatements(stmts, off); err != nil {
		return nil, err
	}
	if f.BaseType && isRowType(f.Cols[0].Type) && returnsFields(f.Body) {
		f.Body, f.RowOfFields = rowOfFields(f.Body, f.ColTypes[0]), true
	}
	return &CreateFunction{Func: f, Replace: cf.Replace, Settings: settings}, nil
}

// returnsFields reports whether the final SELECT of a function returning
// a composite type returns its fields (SELECT * FROM t, SELECT a, b, …)
// rather than one value of the type (SELECT t FROM t): several columns,
// or one * .
func returnsFields(body *pg_query.SelectStmt) bool {
	for body.Op != pg_query.SetOperation_SETOP_NONE && body.Larg != nil {
		body = body.Larg
	}
	if len(body.ValuesLists) > 0 {
		return len(body.ValuesLists[0].GetList().GetItems()) > 1
	}
	switch len(body.TargetList) {
	case 0:
		return false
	case 1:
		fs := body.TargetList[0].GetResTarget().GetVal().GetColumnRef().GetFields()
		return len(fs) > 0 && fs[len(fs)-1].GetAStar() != nil
	}
	return true
}

// rowOfFields is a body returning fields made one returning the row of
// them, as PostgreSQL builds the composite value:
// SELECT ROW("$f".*)::type FROM (body) AS "$f".
func rowOfFields(body *pg_query.SelectStmt, typ *pg_query.TypeName) *pg_query.SelectStmt {
	const q = "$f"
	star := &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
		Fields: []*pg_query.Node{pg_query.MakeStrNode(q), {Node: &pg_query.Node_AStar{AStar: &pg_query.A_Star{}}}}, Location: -1}}}
	row := &pg_query.Node{Node: &pg_query.Node_RowExpr{RowExpr: &pg_query.RowExpr{Args: []*pg_query.Node{star},
		RowFormat: pg_query.CoercionForm_COERCE_EXPLICIT_CALL, Location: -1}}}
	cast := &pg_query.Node{Node: &pg_query.Node_TypeCast{TypeCast: &pg_query.TypeCast{Arg: row, TypeName: typ, Location: -1}}}
	return &pg_query.SelectStmt{
		TargetList:  []*pg_query.Node{resTarget(cast, "")},
		FromClause:  []*pg_query.Node{{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{Subquery: selectNode(body), Alias: &pg_query.Alias{Aliasname: q}}}}},
		Op:          pg_query.SetOperation_SETOP_NONE,
		LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
	}
}

// changesData reports whether a body's statements change data, and the
// first that does.
func changesData(stmts []*pg_query.Node) (int32, string, bool) {
	for _, s := range stmts {
		switch {
		case s.GetInsertStmt() != nil, s.GetUpdateStmt() != nil, s.GetDeleteStmt() != nil, s.GetMergeStmt() != nil:
			return -1, stmtName(s), true
		}
	}
	return -1, "", false
}

// functionName is a function's name, unqualified or in schema public.
func (b *binder) functionName(names []*pg_query.Node) (string, error) {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n.GetString_().GetSval()
	}
	if len(parts) == 0 {
		return "", pgerr.New(pgerr.SyntaxError, "a function name is needed")
	}
	if len(parts) > 1 && parts[len(parts)-2] != "public" {
		return "", b.outOfPublic(parts[len(parts)-2], "functions")
	}
	return parts[len(parts)-1], nil
}

func defBool(d *pg_query.DefElem) bool {
	if v := d.Arg.GetBoolean(); v != nil {
		return v.Boolval
	}
	return d.Arg.GetInteger().GetIval() != 0
}

// functionParams reads the parameters and the result of a function.
func (b *binder) functionParams(f *Function, cf *pg_query.CreateFunctionStmt) error {
	var outs []*pg_query.FunctionParameter
	defaults := false
	for _, n := range cf.Parameters {
		p := n.GetFunctionParameter()
		if len(f.Params) > 0 && f.Params[len(f.Params)-1].Variadic && p.Mode != pg_query.FunctionParameterMode_FUNC_PARAM_OUT &&
			p.Mode != pg_query.FunctionParameterMode_FUNC_PARAM_TABLE {
			return pgerr.New(CodeInvalidFunctionDef, "VARIADIC parameter must be the last input parameter")
		}
		switch p.Mode {
		case pg_query.FunctionParameterMode_FUNC_PARAM_OUT, pg_query.FunctionParameterMode_FUNC_PARAM_TABLE:
			outs = append(outs, p)
			continue
		case pg_query.FunctionParameterMode_FUNC_PARAM_INOUT:
			outs = append(outs, p)
		}
		tn, t, poly, err := b.paramType(p.ArgType)
		if err != nil {
			return err
		}
		if p.Defexpr != nil {
			defaults = true
		} else if defaults {
			return pgerr.New(CodeInvalidFunctionDef, "input parameters after one with a default value must also have defaults")
		}
		for _, q := range f.Params {
			if p.Name != "" && q.Name == p.Name {
				return pgerr.New(CodeInvalidFunctionDef, "parameter name %q used more than once", p.Name)
			}
		}
		variadic := p.Mode == pg_query.FunctionParameterMode_FUNC_PARAM_VARIADIC
		if variadic && !t.Kind.IsArray() && poly != PolyAnyArray && poly != PolyAnyCompatibleArray {
			return pgerr.New(CodeInvalidFunctionDef, "VARIADIC parameter must be an array")
		}
		dom, err := b.paramDomain(tn, poly)
		if err != nil {
			return err
		}
		f.Params = append(f.Params, FuncParam{Name: p.Name, Type: t, TypeName: tn, Default: p.Defexpr, Variadic: variadic, Poly: poly, Domain: dom})
	}
	f.instances = &polyInstances{}
	rt := cf.ReturnType
	if rt != nil {
		f.Set = rt.Setof
	}
	if len(outs) > 0 {
		for i, p := range outs {
			tn, t, poly, err := b.paramType(p.ArgType)
			if err != nil {
				return err
			}
			if poly == PolyRecord {
				return refuseRecordOut(b, p)
			}
			name := p.Name
			if name == "" {
				name = "column" + strconv.Itoa(i+1)
			}
			f.Cols = append(f.Cols, plan.Column{Name: name, Type: t})
			f.ColTypes = append(f.ColTypes, tn)
			f.addColPoly(poly)
			if err := b.addColDomain(f, tn, poly); err != nil {
				return err
			}
		}
		if rt != nil && !strings.EqualFold(typeNameText(rt), "record") && len(outs) > 1 {
			return b.stmt.errf(rt.Location, CodeInvalidFunctionDef, "function result type must be record because of OUT parameters")
		}
		return checkPolyResult(f)
	}
	if rt == nil {
		return pgerr.New(CodeInvalidFunctionDef, "function result type must be specified")
	}
	switch strings.ToLower(typeNameText(rt)) {
	case "trigger":
		return b.triggerResult(f)
	case "event_trigger":
		return b.eventTriggerResult(f)
	case "void":
		return nil // no result column: a SQL function runs as code
	case "cstring":
		if len(rt.ArrayBounds) == 0 { // cstring[] is a result as others
			return cstringResult(f)
		}
	case "record":
		return anyRecordResult(f)
	}
	tn, t, poly, err := b.paramType(rt)
	if err != nil {
		return err
	}
	f.Cols = []plan.Column{{Name: f.Name, Type: t}}
	f.ColTypes = []*pg_query.TypeName{tn}
	f.addColPoly(poly)
	if err := b.addColDomain(f, tn, poly); err != nil {
		return err
	}
	f.BaseType = true
	return checkPolyResult(f)
}

// addColPoly records the pseudo-type of the result column just added.
func (f *Function) addColPoly(p Poly) {
	if p != PolyNone && f.ColPoly == nil {
		f.ColPoly = make([]Poly, len(f.Cols)-1, len(f.Cols))
	}
	if f.ColPoly != nil {
		f.ColPoly = append(f.ColPoly, p)
	}
}

// paramType resolves a parameter's or result's type as functionType does,
// or reads a pseudo-type (anyelement, …), whose type is unknown until a
// call resolves it.
func (b *binder) paramType(t *pg_query.TypeName) (tn *pg_query.TypeName, typ value.Type, poly Poly, err error) {
	if p := polyOf(t); p != PolyNone {
		tn = proto.Clone(t).(*pg_query.TypeName)
		tn.Typmods, tn.Setof, tn.Location = nil, false, -1
		return tn, value.UnknownType, p, nil
	}
	tn, typ, err = b.functionType(t)
	return tn, typ, PolyNone, err
}

// functionType resolves a parameter's or result's type. Its modifier is
// dropped, as PostgreSQL does (f(x varchar(3)) takes any varchar); tn is
// the type's node without it, for the casts of calls.
func (b *binder) functionType(t *pg_query.TypeName) (tn *pg_query.TypeName, typ value.Type, err error) {
	tn = proto.Clone(t).(*pg_query.TypeName)
	tn.Typmods, tn.Setof = nil, false
	if typ, err = b.typeFromName(tn); err != nil {
		return nil, typ, err
	}
	tn.Location = -1
	return tn, typ, nil
}

// typeNameText is a type name's last part: record for pg_catalog.record.
func typeNameText(t *pg_query.TypeName) string {
	if len(t.Names) == 0 {
		return ""
	}
	return t.Names[len(t.Names)-1].GetString_().GetSval()
}

// atomicStatements reads RETURN expr (as SELECT expr) and BEGIN ATOMIC …
// END, whose statements the CREATE statement's parse holds.
func atomicStatements(n *pg_query.Node) []*pg_query.Node {
	if r := n.GetReturnStmt(); r != nil {
		return []*pg_query.Node{selectNode(&pg_query.SelectStmt{TargetList: []*pg_query.Node{{Node: &pg_query.Node_ResTarget{
			ResTarget: &pg_query.ResTarget{Val: r.Returnval, Location: -1}}}}})}
	}
	var stmts []*pg_query.Node
	for _, l := range n.GetList().GetItems() {
		stmts = append(stmts, l.GetList().GetItems()...)
	}
	return stmts
}

// textStatements parses AS 'body', and returns its statements and their
// texts. Its nodes' locations are moved into the CREATE statement when
// the body's text is found there as it is (always for a dollar-quoted
// body), so that errors point into the statement as PostgreSQL's do; else
// they are dropped.
func (b *binder) textStatements(d *pg_query.DefElem) ([]*pg_query.Node, []string, int, error) {
	items := d.Arg.GetList().GetItems()
	if len(items) != 1 {
		return nil, nil, -1, b.stmt.errf(d.Location, CodeInvalidFunctionDef, "only one AS item needed for language \"sql\"")
	}
	text := items[0].GetString_().GetSval()
	off := -1
	if d.Location >= 0 && int(d.Location) <= len(b.stmt.SQL) {
		if i := strings.Index(b.stmt.SQL[d.Location:], text); i >= 0 {
			off = int(d.Location) + i
		}
	}
	tree, err := parseTree(text)
	if err != nil {
		pe := *pgerr.Wrap(err)
		if off >= 0 && pe.Position > 0 {
			pe.Position += len([]rune(b.stmt.SQL[:off]))
		} else {
			pe.Position = 0
		}
		return nil, nil, -1, &pe
	}
	stmts := make([]*pg_query.Node, len(tree.Stmts))
	texts := make([]string, len(tree.Stmts))
	for i, s := range tree.Stmts {
		stmts[i] = s.Stmt
		end := int(s.StmtLocation + s.StmtLen)
		if s.StmtLen == 0 {
			end = len(text)
		}
		if int(s.StmtLocation) <= end && end <= len(text) {
			texts[i] = text[s.StmtLocation:end]
		}
		if off < 0 {
			setLocations(s.Stmt.ProtoReflect(), -1)
		} else {
			shiftLocations(s.Stmt.ProtoReflect(), int32(off))
		}
	}
	return stmts, texts, off, nil
}

// bodyStatements keeps a body's last statement as its result and the
// others as statements to check; a statement that is not a query is
// refused.
func (b *binder) bodyStatements(stmts []*pg_query.Node, off int) (*pg_query.SelectStmt, []*pg_query.Node, error) {
	for _, s := range stmts {
		if s.GetSelectStmt() == nil {
			loc := int32(off)
			if loc < 0 {
				loc = -1
			}
			what := stmtName(s)
			return nil, nil, b.refuse(loc, "statement %s in a SQL function body is not supported", what)
		}
	}
	if len(stmts) == 0 {
		return nil, nil, pgerr.New(CodeInvalidFunctionDef, "return type mismatch in function declared to return a value").
			WithDetail("Function's final statement must be SELECT or INSERT/UPDATE/DELETE/MERGE RETURNING.")
	}
	return stmts[len(stmts)-1].GetSelectStmt(), stmts[:len(stmts)-1], nil
}

// shiftLocations adds off to every location under m that is set.
func shiftLocations(m protoreflect.Message, off int32) {
	walk(m, func(m protoreflect.Message) {
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.Name() == "location" && fd.Kind() == protoreflect.Int32Kind && v.Int() >= 0 {
				m.Set(fd, protoreflect.ValueOfInt32(int32(v.Int())+off))
			}
			return true
		})
	})
}

// bindDropFunction binds DROP FUNCTION name[(types)], ….
func (b *binder) bindDropFunction(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropFunction{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE,
		Procedure: ds.RemoveType == pg_query.ObjectType_OBJECT_PROCEDURE}
	routine := ds.RemoveType == pg_query.ObjectType_OBJECT_ROUTINE
	d.Routine = routine
objects:
	for _, o := range ds.Objects {
		ow := o.GetObjectWithArgs()
		name, err := b.functionName(ow.Objname)
		kind := "function"
		if d.Procedure {
			kind = "procedure"
		} else if routine {
			kind = "routine"
		}
		if err == nil {
			if err := b.builtinDropped(ow, kind); err != nil {
				return nil, err
			}
		}
		if err != nil && inCatalogSchema(ow.Objname) {
			ref, err := b.dropCatalogRoutine(ow, kind, d.IfExists)
			if err != nil {
				return nil, err
			}
			d.Funcs = append(d.Funcs, ref)
			continue
		}
		if err != nil {
			if n, ok := skipMissing(err, ow.Objname, nil); ok && d.IfExists {
				d.Funcs = append(d.Funcs, FuncRef{Missing: n})
				continue
			}
			return nil, err
		}
		ref := FuncRef{Name: name, Routine: routine, Written: nameListString(ow.Objname) + "(" + typeNameListString(dropArgTypes(ow)) + ")"}
		if !ow.ArgsUnspecified {
			ref.Args = []value.Type{}
			for i, tn := range dropArgTypes(ow) {
				_, t, poly, err := b.paramType(tn)
				if err != nil {
					if n, ok := skipMissing(err, tn.Names, tn); ok && d.IfExists {
						d.Funcs = append(d.Funcs, FuncRef{Missing: n})
						continue objects
					}
					return nil, err
				}
				ref.Args = append(ref.Args, t)
				if poly != PolyNone {
					if ref.Polys == nil {
						ref.Polys = make([]Poly, len(dropArgTypes(ow)))
					}
					ref.Polys[i] = poly
				}
				if err := b.refDomain(&ref, tn, poly); err != nil {
					return nil, err
				}
			}
			if d.Procedure || routine {
				for _, a := range ow.Objfuncargs {
					_, t, _, err := b.paramType(a.GetFunctionParameter().ArgType)
					if err != nil {
						return nil, err
					}
					ref.AllArgs = append(ref.AllArgs, t)
				}
			}
		}
		d.Funcs = append(d.Funcs, ref)
	}
	return d, nil
}

// dropArgTypes are the input types DROP FUNCTION lists, OUT parameters
// left out as PostgreSQL leaves them.
func dropArgTypes(ow *pg_query.ObjectWithArgs) []*pg_query.TypeName {
	var out []*pg_query.TypeName
	if len(ow.Objfuncargs) == 0 {
		for _, a := range ow.Objargs {
			out = append(out, a.GetTypeName())
		}
		return out
	}
	for _, a := range ow.Objfuncargs {
		p := a.GetFunctionParameter()
		if p.Mode != pg_query.FunctionParameterMode_FUNC_PARAM_OUT && p.Mode != pg_query.FunctionParameterMode_FUNC_PARAM_TABLE {
			out = append(out, p.ArgType)
		}
	}
	return out
}
