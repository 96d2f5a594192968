package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// PL/pgSQL: DO blocks and functions declared LANGUAGE plpgsql, which the
// interpreter of package plpgsql runs for the session that calls them.
//
// A statement that runs PL/pgSQL (DO, or any statement calling such a
// function) holds the engine's write lock and the writer slot, as a data
// change does, since the code may change rows; it is one transaction
// (its own, or the open block's): the changes its SQL statements make
// are undone together when it fails. A block with an EXCEPTION clause
// marks the transaction's log on entry and undoes what follows the mark
// when a handler catches an error, as a subtransaction does. A catalog
// change runs only as a DO block's final statement (routine_catalog.go).

// maxRoutineDepth bounds nested calls, as PostgreSQL's max_stack_depth
// does.
const maxRoutineDepth = 400

// compiled returns the compiled body of a PL/pgSQL function, compiling it
// at its first call.
func (e *Engine) compiled(f *sql.Function) (*plpgsql.Func, error) {
	if pf, ok := f.Compiled.(*plpgsql.Func); ok {
		return pf, nil
	}
	if f.Trigger {
		return nil, sql.ErrTriggerCall()
	}
	sig := routineSignature(f)
	sig.RowType = e.isRowType
	src := f.SQL
	if f.PLSQL != "" {
		src = f.PLSQL
	}
	pf, err := plpgsql.Compile(src, f.Source, sig)
	if err != nil {
		return nil, err
	}
	f.Compiled = pf
	return pf, nil
}

// isRowType reports whether name is a table's, a view's or a composite
// type's: a PL/pgSQL variable declared of it is a record of its fields.
func (e *Engine) isRowType(name string) bool {
	if _, ok := e.Relation(name); ok {
		return true
	}
	if _, ok := catalogRelations["pg_catalog."+name]; ok {
		return true // a system catalog's or view's (pg_class)
	}
	_, ok := e.CompositeType(name)
	return ok
}

// routineSignature is what the interpreter needs of a function's
// declaration.
func routineSignature(f *sql.Function) plpgsql.Signature {
	sig := plpgsql.Signature{Name: f.Name, Modes: f.ArgModes, Result: f.Cols, Set: f.Set, Out: !f.BaseType && len(f.Cols) > 0,
		NullWithoutRow: f.SQLCode && !f.Set && len(f.Cols) > 1}
	if f.Generic != nil {
		sig.Text = f.Generic.Signature() // PostgreSQL's CONTEXT names the declared types
	}
	if f.Procedure {
		sig.Procedure = true
		for _, p := range f.Params {
			sig.Types = append(sig.Types, p.Type)
			sig.TypeNames = append(sig.TypeNames, domainCandidate(p.TypeName))
		}
		return sig
	}
	if fields := f.RowFields(); fields != nil {
		sig.Result, sig.Composite = fields, true
	}
	if f.RecordCols != nil {
		// An instance of a function returning record: the columns of
		// its call's column definition list.
		sig.Result, sig.Composite = f.RecordCols, true
	}
	in, out := 0, 0
	for _, m := range f.ArgModes {
		switch m {
		case 'i':
			sig.Types = append(sig.Types, f.Params[in].Type)
			sig.TypeNames = append(sig.TypeNames, domainCandidate(f.Params[in].TypeName))
			in++
		case 'b':
			sig.Types = append(sig.Types, f.Params[in].Type)
			sig.TypeNames = append(sig.TypeNames, domainCandidate(f.Params[in].TypeName))
			in, out = in+1, out+1
		default:
			sig.Types = append(sig.Types, f.Cols[out].Type)
			var tn *pg_query.TypeName
			if out < len(f.ColTypes) {
				tn = f.ColTypes[out]
			}
			sig.TypeNames = append(sig.TypeNames, domainCandidate(tn))
			out++
		}
	}
	return sig
}

// domainCandidate is a parameter's type name as SQL text when it may
// name a domain (the interpreter looks it up), "" when it cannot: none,
// an array or a pseudo-type.
func domainCandidate(tn *pg_query.TypeName) string {
	if tn == nil || len(tn.Names) == 0 || tn.PctType {
		return ""
	}
	parts := make([]string, len(tn.Names))
	for i, n := range tn.Names {
		parts[i] = sql.QuoteIdent(n.GetString_().GetSval())
	}
	if parts[0] == "pg_catalog" {
		return "" // a built-in type is never a domain
	}
	if len(tn.ArrayBounds) > 0 {
		return strings.Join(parts, ".") + "[]" // an array of a domain checks its elements
	}
	return strings.Join(parts, ".")
}

