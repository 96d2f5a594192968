package sql

import (
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Call is CALL proc(args): Args are bound per parameter of Proc, in order
// (defaults filled in), cast to the parameters' types; those of OUT
// parameters are not evaluated.
type Call struct {
	Proc *Function
	Args []expr.Expr
	// ArgOf is, per parameter, the argument of the call given for it (-1
	// for its default).
	ArgOf []int
}

func (*Call) bound() {}

// ProcedureCatalog is a FunctionCatalog that also holds procedures,
// which only CALL sees.
type ProcedureCatalog interface {
	Procedures(name string) []*Function
}

// bindCreateProcedure binds CREATE [OR REPLACE] PROCEDURE. A procedure
// runs in the engine as PL/pgSQL code does: a LANGUAGE sql body becomes a
// block of its statements, each query's result discarded.
func (b *binder) bindCreateProcedure(cf *pg_query.CreateFunctionStmt) (Bound, error) {
	name, err := b.functionName(cf.Funcname)
	if err != nil {
		return nil, err
	}
	f := &Function{Name: name, SQL: b.stmt.SQL, Procedure: true, Language: LangPLpgSQL}
	var body *pg_query.DefElem
	var settings []FuncSetting
	lang, langLoc := "", int32(-1)
	for _, o := range cf.Options {
		d := o.GetDefElem()
		switch d.GetDefname() {
		case "language":
			lang, langLoc = strings.ToLower(d.Arg.GetString_().GetSval()), d.Location
		case "as":
			body = d
		case "security":
			f.SecDef = defBool(d)
		case "set":
			fs, err := b.funcSetting(d)
			if err != nil {
				return nil, err
			}
			settings = append(settings, fs)
		default:
			return nil, b.refuse(d.Location, "CREATE PROCEDURE option %s is not supported", strings.ToUpper(d.GetDefname()))
		}
	}
	if lang == "" && cf.SqlBody != nil {
		lang = "sql"
	}
	switch lang {
	case "":
		return nil, pgerr.New(CodeInvalidFunctionDef, "no language specified")
	case "sql", LangPLpgSQL:
	default:
		return nil, b.refuse(langLoc, "language %s is not supported", lang).WithHint("write the procedure in LANGUAGE sql or plpgsql")
	}
	if lang == LangPLpgSQL {
		if err := b.plpgsqlPseudoParams(cf); err != nil {
			return nil, err
		}
	}
	if err := b.procedureParams(f, cf); err != nil {
		return nil, err
	}
	if lang == "sql" {
		for _, p := range f.Params {
			if p.Type.Kind.IsValueless() || p.Type.Kind == value.Cstring { // PostgreSQL's SQL validator refuses them
				return nil, pgerr.New(CodeInvalidFunctionDef, "SQL functions cannot have arguments of type %s", p.Type.Kind)
			}
			if p.Poly == PolyRecord {
				return nil, pgerr.New(CodeInvalidFunctionDef, "SQL functions cannot have arguments of type record")
			}
		}
	}
	var stmts []string
	var last *pg_query.Node // the body's final statement
	switch {
	case cf.SqlBody != nil:
		for _, l := range cf.SqlBody.GetList().GetItems() {
			for _, s := range l.GetList().GetItems() {
				text, err := pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: s}}})
				if err != nil {
					return nil, pgerr.Wrap(err)
				}
				stmts = append(stmts, sqlProcStatement(s, text))
				last = s
			}
		}
	case body == nil:
		return nil, pgerr.New(CodeInvalidFunctionDef, "no function body specified")
	default:
		items := body.Arg.GetList().GetItems()
		if len(items) != 1 {
			return nil, b.stmt.errf(body.Location, CodeInvalidFunctionDef, "only one AS item needed for language %q", lang)
		}
		f.Source = items[0].GetString_().GetSval()
		if lang == LangPLpgSQL {
			return &CreateFunction{Func: f, Replace: cf.Replace, Settings: settings}, nil
		}
		tree, err := parseTree(f.Source)
		if err != nil {
			return nil, err
		}
		for _, rs := range tree.Stmts {
			end := int(rs.StmtLocation + rs.StmtLen)
			if rs.StmtLen == 0 {
				end = len(f.Source)
			}
			stmts = append(stmts, sqlProcStatement(rs.Stmt, f.Source[rs.StmtLocation:end]))
			last = rs.Stmt
		}
	}
	if outs := procOutputNames(f); len(outs) > 0 && last != nil && last.GetSelectStmt() != nil && last.GetSelectStmt().IntoClause == nil {
		// As PostgreSQL: the final SELECT's row is the output
		// parameters' values (NULLs when it has none).
		from := strings.TrimPrefix(stmts[len(stmts)-1], "PERFORM * ")
		stmts[len(stmts)-1] = "SELECT * INTO " + strings.Join(outs, ", ") + " " + from
	}
	f.Source = "BEGIN\n" + strings.Join(stmts, ";\n") + ";\nEND"
	if len(stmts) == 0 {
		f.Source = "BEGIN\nNULL;\nEND"
	}
	params := make([]string, len(f.Params))
	for i, p := range f.Params {
		mode := map[byte]string{'i': "", 'o': "OUT ", 'b': "INOUT "}[f.ArgModes[i]]
		name := ""
		if p.Name != "" {
			name = expr.QuoteIdent(p.Name) + " "
		}
		params[i] = mode + name + p.Type.String()
	}
	f.PLSQL = "CREATE PROCEDURE " + expr.QuoteIdent(f.Name) + "(" + strings.Join(params, ", ") + ") LANGUAGE plpgsql AS $plsql$" + f.Source + "$plsql$"
	return &CreateFunction{Func: f, Replace: cf.Replace, Settings: settings}, nil
}

