package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// ALTER FUNCTION, ALTER PROCEDURE and ALTER AGGREGATE change a routine in
// the catalog. The store keeps a routine as the statements that make it
// as it is: its CREATE statement followed by the ALTER statements run
// since (routineText), under its signature, replayed in order when the
// file is opened.
//
// A materialized view holds the inlined body of each SQL function it
// calls, built as the function was. Changes that do not change what a
// call computes are allowed under it: the volatility marking of a SQL
// function (which changes nothing here: what a view refuses is decided by
// the inlined body), LEAKPROOF, COST, ROWS, PARALLEL, SECURITY INVOKER
// and the owner. A PL/pgSQL function that a materialized view calls must
// stay IMMUTABLE, as the view's creation demanded. STRICT
// and CALLED ON NULL INPUT change what a call of NULL computes, which the
// view's plan holds: refused (0A000) while a materialized view calls the
// function, as CREATE OR REPLACE is. RENAME TO is followed by the
// routine's users (rename_routine_users.go, rename_routine_definers.go).

// alterRoutine runs ALTER FUNCTION | PROCEDURE | AGGREGATE; text is the
// statement's.
func (e *Engine) alterRoutine(s *Session, a *sql.AlterFunction, text string) (Result, error) {
	// A file recreates its routines before its roles: the owner it names
	// exists once the file is open.
	restoring := s != nil && s.restoring
	if a.Owner != "" && a.Owner != SuperuserName && e.roles[a.Owner] == nil && !restoring {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", a.Owner)
	}
	owner := a.Owner
	if owner == "" && s != nil {
		owner = s.userName() // CURRENT_USER and its kin
	}
	if a.Kind == "aggregate" {
		return e.alterAggregate(a, text, owner)
	}
	f, err := e.lookupRoutine(a.Ref, a.Kind == "procedure")
	if err != nil {
		if ag := e.aggregateNamed(a.Ref); ag != nil && pgerr.Code(err) == pgerr.UndefinedFunction {
			if isOwnerOnly(a) { // RENAME TO or OWNER TO, which PostgreSQL allows
				return e.alterAggregate(a, text, owner)
			}
			return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is an aggregate function", ag.Name)
		}
		return Result{}, err
	}
	sig := f.Signature()
	if a.ProcInvalid != nil && f.Procedure {
		return Result{}, a.ProcInvalid
	}
	if a.Invalid != nil {
		return Result{}, a.Invalid
	}
	if a.Move && a.Rename == f.Name {
		return Result{Tag: a.Tag()}, nil // already in the schema
	}
	if a.Rename != "" {
		return e.renameFunction(f, a, text)
	}
	if a.Rows > 0 && !f.Set {
		return Result{}, pgerr.New(pgerr.InvalidParameter, "ROWS is not applicable when function does not return a set")
	}
	if a.Volatility != "" && a.Volatility != "immutable" && f.Language == sql.LangPLpgSQL && isImmutable(f) {
		// A view calls a PL/pgSQL function only if it is immutable.
		if v := e.matViewCalling(sig); v != "" {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot make function %s %s: materialized view %s calls it, which only an immutable PL/pgSQL function may", sig, strings.ToUpper(a.Volatility), v).
				WithHint("drop the view, alter the function, and create the view again")
		}
	}
	g := *f // a binding under way keeps the function it found
	g.Compiled = nil
	if a.Strict != nil {
		g.Strict = *a.Strict
	}
	if a.Volatility != "" {
		g.Volatility = a.Volatility
	}
	if a.Cost > 0 {
		g.Cost = a.Cost
	}
	if a.Rows > 0 {
		g.Rows = a.Rows
	}
	if err := e.alterSecurity(s, f, &g, a, owner); err != nil {
		return Result{}, err
	}
	if fromCurrent := securityText(&g, routineWord(&g), true); slices.ContainsFunc(a.Settings, func(c sql.FuncSetting) bool { return c.FromCurrent }) {
		text += ";\n" + fromCurrent // the values read, which opening the file could not read again
	}
	var callers []string
	var plans map[string]*sql.CreateView
	if g.Strict != f.Strict {
		var err error
		if callers, plans, err = e.strictCallers(f, &g); err != nil { // alter_function_strict.go
			return Result{}, err
		}
	}
	// In its place in the store: the views, defaults and checks that
	// call it, recreated after it when the file is opened, find it.
	if err := e.saveRoutineAt(sig, sig, KindFunction, f.SQL, text, true); err != nil {
		return Result{}, err
	}
	_, i := e.function(sig, f.Name)
	e.funcs[f.Name][i] = &g
	notices, err := e.rebuildStrictCallers(sig, callers, plans)
	return Result{Tag: a.Tag(), Notices: notices}, err
}