// routineOf returns the PL/pgSQL function a call names by its
// sql.Function.RoutineSig: the function of a signature, or its instance
// for a polymorphic one.
func (e *Engine) routineOf(sig string) (*sql.Function, error) {
	fsig, inst := sql.SplitRoutineSig(sig)
	name, _, _ := strings.Cut(fsig, "(")
	f, _ := e.function(fsig, name)
	if f != nil && "\x00"+inst == sql.TableCodeMark {
		f = f.TableCodeForm() // a SQL function a table's definition calls
	} else if f != nil && inst != "" {
		f = f.Instance(inst)
	}
	if f == nil {
		return nil, pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", fsig)
	}
	return f, nil
}

// UseCode implements sql.CodeUser.
func (r *recorder) UseCode() { r.code = true }

// callsRoutine reports whether a statement calls a PL/pgSQL function.
func (e *Engine) callsRoutine(rec *recorder) bool {
	if rec == nil {
		return false
	}
	if rec.code || e.namesRoutineDomain(rec) {
		return true
	}
	for sig := range rec.funcs {
		name, _, _ := strings.Cut(sig, "(")
		if f, _ := e.function(sig, name); f != nil && f.Language == sql.LangPLpgSQL {
			return true
		}
	}
	return false
}

// compileErrorIn positions a body's compile error in stmt, its CREATE
// FUNCTION or DO statement, as PostgreSQL does.
func compileErrorIn(err error, stmt string) error {
	var ce *plpgsql.CompileError
	if errors.As(err, &ce) {
		return ce.In(stmt)
	}
	return err
}

// typeExists returns the error of a type name that names no type
// (42704, 3F000 for an unknown schema), nil for any other.
func (r *recorder) typeExists(typName string) error {
	stmt, err := sql.Parse("SELECT NULL::" + typName)
	if err == nil {
		_, err = sql.BindQuery(r, stmt, false)
	}
	if c := pgerr.Code(err); c == pgerr.UndefinedObject || c == "3F000" {
		return err
	}
	return nil
}

// execDo runs DO.
func (s *Session) execDo(d *sql.Do, rec *recorder) (Result, error) {
	f, err := plpgsql.Compile(rec.text, d.Source, plpgsql.Signature{RowType: s.e.isRowType})
	if err == nil {
		err = f.CheckTypes(d.Source, rec.typeExists)
	}
	if err != nil {
		return Result{}, compileErrorIn(err, rec.text)
	}
	return s.controlled(func(tx *procTx) (Result, error) {
		_, _, err := f.Call(&plRuntime{s: s, tx: tx, top: true}, nil)
		return Result{Tag: "DO"}, err
	})
}

// sessionRoutines runs PL/pgSQL functions for a session's statements.
type sessionRoutines struct{ s *Session }

var _ expr.Routines = sessionRoutines{}

// RoutineStrict implements expr.RoutineStrictness.
func (r sessionRoutines) RoutineStrict(sig string) (bool, bool) {
	f, err := r.s.e.routineOf(sig)
	if err != nil || f == nil {
		return false, false
	}
	return f.Strict, true
}

func (r sessionRoutines) call(sig string, args []value.Value) (value.Value, []value.Row, error) {
	s := r.s
	f, err := s.e.routineOf(sig)
	if err != nil {
		return value.Null, nil, err
	}
	if s.routineDepth >= maxRoutineDepth {
		return value.Null, nil, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("PL/pgSQL calls nest at most %d deep", maxRoutineDepth)
	}
	pf, err := s.e.compiled(f)
	if err != nil {
		return value.Null, nil, err
	}
	s.routineDepth++
	defer func() { s.routineDepth-- }()
	defer s.enterRoutine(f)()
	defer s.e.enterFunction(s.e.volatilityOf(sig, f))()
	return pf.Call(&plRuntime{s: s}, args)
}

// Call implements expr.Routines.
func (r sessionRoutines) Call(sig string, args []value.Value) (value.Value, error) {
	v, _, err := r.call(sig, args)
	return v, err
}

// CallSet implements expr.Routines.
func (r sessionRoutines) CallSet(sig string, args []value.Value) ([]value.Row, error) {
	_, rows, err := r.call(sig, args)
	return rows, err
}

// plRuntime runs the SQL of PL/pgSQL code for a session, under the
// engine's write lock, inside the transaction of the statement that runs
// the code.
// NextPortal implements plpgsql.PortalNamer.
func (r *plRuntime) NextPortal() int {
	r.s.unnamedPortals++
	return r.s.unnamedPortals
}

type plRuntime struct {
	s *Session
	// tx is the transaction control the code may use: that of a CALL or
	// DO outside a transaction block (procedure.go); nil for none.
	tx *procTx
	// final says that the statement running is final (routine_catalog.go).
	final bool
	// top says that the code is a DO block's or a called procedure's,
	// which runs as the session's statement under the write lock: inside
	// a transaction block its catalog changes are the block's
	// (routine_catalog.go).
	top bool
	// last is the recorder of the query the code ran last, which a FOR
	// loop over its rows holds in use (routine_inuse.go).
	last *recorder
}