// procOutputNames are the quoted names of a procedure's INOUT and OUT
// parameters, none when one of them has no name (the final SELECT then
// fills nothing).
func procOutputNames(f *Function) []string {
	var out []string
	for i, p := range f.Params {
		if f.ArgModes[i] == 'i' {
			continue
		}
		if p.Name == "" {
			return nil
		}
		out = append(out, expr.QuoteIdent(p.Name))
	}
	return out
}

// sqlProcStatement is a statement of a LANGUAGE sql procedure as PL/pgSQL
// runs it: a query is PERFORMed, its rows discarded as a SQL body's are.
func sqlProcStatement(n *pg_query.Node, text string) string {
	if sel := n.GetSelectStmt(); sel != nil && sel.IntoClause == nil {
		return "PERFORM * FROM (" + strings.TrimSpace(text) + ") AS _q"
	}
	return strings.TrimSpace(text)
}

// procedureParams reads a procedure's parameters: every one is in its
// signature, as PostgreSQL 14 has it; INOUT and OUT ones are the columns
// of the row CALL returns.
func (b *binder) procedureParams(f *Function, cf *pg_query.CreateFunctionStmt) error {
	defaults := false
	for _, n := range cf.Parameters {
		p := n.GetFunctionParameter()
		switch p.Mode {
		case pg_query.FunctionParameterMode_FUNC_PARAM_VARIADIC:
			return b.refuse(p.ArgType.GetLocation(), "VARIADIC parameters are not supported")
		}
		tn, t, poly, err := b.paramType(p.ArgType)
		if err != nil {
			return err
		}
		out := p.Mode == pg_query.FunctionParameterMode_FUNC_PARAM_OUT
		if poly == PolyRecord && (out || p.Mode == pg_query.FunctionParameterMode_FUNC_PARAM_INOUT) {
			return refuseRecordOut(b, p)
		}
		switch {
		case p.Defexpr != nil && out:
			return pgerr.New(CodeInvalidFunctionDef, "only input parameters can have default values")
		case p.Defexpr != nil:
			defaults = true
		case defaults && out:
			return pgerr.New(CodeInvalidFunctionDef, "procedure OUT parameters cannot appear after one with a default value")
		case defaults && !out:
			return pgerr.New(CodeInvalidFunctionDef, "input parameters after one with a default value must also have defaults")
		}
		for _, q := range f.Params {
			if p.Name != "" && q.Name == p.Name {
				return pgerr.New(CodeInvalidFunctionDef, "parameter name %q used more than once", p.Name)
			}
		}
		f.Params = append(f.Params, FuncParam{Name: p.Name, Type: t, TypeName: tn, Default: p.Defexpr, Poly: poly})
		f.ArgModes += paramMode(p.Mode)
		if out || p.Mode == pg_query.FunctionParameterMode_FUNC_PARAM_INOUT {
			name := p.Name
			if name == "" {
				name = "column" + strconv.Itoa(len(f.Cols)+1)
			}
			f.Cols = append(f.Cols, plan.Column{Name: name, Type: t})
			f.ColTypes = append(f.ColTypes, tn)
			f.addColPoly(poly)
		}
	}
	// A polymorphic procedure is bound per call as a polymorphic
	// function is (function_poly.go): its OUT and INOUT parameters'
	// pseudo-types resolved from its inputs'.
	f.instances = &polyInstances{}
	in := *f // the inputs determine the outputs' types
	in.Params = nil
	for i, p := range f.Params {
		if f.ArgModes[i] != 'o' {
			in.Params = append(in.Params, p)
		}
	}
	return checkPolyResult(&in)
}

