package engine

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// SQL functions (CREATE FUNCTION … LANGUAGE sql) live in the catalog by
// name, overloads together; the binder inlines each call, so a function
// is never run as such. A view depends on the functions its query calls
// (funcDeps, by signature): DROP FUNCTION refuses to drop one a view
// calls, unless CASCADE drops the view too, and CREATE OR REPLACE refuses
// to change one a materialized view calls, whose plan holds the old body.
// A plain view is bound again at each use: it calls the new body, as in
// PostgreSQL. The store keeps a function as its statement, under its
// signature, run again at open with check_function_bodies off.

// KindFunction is the kind of a stored SQL function, recorded under its
// signature.
const KindFunction RelKind = "function"

// Functions implements sql.FunctionCatalog: the functions of a name,
// without its procedures, which only CALL sees (procedure.go).
func (e *Engine) Functions(name string) []*sql.Function { return routinesOf(e.funcs[name], false) }

// Functions implements sql.FunctionCatalog.
func (r *recorder) Functions(name string) []*sql.Function {
	if fc, ok := r.cat.(sql.FunctionCatalog); ok {
		return fc.Functions(name)
	}
	return nil
}

// UseFunction implements sql.FunctionUser.
func (r *recorder) UseFunction(f *sql.Function) {
	r.use(f.Signature())
	r.useRoutine(f)
}

// use records that the statement depends on a routine or operator, by
// its signature or key.
func (r *recorder) use(sig string) {
	if r.funcs == nil {
		r.funcs = map[string]bool{}
	}
	r.funcs[sig] = true
}

// Functions implements sql.FunctionCatalog.
func (v viewRecorder) Functions(name string) []*sql.Function { return v.r.Functions(name) }

// UseFunction implements sql.FunctionUser.
func (v viewRecorder) UseFunction(f *sql.Function) { v.r.UseFunction(f) }