var _ plpgsql.Runtime = (*plRuntime)(nil)
var _ plpgsql.Interrupter = (*plRuntime)(nil)

// Interrupted implements plpgsql.Interrupter: the loops of a session's
// code end on its cancel, its terminate and its statement's timeout.
func (rt *plRuntime) Interrupted() error {
	if rt.s.e.stepping {
		return nil
	}
	return rt.s.checkInterrupts()
}

// Run implements plpgsql.Runtime.
func (rt *plRuntime) Run(st *sql.Stmt, types []value.Type, args []value.Value, keep bool) (*plpgsql.Result, error) {
	s := rt.s
	e := s.e
	var bd *plBinding
	key := plKey{st: st, types: typesKey(types)}
	if s.transFrame() != nil {
		keep = false // bound with this call's transition tables
	}
	if keep {
		bd = s.plBindings.take(key, e.catalogGen)
		if bd != nil && !s.sameBindSecurity(bd.rec) {
			bd = nil // bound for another role's row-level security
		}
		if bd != nil && bd.rec.refs == nil && s.checksColumns() {
			bd = nil // bound without the columns it reads (column_check.go)
		}
	}
	if bd == nil {
		var err error
		if bd, err = s.bindPL(st, types); err != nil {
			return nil, err
		}
	}
	if keep {
		defer s.plBindings.give(key, bd)
	}
	b, rec := bd.bound, bd.rec
	if err := s.readOnlyCheck(b, rec); err != nil {
		return nil, err
	}
	if err := s.authorize(b, rec); err != nil {
		return nil, err
	}
	for i, p := range bd.params {
		p.V, p.Set = args[i], true
	}
	s.statementClock(rec)
	defer e.beginQuery()()
	var res Result
	var err error
	rt.last = nil
	switch b.(type) {
	case *sql.Select, *sql.Insert, *sql.Update, *sql.Delete, *sql.Merge, *sql.RuleDML, *sql.RuleThrough:
		rt.last = rec
		s.active = append(s.active, rec)
		defer s.dropActive(rec)
	}
	switch b := b.(type) {
	case *sql.Select:
		bud := e.queryBudget(s.source())
		if !s.deadline.IsZero() {
			bud.Deadline, bud.Late = s.deadline, errStatementTimeout
		}
		if !e.stepping {
			bud.Interrupts = s
		}
		res, err = execSelect(b.Plan, bud)
		return &plpgsql.Result{Cols: res.Columns, Rows: res.Rows, Count: int64(len(res.Rows))}, err
	case *sql.Insert:
		res, err = e.atomically(func() (Result, error) { return e.execInsert(b) })
		res.Columns = b.RetCols
	case *sql.Update:
		res, err = e.atomically(func() (Result, error) { return e.execUpdate(b) })
		res.Columns = b.RetCols
	case *sql.Delete:
		res, err = e.atomically(func() (Result, error) { return e.execDelete(b) })
		res.Columns = b.RetCols
	case *sql.Merge:
		res, err = e.atomically(func() (Result, error) { return e.execMerge(b) })
	case *sql.RuleDML:
		res, err = e.atomically(func() (Result, error) { return s.execRules(b) })
	case *sql.RuleThrough:
		res, err = e.atomically(func() (Result, error) { return s.execRuleThrough(b) })
	case *sql.Call:
		res, err = s.callProcedure(b, rt.tx)
		if err != nil {
			return nil, err
		}
		return &plpgsql.Result{Cols: res.Columns, Rows: res.Rows, OutArgs: outArgs(b)}, nil
	default:
		if res, ok, err := rt.runUtility(b, rec, !keep); ok {
			return res, err
		}
		if catalogChange(b) {
			return rt.runCatalogChange(st, len(types))
		}
		what := strings.ToUpper(strings.Fields(st.SQL + " ?")[0])
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s is not supported in PL/pgSQL", what).
			WithHint("PL/pgSQL runs queries and INSERT, UPDATE, DELETE and MERGE; run catalog changes and transaction control as statements of their own")
	}
	if err != nil {
		return nil, err
	}
	out := &plpgsql.Result{Cols: res.Columns, Rows: res.Rows}
	if i := strings.LastIndexByte(res.Tag, ' '); i >= 0 {
		out.Count, _ = strconv.ParseInt(res.Tag[i+1:], 10, 64)
	}
	return out, nil
}