// bindCall binds CALL proc(args).
func (b *binder) bindCall(cs *pg_query.CallStmt) (Bound, error) {
	fc := cs.Funccall
	var procs []*Function
	if pc, ok := b.cat.(ProcedureCatalog); ok && fc != nil {
		names := fc.Funcname
		if len(names) <= 2 && (len(names) < 2 || names[0].GetString_().GetSval() == "public") {
			procs = pc.Procedures(names[len(names)-1].GetString_().GetSval())
		}
	}
	if fc == nil {
		return nil, pgerr.New(pgerr.SyntaxError, "CALL needs a procedure call")
	}
	name := fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval()
	s := b.argScope()
	var c *userCall
	var err error
	ok := false
	if len(procs) > 0 && !fc.FuncVariadic {
		c, ok, err = b.resolveUserCall(s, procs, fc.Args, fc.Location)
		if err != nil {
			return nil, err
		}
	}
	if !ok {
		if fns := b.lookupFunctions(fc.Funcname); len(fns) > 0 {
			if fcall, found, _ := b.resolveUserCall(s, fns, fc.Args, fc.Location); found {
				return nil, b.stmt.errf(fc.Location, pgerr.WrongObjectType, "%s is not a procedure", CallSignature(fcall.fn.Name, paramTypes(fcall.fn))).
					WithHint("To call a function, use SELECT.")
			}
		}
		types := make([]string, len(fc.Args))
		for i, a := range fc.Args {
			e, err := b.bindExpr(s, a)
			if err != nil {
				return nil, err
			}
			types[i] = e.Type().String()
		}
		return nil, b.stmt.errf(fc.Location, pgerr.UndefinedFunction, "procedure %s(%s) does not exist", name, strings.Join(types, ", ")).
			WithHint("No procedure matches the given name and argument types. You might need to add explicit type casts.")
	}
	args, err := b.routineArgs(s, c)
	if err != nil {
		return nil, err
	}
	argOf := make([]int, len(c.fn.Params))
	for i := range argOf {
		argOf[i] = -1
	}
	names := make([]string, len(fc.Args))
	for i, a := range fc.Args {
		if na := a.GetNamedArgExpr(); na != nil {
			names[i] = na.Name
		}
	}
	if slot, ok := c.fn.bindArgs(names); ok {
		for i, p := range slot {
			argOf[p] = i
		}
	}
	return &Call{Proc: c.fn, Args: args, ArgOf: argOf}, nil
}

// paramTypes prints a function's parameter types for messages.
func paramTypes(f *Function) []value.Type {
	ts := make([]value.Type, len(f.Params))
	for i, p := range f.Params {
		ts[i] = p.Type
	}
	return ts
}

// procedureCalled refuses, as PostgreSQL does (42809), a call in an
// expression that resolves to a procedure.
func (b *binder) procedureCalled(s *scope, f *pg_query.FuncCall) error {
	pc, ok := b.cat.(ProcedureCatalog)
	names := f.Funcname
	if !ok || len(names) > 2 || len(names) == 2 && names[0].GetString_().GetSval() != "public" {
		return nil
	}
	procs := pc.Procedures(names[len(names)-1].GetString_().GetSval())
	if len(procs) == 0 {
		return nil
	}
	c, found, err := b.resolveUserCall(s, procs, f.Args, f.Location)
	if err != nil || !found {
		return nil // the built-in functions of the name are tried
	}
	return b.stmt.errf(f.Location, pgerr.WrongObjectType, "%s is a procedure", CallSignature(c.fn.Name, paramTypes(c.fn))).
		WithHint("To call a procedure, use CALL.")
}