// isImmutable reports whether f is marked IMMUTABLE.
func isImmutable(f *sql.Function) bool { return f.Volatility == "immutable" }

// isOwnerOnly reports whether a changes the owner alone.
func isOwnerOnly(a *sql.AlterFunction) bool {
	return a.Strict == nil && a.Leakproof == nil && a.Volatility == "" && a.Cost == 0 && a.Rows == 0 && a.Parallel == "" &&
		a.SecDef == nil && len(a.Settings) == 0
}

// renameFunction runs ALTER FUNCTION | PROCEDURE … RENAME TO.
func (e *Engine) renameFunction(f *sql.Function, a *sql.AlterFunction, text string) (Result, error) {
	sig := f.Signature()
	g := *f
	g.Name, g.Compiled = a.Rename, nil
	newSig := g.Signature()
	if h, _ := e.function(newSig, g.Name); h != nil || e.aggregateBySig(newSig, g.Name) {
		return Result{}, pgerr.New(sql.CodeDuplicateFunction, "function %s already exists in schema \"public\"", newSig)
	}
	defs, err := e.renameDefiners(f, g.Name, newSig)
	if err != nil {
		return Result{}, err
	}
	swap := swapEntry(e.funcs, f, &g, f.Name, g.Name)
	users, err := e.renameUsers(routineRename{sig: sig, newSig: newSig, old: f.Name, new: g.Name,
		swap: func(back bool) { swap(back); defs.swap(e, back) }, both: addEntry(e.funcs, &g, g.Name)})
	if err != nil {
		return Result{}, err
	}
	if err := e.saveRoutineAt(sig, newSig, KindFunction, f.SQL, text, users.any() || defs.any()); err != nil {
		return Result{}, err
	}
	swapEntry(e.funcs, f, &g, f.Name, g.Name)(false)
	if err := defs.apply(e); err != nil {
		return Result{}, err
	}
	notices, err := users.apply(e, "the renamed function "+newSig)
	if err != nil {
		return Result{}, err
	}
	return Result{Tag: a.Tag(), Notices: notices}, e.moveObjectComments(sig, newSig, "routine")
}

// addEntry returns what adds routine to, named new, to the catalog m
// (back: undoes it).
func addEntry[T comparable](m map[string][]T, to T, new string) func(back bool) {
	was := m[new]
	return func(back bool) {
		if back {
			delete(m, new)
			if was != nil {
				m[new] = was
			}
			return
		}
		m[new] = append(slices.Clone(was), to)
	}
}

// swapEntry returns what renames routine from, named old, to routine to,
// named new, in the catalog m (back: undoes it, restoring the lists as
// they were).
func swapEntry[T comparable](m map[string][]T, from, to T, old, new string) func(back bool) {
	was, wasNew := m[old], m[new]
	return func(back bool) {
		if back {
			delete(m, new)
			if wasNew != nil {
				m[new] = wasNew
			}
			m[old] = was
			return
		}
		rest := slices.DeleteFunc(slices.Clone(was), func(x T) bool { return x == from })
		if len(rest) == 0 {
			delete(m, old)
		} else {
			m[old] = rest
		}
		m[new] = append(slices.Clone(m[new]), to)
	}
}

// aggregateBySig reports whether an aggregate has the signature sig.
func (e *Engine) aggregateBySig(sig, name string) bool {
	a, _ := e.aggregate(sig, name)
	return a != nil
}

