package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// LangPLpgSQL is the language of a function the engine runs, statement by
// statement, rather than inline (Function.Language).
const LangPLpgSQL = "plpgsql"

// Do is DO [LANGUAGE plpgsql] 'code': an anonymous PL/pgSQL block.
type Do struct {
	Source string
}

func (*Do) bound() {}

// bindDo binds DO; only PL/pgSQL runs inline code.
func (b *binder) bindDo(d *pg_query.DoStmt) (Bound, error) {
	out := &Do{}
	lang := LangPLpgSQL
	for _, a := range d.Args {
		de := a.GetDefElem()
		switch de.GetDefname() {
		case "as":
			out.Source = de.Arg.GetString_().GetSval()
		case "language":
			lang = strings.ToLower(de.Arg.GetString_().GetSval())
		}
	}
	switch lang {
	case LangPLpgSQL:
		return out, nil
	case "sql":
		return nil, pgerr.New(pgerr.FeatureNotSupported, "language \"sql\" does not support inline code execution")
	}
	return nil, pgerr.New(pgerr.UndefinedObject, "language %q does not exist", lang).
		WithHint("Use CREATE EXTENSION to load the language into the database.")
}

// plpgsqlFunction reads CREATE FUNCTION … LANGUAGE plpgsql: its
// parameters, its result and the text of its body, which the engine
// compiles.
func (b *binder) plpgsqlFunction(f *Function, cf *pg_query.CreateFunctionStmt, body *pg_query.DefElem) (Bound, error) {
	f.Language = LangPLpgSQL
	if err := b.plpgsqlPseudoParams(cf); err != nil {
		return nil, err
	}
	if err := b.functionParams(f, cf); err != nil {
		return nil, err
	}
	if body == nil {
		return nil, pgerr.New(CodeInvalidFunctionDef, "no function body specified")
	}
	items := body.Arg.GetList().GetItems()
	if len(items) != 1 {
		return nil, b.stmt.errf(body.Location, CodeInvalidFunctionDef, "only one AS item needed for language \"plpgsql\"")
	}
	f.Source = items[0].GetString_().GetSval()
	for _, n := range cf.Parameters {
		f.ArgModes += paramMode(n.GetFunctionParameter().Mode)
	}
	return &CreateFunction{Func: f, Replace: cf.Replace}, nil
}

// paramMode is the letter of a parameter's mode in Function.ArgModes.
func paramMode(m pg_query.FunctionParameterMode) string {
	switch m {
	case pg_query.FunctionParameterMode_FUNC_PARAM_OUT:
		return "o"
	case pg_query.FunctionParameterMode_FUNC_PARAM_INOUT:
		return "b"
	case pg_query.FunctionParameterMode_FUNC_PARAM_TABLE:
		return "t"
	}
	return "i"
}

// refuseRoutineInView refuses a procedural function in a view, but for
// a scalar one declared IMMUTABLE: the view could not know what its body
// reads.
func (b *binder) refuseRoutineInView(fn *Function, loc int32) error {
	b.adHocCall = true
	return b.refuse(loc, "PL/pgSQL function %s() cannot be maintained in a view", fn.Name).
		WithHint("a PL/pgSQL function is opaque to the view: declare it IMMUTABLE if its result depends on its arguments alone, write its computation in the query, or write it as a LANGUAGE sql function")
}