// bindPL binds a statement of PL/pgSQL code, its parameters of the types
// given.
func (s *Session) bindPL(st *sql.Stmt, types []value.Type) (*plBinding, error) {
	st = sql.AliasTempSchema(st, s.ownTempSchema())
	if rn := s.tempNames(st); rn != nil {
		var err error
		if st, err = sql.RenameRelations(st, rn); err != nil {
			return nil, err
		}
	}
	if s.tempNS != "" && (s.hasTempTypes() || sql.MentionsTemp(st.SQL)) {
		var err error
		if st, err = sql.RenameTempObjects(st, s.tempObjects()); err != nil {
			return nil, err
		}
	}
	st, err := s.qualify(st)
	if err != nil {
		return nil, err
	}
	rec := &recorder{cat: s.e, seen: map[string]bool{}, text: st.SQL, rowSec: s.rowSecurity(), rowSecOff: s.rowSecOff(),
		names: &nameScope{e: s.e, path: s.searchPath(), temp: s.ownTempSchema(), tempAt: s.tempAt()}}
	if s.tempNS != "" {
		// The session's temporary schema: pg_my_temp_schema(), its
		// relations named in text (nextval('s')), its children.
		rec.temps = s
	}
	if fr := s.transFrame(); fr != nil {
		rec.cat = transCatalog{s.e, fr}
	}
	if s.checksColumns() {
		// Checked per column, as the session's statements are.
		logged := *st
		logged.Refs = &sql.RefLog{}
		st, rec.refs = &logged, logged.Refs
	}
	b, params, err := sql.BindWithParams(rec, st, types)
	if err != nil {
		return nil, err
	}
	return &plBinding{bound: b, params: params, rec: rec}, nil
}

// plBindings are the bindings of the statements of PL/pgSQL code that a
// session ran, kept for their next runs while the catalog stays as it
// was. A binding in use (a recursive call runs the same statement) is
// out of the list: the inner run binds its own.
type plBindings struct {
	gen  uint64
	free map[plKey][]*plBinding
}

// typesKey identifies a list of parameter types.
func typesKey(types []value.Type) string { return fmt.Sprint(types) }

// plKey is a statement of a body and the types of its parameters.
type plKey struct {
	st    *sql.Stmt
	types string
}

type plBinding struct {
	bound  sql.Bound
	params sql.Params
	rec    *recorder
}

// take returns a free binding of key bound under the catalog of
// generation gen, or nil.
func (p *plBindings) take(key plKey, gen uint64) *plBinding {
	if p.gen != gen {
		p.gen, p.free = gen, nil
	}
	l := p.free[key]
	if len(l) == 0 {
		return nil
	}
	p.free[key] = l[:len(l)-1]
	return l[len(l)-1]
}

func (p *plBindings) give(key plKey, bd *plBinding) {
	if p.free == nil {
		p.free = map[plKey][]*plBinding{}
	}
	p.free[key] = append(p.free[key], bd)
}

// Assign implements plpgsql.Runtime.
func (rt *plRuntime) Assign(v value.Value, t value.Type) (value.Value, error) {
	return plAssign(v, t)
}

// plAssign converts v to t as a PL/pgSQL assignment does: by an
// assignment cast when there is one, else through text, as PostgreSQL
// does since version 14 (a boolean into an integer is 22P02, not 1).
func plAssign(v value.Value, t value.Type) (value.Value, error) {
	if v.IsNull() || sql.Assignable(v.Kind(), t.Kind) {
		return assignValue(v, t)
	}
	return assignValue(value.NewText(value.Text, v.String()), t)
}

// Notice implements plpgsql.Runtime: the notice reaches the client with
// the statement's result.
func (rt *plRuntime) Notice(level, msg string) { rt.s.e.noticeAt(level, msg) }

// NoticeCode implements plpgsql.NoticeCoder: RAISE's notice with the
// SQLSTATE it chose.
func (rt *plRuntime) NoticeCode(level, code, msg string) {
	e := rt.s.e
	if e.noticeCodes == nil {
		e.noticeCodes = map[int]string{}
	}
	e.noticeCodes[len(e.notices)] = code
	e.noticeAt(level, msg)
}

// Mark implements plpgsql.Runtime.
func (rt *plRuntime) Mark() plpgsql.Mark {
	tx := rt.s.e.begin()
	sends, _ := rt.s.notifyMark()
	return plpgsql.Mark{Log: len(tx.log), Restarts: len(tx.restarts), Notify: sends, Catalog: rt.s.e.catalogMark()}
}

// Undo implements plpgsql.Runtime.
func (rt *plRuntime) Undo(m plpgsql.Mark) {
	e := rt.s.e
	tx := e.begin()
	e.flushPending()
	e.undoRestarts(min(m.Restarts, len(tx.restarts)))
	e.undoCatalog(m.Catalog) // the block's catalog changes since (routine_catalog.go)
	e.undoTo(min(m.Log, len(tx.log)))
	_, listens := rt.s.notifyMark()
	rt.s.notifyUndo(m.Notify, listens)
}