// alterAggregate runs ALTER AGGREGATE … RENAME TO and OWNER TO; owner is
// the new owner's name.
func (e *Engine) alterAggregate(a *sql.AlterFunction, text, owner string) (Result, error) {
	sig := a.Ref.Key()
	var ag *sql.Aggregate
	if a.Ref.Args == nil {
		ag = e.aggregateNamed(a.Ref)
		if ag == nil {
			return Result{}, pgerr.New(pgerr.UndefinedFunction, "could not find a function named %q", a.Ref.Name)
		}
		if len(e.aggs[a.Ref.Name]) > 1 {
			return Result{}, pgerr.New(sql.CodeAmbiguousFunction, "function name %q is not unique", a.Ref.Name).
				WithHint("Specify the argument list to select the function unambiguously.")
		}
		sig = ag.Signature()
	} else if ag, _ = e.aggregate(sig, a.Ref.Name); ag == nil {
		if f, _ := e.function(sig, a.Ref.Name); f != nil {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "function %s is not an aggregate", a.Ref.ArgsString())
		}
		return Result{}, pgerr.New(pgerr.UndefinedFunction, "aggregate %s does not exist", a.Ref.ArgsString())
	}
	tag := Result{Tag: "ALTER AGGREGATE"}
	if a.Kind == "function" {
		tag.Tag = a.Tag() // ALTER FUNCTION | ROUTINE
	}
	if a.Rename == "" {
		if err := e.saveRoutine(sig, sig, KindAggregate, "", text); err != nil {
			return Result{}, err
		}
		if a.NewOwner || a.Owner != "" {
			e.setAggregateOwner(ag, owner)
		}
		return tag, nil
	}
	b := *ag
	b.Name = a.Rename
	newSig := b.Signature()
	if f, _ := e.function(newSig, b.Name); f != nil || e.aggregateBySig(newSig, b.Name) {
		return Result{}, pgerr.New(sql.CodeDuplicateFunction, "function %s already exists in schema \"public\"", newSig)
	}
	users, err := e.renameUsers(routineRename{sig: sig, newSig: newSig, old: ag.Name, new: b.Name, swap: swapEntry(e.aggs, ag, &b, ag.Name, b.Name),
		both: addEntry(e.aggs, &b, b.Name)})
	if err != nil {
		return Result{}, err
	}
	if err := e.saveRoutineAt(sig, newSig, KindAggregate, "", text, users.any()); err != nil {
		return Result{}, err
	}
	swapEntry(e.aggs, ag, &b, ag.Name, b.Name)(false)
	tag.Notices, err = users.apply(e, "the renamed aggregate "+newSig)
	return tag, err
}

// saveRoutine records an ALTER of the routine of signature sig, which is
// newSig after it: the statements that make it, its CREATE's (created,
// when they are not known yet) and the ALTERs', with this one last,
// stored under newSig.
func (e *Engine) saveRoutine(sig, newSig string, kind RelKind, created, text string) error {
	return e.saveRoutineAt(sig, newSig, kind, created, text, false)
}

// saveRoutineAt is saveRoutine, keeping the routine's place in the
// store's order when inPlace (a renamed routine's users, recreated after
// it when the file is opened, call it by its new name).
func (e *Engine) saveRoutineAt(sig, newSig string, kind RelKind, created, text string, inPlace bool) error {
	stmts, ok := e.routineText[sig]
	if !ok {
		stmts = created
	}
	stmts = strings.TrimRight(strings.TrimSpace(stmts), ";") + ";\n" + strings.TrimSpace(text)
	if moved, ok := e.routineMoved(sig, newSig, stmts); ok {
		stmts = moved
	}
	if e.store != nil && !isTemp(sig) { // a session's temporary routine is never stored
		if !ok && created == "" {
			return pgerr.New(pgerr.FeatureNotSupported, "ALTER of %s %s is not supported in a database file", kind, sig)
		}
		if rr, ok := e.store.(RelationRenamer); ok && inPlace {
			if err := rr.RenameRelation(sig, newSig, stmts); err != nil {
				return err
			}
		} else {
			if err := e.store.Drop([]string{sig}); err != nil {
				return err
			}
			if err := e.store.Create(&StoredRelation{Name: newSig, Kind: kind, SQL: stmts}); err != nil {
				return err
			}
		}
	}
	if e.routineText == nil {
		e.routineText = map[string]string{}
	}
	delete(e.routineText, sig)
	e.routineText[newSig] = stmts
	return nil
}

// recordRoutine records the statement that created the routine of
// signature sig (CREATE FUNCTION, PROCEDURE or AGGREGATE), which its
// ALTERs follow in the store; forgetRoutine forgets it with the routine.
func (e *Engine) recordRoutine(sig, text string) {
	if e.routineText == nil {
		e.routineText = map[string]string{}
	}
	e.routineText[sig] = text
}

func (e *Engine) forgetRoutine(sig string) { delete(e.routineText, sig) }