// routineArgs binds the arguments of a call of a procedural function,
// each cast to its parameter's type as a SQL function's are.
func (b *binder) routineArgs(s *scope, c *userCall) ([]expr.Expr, error) {
	args := make([]expr.Expr, len(c.args))
	for i, a := range c.args {
		e, err := b.bindExpr(s, castNode(a, c.fn.Params[i].TypeName))
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	return args, nil
}

// RoutineCatalog is a Catalog that runs the IMMUTABLE procedural
// functions a view calls: ViewRoutines runs them outside any session.
type RoutineCatalog interface {
	ViewRoutines() expr.Routines
}

// routineCall binds a call of a procedural function in an expression. A
// view may call one declared IMMUTABLE, trusting the marking as
// PostgreSQL does: it is run for each row the view computes.
func (b *binder) routineCall(s *scope, c *userCall, loc int32) (expr.Expr, error) {
	fn := c.fn
	if fn.Trigger {
		if b.forView {
			return nil, ErrTriggerCall()
		}
		// PostgreSQL binds the call, of type trigger, and fails when
		// it runs.
		return &expr.Raise{Code: pgerr.FeatureNotSupported, Msg: ErrTriggerCall().Error(), T: fn.TriggerType()}, nil
	}
	clock := b.stmtClock
	if b.forView && fn.SQLCode {
		return nil, b.refuseCodeInView(fn, loc)
	}
	if b.forView && (fn.SecDef || len(fn.Config) > 0) {
		return nil, b.refuse(loc, "function %s() cannot be maintained in a view: it is SECURITY DEFINER or has SET clauses", fn.Name).
			WithHint("a view runs its calls outside any session, which such a function needs")
	}
	if b.forView {
		rc, ok := b.cat.(RoutineCatalog)
		if fn.Volatility != "immutable" || !ok {
			return nil, b.refuseRoutineInView(fn, loc)
		}
		clock = &expr.StmtClock{Routines: rc.ViewRoutines()}
	}
	switch {
	case fn.Set:
		return nil, b.refuse(loc, "set-returning function %s() in an expression is not supported", fn.Name).
			WithHint("call it in FROM: SELECT … FROM %s(…)", fn.Name)
	}
	args, err := b.routineArgs(s, c)
	if err != nil {
		return nil, err
	}
	b.useCode(fn)
	t := value.TextType
	if len(fn.Cols) == 1 {
		t = fn.Cols[0].Type
	}
	call := checkedResult(&expr.RoutineCall{Name: fn.Name, Sig: fn.RoutineSig(), Args: args, T: t, Strict: fn.Strict, C: clock}, fn)
	if len(fn.Cols) == 0 {
		// A function returning void: a SQL one gives NULL, a PL/pgSQL
		// one void's value.
		var res expr.Expr = call
		if fn.SQLCode {
			res = &expr.NullIf{L: call, R: &expr.Const{V: value.NewText(value.Text, ""), T: value.TextType}}
		}
		return &expr.Cast{E: res, To: value.VoidType, Explicit: true}, nil
	}
	if fn.outRecord() {
		return outRecordCall(call, fn), nil
	}
	return call, nil
}

// routineSRF binds a call in FROM of a procedural function; ok is false
// when the call is not of one.
func (b *binder) routineSRF(f *pg_query.FuncCall, coldefs []*pg_query.Node) (*expr.SRF, bool, error) {
	fns := b.lookupFunctions(f.Funcname)
	if len(fns) == 0 || f.FuncVariadic {
		return nil, false, nil
	}
	c, ok, err := b.resolveUserCall(b.argScope(), fns, f.Args, f.Location)
	if !ok || err != nil {
		return nil, ok || err != nil, err
	}
	fn := c.fn
	if fn.Language != LangPLpgSQL && !b.forView {
		// A SQL function beside others in ROWS FROM (userFunctionFrom
		// inlines one alone): its statements run.
		if code := fn.codeInstance(); code != nil {
			fn = code
		}
	}
	if fn.Language != LangPLpgSQL {
		return nil, false, nil
	}
	b.useCode(fn)
	if b.forView && fn.SQLCode {
		return nil, true, b.refuseCodeInView(fn, f.Location)
	}
	if b.forView {
		b.adHocCall = true
		return nil, true, b.refuse(f.Location, "PL/pgSQL function %s() in FROM cannot be maintained in a view", fn.Name).
			WithHint("store its rows in a table and read the table")
	}
	var convert []value.Type
	if fn.AnyRecord && fn.SQLCode {
		if fn, convert, err = b.sqlRecordRoutine(c, fn, coldefs, f.Location); err != nil {
			return nil, true, err
		}
	} else if fn.AnyRecord {
		if fn, err = b.recordRoutine(fn, coldefs, f.Location); err != nil {
			return nil, true, err
		}
	}
	args, err := b.routineArgs(b.argScope(), c)
	if err != nil {
		return nil, true, err
	}
	gen := expr.RoutineSRF(fn.Name, fn.RoutineSig(), fn.Strict, b.stmtClock)
	if convert != nil {
		gen = convertedRows(gen, convert)
		for i := range convert {
			fn.RecordCols[i].Type = convert[i]
		}
	}
	if fn.SQLCode && len(fn.Cols) == 0 {
		// A SQL function returning void gives NULL (routineCall).
		inner := gen
		gen = func(args []value.Value, emit func(value.Row) error) error {
			return inner(args, func(value.Row) error { return emit(value.Row{value.Null}) })
		}
	}
	srf := &expr.SRF{Name: fn.Name, Args: args, Gen: gen}
	cols := fn.Cols
	if fields := fn.RowFields(); fields != nil {
		cols = fields
	}
	if fn.RecordCols != nil {
		cols = fn.RecordCols
	}
	if len(cols) == 0 {
		cols = []plan.Column{{Name: fn.Name, Type: value.VoidType}}
		if !fn.SQLCode {
			inner := gen
			gen = func(args []value.Value, emit func(value.Row) error) error {
				return inner(args, func(value.Row) error { return emit(value.Row{value.VoidValue}) })
			}
		}
	}
	for _, col := range cols {
		srf.Cols = append(srf.Cols, col.Type)
		srf.Names = append(srf.Names, col.Name)
	}
	return srf, true, nil
}

// BindWithParams binds a statement whose parameters $1…$n have the types
// given (a PL/pgSQL statement's variables, or EXECUTE … USING's values):
// a SELECT, INSERT, UPDATE, DELETE or MERGE. Any other statement binds as
// Bind does.
func BindWithParams(cat Catalog, s *Stmt, types []value.Type) (Bound, Params, error) {
	n := s.Node
	if n.GetCreateTableAsStmt() != nil && len(types) > 0 {
		// Its query would need the values at the catalog change, and
		// its stored text would name parameters.
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE TABLE … AS reading PL/pgSQL variables or USING parameters is not supported").
			WithHint("write the values into the statement: EXECUTE format('CREATE TABLE t AS SELECT %%L AS x', v)")
	}
	if n.GetSelectStmt() == nil && n.GetInsertStmt() == nil && n.GetUpdateStmt() == nil &&
		n.GetDeleteStmt() == nil && n.GetMergeStmt() == nil && n.GetCallStmt() == nil {
		bd, err := Bind(cat, s)
		return bd, nil, err
	}
	ps := make(Params, len(types))
	for i, t := range types {
		ps[i] = &expr.ParamSlot{N: i + 1, T: t}
	}
	rewriteQuantified(cat, s.SQL, n)
	markUserAggregates(cat, n)
	b := &binder{cat: cat, stmt: s, params: &ps, stmtClock: stmtClockFor(cat, n)}
	var bd Bound
	var err error
	if s.Assign != nil {
		bd, err = b.bindPLAssign()
	} else {
		bd, err = b.bindStmt(n)
	}
	if err != nil {
		return nil, nil, err
	}
	return bd, ps, nil
}