// calledFunctions are the signatures of the functions a statement called,
// sorted.
func (r *recorder) calledFunctions() []string {
	out := make([]string, 0, len(r.funcs))
	for s := range r.funcs {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// function returns the function of a name and input types.
func (e *Engine) function(sig string, name string) (*sql.Function, int) {
	for i, f := range e.funcs[name] {
		if f.Signature() == sig {
			return f, i
		}
	}
	return nil, -1
}

// createFunction runs CREATE [OR REPLACE] FUNCTION; check is
// check_function_bodies.
func (e *Engine) createFunction(cf *sql.CreateFunction, rec *recorder, check bool) (Result, error) {
	f := cf.Func
	if f.Rows > 0 && !f.Set {
		return Result{}, pgerr.New(pgerr.InvalidParameter, "ROWS is not applicable when function does not return a set")
	}
	sig := f.Signature()
	old, i := e.function(sig, f.Name)
	if old != nil {
		if !cf.Replace {
			return Result{}, pgerr.New(sql.CodeDuplicateFunction, "function %q already exists with same argument types", e.bareName(f.Name))
		}
		if old.Procedure != f.Procedure {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "cannot change routine kind").
				WithDetail("%q is %s.", f.Name, routineKind(old, true))
		}
		if !slices.Equal(old.Cols, f.Cols) || !slices.Equal(old.ColPoly, f.ColPoly) || old.Set != f.Set || old.Trigger != f.Trigger {
			what := "return type"
			if len(old.Cols) > 1 && old.Set == f.Set && len(old.Cols) == len(f.Cols) {
				what = "row type defined by OUT parameters"
			}
			return Result{}, pgerr.New(sql.CodeInvalidFunctionDef, "cannot change %s of existing function", what).
				WithHint("Use DROP FUNCTION %s first.", sig)
		}
		if v := e.matViewCalling(sig); v != "" {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot replace function %s: materialized view %s calls it", sig, v).
				WithHint("a materialized view keeps the body it was created with: drop the view, replace the function, and create the view again")
		}
	}
	if f.Language != sql.LangPLpgSQL && sql.CallsItself(e, f) {
		if check && f.Atomic {
			// PostgreSQL binds such a body before the function exists:
			// a call of itself is one of a function that does not exist,
			// unless OR REPLACE keeps the former one.
			if err := sql.CheckFunctionBody(rec, f); err != nil {
				return Result{}, err
			}
		}
		// Its inlining would not end: it runs as code, as PostgreSQL runs it.
		if !f.RunAsCode("calls itself") {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "function %s calls itself: recursive SQL functions are not supported", sig).
				WithHint("a call is inlined as the function's body; write the recursion as WITH RECURSIVE")
		}
	}
	secText, err := e.routineSecurity(cf, old, rec)
	if err != nil {
		return Result{}, err
	}
	if f.Language == sql.LangPLpgSQL && check {
		compile, g := e.compiled, f
		if f.Trigger {
			compile = e.compiledTrigger // with NEW and OLD
		}
		if f.Polymorphic() {
			g = f.ValidatorInstance()
		}
		pf, err := compile(g)
		if err == nil {
			err = pf.CheckTypes(f.Source, rec.typeExists)
		}
		if err != nil {
			return Result{}, compileErrorIn(err, rec.text)
		}
	}
	if check && f.Language != sql.LangPLpgSQL && !f.Polymorphic() { // PostgreSQL checks a polymorphic body's syntax only
		if err := checkUnderSettings(rec, f, sql.CheckFunctionBody); err != nil {
			return Result{}, err
		}
	}
	if check && f.SQLCode {
		// A SQL function run as code: its statements are checked as
		// PostgreSQL analyses them.
		if err := checkUnderSettings(rec, f, sql.CheckCodeBody); err != nil {
			return Result{}, err
		}
	}
	if !f.SecurityChanged() {
		return Result{}, errSecurityRecord(f)
	}
	if e.store != nil && !isTemp(f.Name) { // a session's temporary function is never stored
		if old != nil {
			if err := e.store.Drop([]string{sig}); err != nil {
				return Result{}, err
			}
		}
		if err := e.store.Create(&StoredRelation{Name: sig, Kind: KindFunction, SQL: rec.text}); err != nil {
			return Result{}, err
		}
		if old != nil {
			if err := e.restoreTriggersOf(sig); err != nil {
				return Result{}, err
			}
			if err := e.restoreEvtTriggersOf(sig); err != nil {
				return Result{}, err
			}
		}
	}
	if e.funcs == nil {
		e.funcs = map[string][]*sql.Function{}
	}
	e.recordRoutine(sig, rec.text)
	if secText != "" {
		if err := e.saveRoutine(sig, sig, KindFunction, rec.text, secText); err != nil {
			return Result{}, err
		}
	}
	if old != nil && old.HasACL {
		// CREATE OR REPLACE keeps the routine's privileges, as its owner.
		f.ACL, f.HasACL, f.ACLOptions = old.ACL, true, old.ACLOptions
		owner := routineOwnerName(f)
		text := execChangeText(routineWord(f), sig, owner, execItems(false, nil, nil, owner), execItems(true, f.ACL, f.ACLOptions, owner), false)
		if err := e.saveRoutine(sig, sig, KindFunction, rec.text, text); err != nil {
			return Result{}, err
		}
	}
	if old != nil {
		e.funcs[f.Name][i] = f
	} else {
		e.funcs[f.Name] = append(e.funcs[f.Name], f)
	}
	if f.Procedure {
		return Result{Tag: "CREATE PROCEDURE"}, nil
	}
	return Result{Tag: "CREATE FUNCTION"}, nil
}

// matViewCalling returns a materialized view that calls the function of
// signature sig, or "".
func (e *Engine) matViewCalling(sig string) string {
	for _, v := range e.callers(sig) {
		if e.views[v] != nil {
			return v
		}
	}
	return ""
}

// callers are the views that call the function of signature sig, sorted.
func (e *Engine) callers(sig string) []string {
	var out []string
	for v, sigs := range e.funcDeps {
		if slices.Contains(sigs, sig) {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// dropFunctions runs DROP FUNCTION.
func (e *Engine) dropFunctions(d *sql.DropFunction) (Result, error) {
	var notices []string
	var gone []*sql.Function
	for _, ref := range d.Funcs {
		if ref.Missing != "" {
			notices = append(notices, ref.Missing)
			continue
		}
		f, err := e.lookupRoutine(ref, d.Procedure)
		if err != nil && !d.Procedure {
			if xerr := e.extensionMember(ref); xerr != nil {
				return Result{}, xerr
			}
		}
		if a := e.aggregateNamed(ref); a != nil && err != nil && d.Routine && len(d.Funcs) == 1 {
			// DROP ROUTINE drops an aggregate as DROP AGGREGATE does.
			res, err := e.dropAggregates(&sql.DropAggregate{Aggs: d.Funcs, IfExists: d.IfExists, Cascade: d.Cascade})
			res.Tag = dropFunctionTag(d)
			return res, err
		}
		if a := e.aggregateNamed(ref); a != nil && err != nil && d.Routine {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "DROP ROUTINE of aggregate %s in a list of several routines is not supported", a.Signature()).
				WithHint("Use DROP AGGREGATE to drop aggregate functions.")
		}
		if a := e.aggregateNamed(ref); a != nil && err != nil {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is an aggregate function", a.Name).
				WithHint("Use DROP AGGREGATE to drop aggregate functions.")
		}
		if err != nil {
			if d.IfExists && pgerr.Code(err) == pgerr.UndefinedFunction {
				kind := routineKind(nil, d.Procedure)
				if d.Routine {
					kind = "routine"
				}
				notices = append(notices, fmt.Sprintf("%s %s does not exist, skipping", kind, cmp.Or(ref.Written, ref.ArgsString())))
				continue
			}
			return Result{}, err
		}
		gone = append(gone, f)
	}
	dropped, err := e.dropRoutines(gone, d.Cascade, nil)
	if err != nil {
		return Result{}, err
	}
	// What the cascade took makes one notice, as PostgreSQL's.
	for _, n := range dropped {
		if !strings.HasPrefix(n, "drop cascades to ") {
			notices = append(notices, n)
		}
	}
	notices = append(notices, cascadeNotice(cascadedLines(dropped))...)
	return Result{Tag: dropFunctionTag(d), Notices: notices}, nil
}

// dropRoutines drops the routines gone (with cascade, what depends on
// them), after notices; it returns the notices with its own.
func (e *Engine) dropRoutines(gone []*sql.Function, cascade bool, notices []string) ([]string, error) {
	for _, f := range gone {
		// PostgreSQL names an aggregate "function" in the detail lines.
		for _, dep := range []struct {
			kind, line string
			users      []string
		}{
			{"operator", "operator", e.operatorsUsing(f)},
			{"aggregate", "function", e.aggregatesUsing(f)},
		} {
			if len(dep.users) == 0 {
				continue
			}
			if cascade {
				continue // dropped below, before the routines
			}
			var lines []string
			for _, u := range dep.users {
				lines = append(lines, fmt.Sprintf("%s %s depends on function %s", dep.line, u, f.Signature()))
			}
			return nil, &pgerr.Error{Code: pgerr.DependentObjects,
				Message: fmt.Sprintf("cannot drop function %s because other objects depend on it", f.Signature()),
				Detail:  strings.Join(lines, "\n"),
				Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
		}
	}
	var err error
	if cascade {
		if notices, err = e.dropRoutineUsers(gone, notices); err != nil {
			return nil, err
		}
	}
	sigs := make([]string, len(gone))
	for i, f := range gone {
		sigs[i] = f.Signature()
	}
	if notices, err = e.dropFunctionTableCalls(gone, cascade, notices); err != nil {
		return nil, err
	}
	if notices, err = e.dropFunctionCasts(sigs, cascade, notices); err != nil {
		return nil, err
	}
	if notices, err = e.dropFunctionTriggers(gone, cascade, notices); err != nil {
		return nil, err
	}
	if notices, err = e.dropFunctionEventTriggers(gone, cascade, notices); err != nil {
		return nil, err
	}
	var views []string
	for _, f := range gone {
		for _, v := range e.callers(f.Signature()) {
			if !slices.Contains(views, v) {
				views = append(views, v)
			}
		}
	}
	if len(views) > 0 && !cascade {
		f := gone[0]
		var lines []string
		for _, g := range gone {
			for _, v := range e.callers(g.Signature()) {
				lines = append(lines, fmt.Sprintf("%s %s depends on function %s", e.kindName(v), v, g.Signature()))
			}
		}
		return nil, &pgerr.Error{Code: pgerr.DependentObjects,
			Message: fmt.Sprintf("cannot drop function %s because other objects depend on it", f.Signature()),
			Detail:  strings.Join(lines, "\n"),
			Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	notices, err = e.dropCascaded(notices, views)
	if err != nil {
		return nil, err
	}
	if e.store != nil {
		var sigs []string
		for _, f := range gone {
			if !isTemp(f.Name) { // a session's temporary function was never stored
				sigs = append(sigs, f.Signature())
			}
		}
		if err := e.store.Drop(sigs); err != nil {
			return nil, err
		}
	}
	for _, f := range gone {
		e.forgetRoutine(f.Signature())
		e.funcs[f.Name] = slices.DeleteFunc(e.funcs[f.Name], func(g *sql.Function) bool { return g == f })
		if len(e.funcs[f.Name]) == 0 {
			delete(e.funcs, f.Name)
		}
	}
	return notices, nil
}

// dropFunctionTag is the command tag of d.
func dropFunctionTag(d *sql.DropFunction) string {
	switch {
	case d.Routine:
		return "DROP ROUTINE"
	case d.Procedure:
		return "DROP PROCEDURE"
	}
	return "DROP FUNCTION"
}

// lookupRoutine finds the function (or the procedure, for DROP
// PROCEDURE) that DROP names: by name alone among those of its kind, or
// by its argument types, when one of the other kind is 42809. A ref of
// ALTER or DROP ROUTINE finds either kind; PostgreSQL names it a function
// when it is missing, a routine when its name is ambiguous.
func (e *Engine) lookupRoutine(ref sql.FuncRef, proc bool) (*sql.Function, error) {
	kind := routineKind(nil, proc)
	fns := routinesOf(e.funcs[ref.Name], proc)
	if ref.Routine {
		kind, fns = "function", e.funcs[ref.Name]
	}
	if ref.Args == nil {
		switch len(fns) {
		case 0:
			return nil, pgerr.New(pgerr.UndefinedFunction, "could not find a %s named %q", kind, ref.Name)
		case 1:
			return fns[0], nil
		}
		if ref.Routine {
			kind = "routine"
		}
		return nil, pgerr.New(sql.CodeAmbiguousFunction, "%s name %q is not unique", kind, ref.Name).
			WithHint("Specify the argument list to select the %s unambiguously.", kind)
	}
	for _, f := range e.funcs[ref.Name] {
		if !matchesDropArgs(f, ref) {
			continue
		}
		if f.Procedure != proc && !ref.Routine {
			return nil, pgerr.New(pgerr.WrongObjectType, "%s is not a %s", ref.ArgsString(), kind)
		}
		return f, nil
	}
	return nil, pgerr.New(pgerr.UndefinedFunction, "%s %s does not exist", kind, ref.ArgsString())
}

// matchesDropArgs reports whether DROP's argument types name f: its input
// types, or, for a procedure, all its parameters' (OUT ones too).
func matchesDropArgs(f *sql.Function, ref sql.FuncRef) bool {
	var in []value.Type
	var polys []sql.Poly
	var doms []*expr.Domain
	for i, p := range f.Params {
		if !f.Procedure || i >= len(f.ArgModes) || f.ArgModes[i] != 'o' {
			in = append(in, p.Type)
			polys = append(polys, p.Poly)
			doms = append(doms, p.Domain)
		}
	}
	if slices.Equal(in, ref.Args) {
		same := true
		for i, p := range polys {
			if i < len(ref.Polys) && ref.Polys[i] != p || i >= len(ref.Polys) && p != sql.PolyNone {
				same = false
			}
			if i < len(ref.Domains) && ref.Domains[i] != doms[i] || i >= len(ref.Domains) && doms[i] != nil {
				same = false
			}
		}
		if same {
			return true
		}
	}
	if !f.Procedure || len(ref.AllArgs) != len(f.Params) {
		return false
	}
	for i, p := range f.Params {
		if p.Type != ref.AllArgs[i] {
			return false
		}
	}
	return true
}

// dropWithDependents drops user aggregates or operators (what names them
// in errors: "function", "operator") after the views that call them: keys
// are the objects' keys in the catalog of callers and in the store, shown
// how errors print them. Without cascade, a view calling one is 2BP01.
func (e *Engine) dropWithDependents(what string, keys, shown []string, cascade bool, notices []string) ([]string, error) {
	var views, lines []string
	for i, k := range keys {
		for _, v := range e.callers(k) {
			lines = append(lines, fmt.Sprintf("%s %s depends on %s %s", e.kindName(v), v, what, shown[i]))
			if !slices.Contains(views, v) {
				views = append(views, v)
			}
		}
	}
	if len(views) > 0 && !cascade {
		return nil, &pgerr.Error{Code: pgerr.DependentObjects,
			Message: fmt.Sprintf("cannot drop %s %s because other objects depend on it", what, shown[0]),
			Detail:  strings.Join(lines, "\n"),
			Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
	}
	notices, err := e.dropCascaded(notices, views)
	if err != nil {
		return nil, err
	}
	if e.store != nil && len(keys) > 0 {
		if err := e.store.Drop(keys); err != nil {
			return nil, err
		}
	}
	return notices, nil
}

// dropCascaded drops the views that a DROP … CASCADE takes with its
// objects, appending PostgreSQL's notices to notices; a view already gone
// with another of the list is skipped.
func (e *Engine) dropCascaded(notices, views []string) ([]string, error) {
	for _, v := range views {
		kind, ok := e.kindOf(v)
		if !ok {
			continue
		}
		notices = append(notices, fmt.Sprintf("drop cascades to %s %s", e.kindNameOf(kind), v))
		res, err := e.drop(&sql.Drop{Kind: kind, Names: []string{v}, Cascade: true})
		if err != nil {
			return nil, err
		}
		notices = append(notices, res.Notices...)
	}
	return notices, nil
}
