package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The EXECUTE privilege of functions and procedures is kept on the
// routine (sql.Function's ACL): its items, in the order pg_proc.proacl
// lists them (routine_grantor.go), or, until a GRANT or REVOKE names the
// routine, PostgreSQL's default of PUBLIC and the owner. A call is
// checked after the statement binds (authorize), as the session's role:
// the routines a view calls too, as PostgreSQL checks them (a view's
// owner matters for its relations only); the body of a SECURITY DEFINER
// routine runs as the routine's owner, and is checked so. Superusers may call
// any routine; built-in functions are PUBLIC's. Superusers, the owner and
// its members grant as the owner; a role holding the grant option grants
// as itself (routine_grantor.go). The store keeps each GRANT and REVOKE
// as statements after the routine's own (saveRoutine), replayed at open.

// routineACL is the keys of the items of f's EXECUTE.
func routineACL(f *sql.Function) []string {
	return executeACL(f.HasACL, f.ACL, routineOwnerName(f))
}

// executeACL is the keys of the items of EXECUTE on a routine or an
// aggregate of ACL acl (has: one set by GRANT or REVOKE) and owner owner:
// PUBLIC's ("") and the owner's by default.
func executeACL(has bool, acl []string, owner string) []string {
	if has {
		return acl
	}
	return []string{"", owner}
}

// mayExecute reports whether role (a catalog name) holds EXECUTE on f.
func (e *Engine) mayExecute(f *sql.Function, role string) bool {
	return e.holdsExecute(routineACL(f), role)
}

// holdsExecute reports whether role holds EXECUTE by acl, a list of
// executeACL: PUBLIC's, its own, or that of a role whose privileges it
// holds, from any grantor.
func (e *Engine) holdsExecute(acl []string, role string) bool {
	held := e.heldRoles(role)
	for _, k := range acl {
		if r := execGrantee(k); r == "" || slices.Contains(held, r) {
			return true
		}
	}
	return false
}

// routineProACL is pg_proc.proacl of f: NULL for the default, else its
// items.
func routineProACL(f *sql.Function) any {
	return proACL(f.HasACL, f.ACL, f.ACLOptions, routineOwnerName(f))
}

// proACL is pg_proc.proacl of a routine or an aggregate of ACL acl (has:
// one set by GRANT or REVOKE), grant options opts and owner owner.
func proACL(has bool, acl, opts []string, owner string) any {
	if !has {
		return nil
	}
	items := execItems(true, acl, opts, owner)
	out := make([]string, len(items))
	for i, it := range items {
		star := ""
		if it.privs.Options() != 0 {
			star = "*"
		}
		out[i] = aclRole(it.grantee) + "=X" + star + "/" + aclRole(it.grantor)
	}
	return out
}

// errNoExecute is the error of a call of f that the role may not run:
// PostgreSQL's, without a HINT.
func errNoExecute(e *Engine, f *sql.Function, role string) error {
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", routineKind(nil, f.Procedure), e.bareName(f.Name))
}

// executeAllowed returns an error (42501) unless the session's role may
// call f; the caller holds the engine's lock.
func (s *Session) executeAllowed(f *sql.Function) error {
	if s.mustBeSuperuser("") == nil || s.e.mayExecute(f, s.role) {
		return nil
	}
	return errNoExecute(s.e, f, s.role)
}

// authorizeCalls checks EXECUTE on the routines the statement rec bound
// calls, and on proc, the procedure a CALL runs (nil for none).
func (s *Session) authorizeCalls(rec *recorder, proc *sql.Function) error {
	if proc != nil {
		if proc.Generic != nil {
			proc = proc.Generic
		}
		if err := s.executeAllowed(proc); err != nil {
			return err
		}
	}
	for _, f := range rec.calls {
		if err := s.executeAllowed(f); err != nil {
			return err
		}
	}
	for _, a := range rec.aggCalls {
		if err := s.aggExecuteAllowed(a); err != nil {
			return err
		}
	}
	return nil
}

// useRoutine records a call of f, once.
func (r *recorder) useRoutine(f *sql.Function) {
	if f.Generic != nil {
		f = f.Generic
	}
	if !slices.Contains(r.calls, f) {
		r.calls = append(r.calls, f)
	}
}

// grantRoutine runs GRANT and REVOKE EXECUTE on routines.
func (s *Session) grantRoutine(g *sql.GrantRoutine) (Result, error) {
	e := s.e
	tag := "GRANT"
	if g.Revoke {
		tag = "REVOKE"
	}
	var fns []*sql.Function
	var aggs []*sql.Aggregate
	if g.Schemas != nil {
		for _, sc := range g.Schemas {
			if !e.schemaExists(sc) {
				return Result{}, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", sc)
			}
			for _, name := range sortedKeys(e.funcs) {
				if n, _ := e.splitObject(name); n != sc {
					continue
				}
				for _, f := range e.funcs[name] {
					if g.Kind == "routine" || f.Procedure == (g.Kind == "procedure") {
						fns = append(fns, f)
					}
				}
			}
			for _, name := range sortedKeys(e.aggs) {
				// PostgreSQL's ALL FUNCTIONS and ALL ROUTINES take its
				// aggregates too.
				if n, _ := e.splitObject(name); n == sc && g.Kind != "procedure" {
					aggs = append(aggs, e.aggs[name]...)
				}
			}
		}
	}
	for _, ref := range g.Refs {
		f, err := e.routineOfKind(ref, g.Kind)
		if ag := e.aggregateNamed(ref); err != nil && ag != nil && pgerr.Code(err) == pgerr.UndefinedFunction {
			if g.Kind == "procedure" {
				var args []string
				for _, x := range ag.Args {
					args = append(args, x.Type.String())
				}
				return Result{}, pgerr.New(pgerr.WrongObjectType, "%s(%s) is not a procedure", e.bareName(ag.Name), strings.Join(args, ", "))
			}
			aggs = append(aggs, ag) // a function with an ACL (aggregate_acl.go)
			continue
		}
		if err != nil {
			return Result{}, err
		}
		fns = append(fns, f)
	}
	for _, f := range fns {
		if err := s.schemasAllowed([]string{f.Name}); err != nil {
			return Result{}, err
		}
	}
	for _, a := range aggs {
		if err := s.schemasAllowed([]string{a.Name}); err != nil {
			return Result{}, err
		}
	}
	for _, r := range g.Roles {
		if r != "" && r != SuperuserName && e.roles[r] == nil && !s.restoring {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", r)
		}
	}
	if err := checkGrantOption(g.Option, g.Revoke, g.Roles); err != nil {
		return Result{}, err
	}
	res := Result{Tag: tag}
	user := s.userName()
	if s.mustBeSuperuser("") == nil {
		user = SuperuserName
	}
	// Every routine's new items are worked out before any changes, so
	// that an error (42501, 2BP01) leaves them all as they were.
	var mine []*sql.Function
	var nexts [][]aclItem
	for _, f := range fns {
		if slices.Contains(mine, f) {
			continue
		}
		owner := routineOwnerName(f)
		next, w, err := e.execGrantedBy(g, execItems(f.HasACL, f.ACL, f.ACLOptions, owner), owner, e.bareName(f.Name), user, s.restoring)
		if err != nil {
			return Result{}, err
		}
		if w != "" {
			res.warn(w)
		}
		mine, nexts = append(mine, f), append(nexts, next)
	}
	if err := s.grantAggregates(g, aggs, &res, user); err != nil {
		return Result{}, err
	}
	for i, f := range mine {
		if err := e.setRoutineItems(f, nexts[i]); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// setRoutineItems gives f the EXECUTE items next, in memory and in the
// store, which records the change as the statements that make it
// (execChangeText).
func (e *Engine) setRoutineItems(f *sql.Function, next []aclItem) error {
	sig, owner := f.Signature(), routineOwnerName(f)
	old := execItems(f.HasACL, f.ACL, f.ACLOptions, owner)
	if f.HasACL && slices.Equal(old, next) {
		return nil
	}
	if err := e.saveRoutine(sig, sig, KindFunction, f.SQL, execChangeText(routineWord(f), sig, owner, old, next, f.HasACL)); err != nil {
		return err
	}
	g := *f // a binding under way keeps the function it found
	g.HasACL = true
	g.ACL, g.ACLOptions = execKeys(next, owner)
	g.Compiled = nil
	_, i := e.function(sig, f.Name)
	e.funcs[f.Name][i] = &g
	return nil
}

// routineOfKind finds the routine ref names for GRANT … ON kind
// ("function", "procedure" or "routine").
func (e *Engine) routineOfKind(ref sql.FuncRef, kind string) (*sql.Function, error) {
	if kind != "routine" {
		return e.lookupRoutine(ref, kind == "procedure")
	}
	f, err := e.lookupRoutine(ref, false)
	if err == nil {
		return f, nil
	}
	if p, perr := e.lookupRoutine(ref, true); perr == nil {
		return p, nil
	}
	return nil, err
}

// executeGrantees lists, as DROP ROLE's DETAIL does, the routines whose
// EXECUTE items name role, as grantee or grantor.
func (e *Engine) executeGrantees(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[name] {
			if execNamesRole(f.HasACL, f.ACL, routineOwnerName(f), role) {
				out = append(out, "privileges for function "+f.Signature()) // PostgreSQL 15 says function of a procedure too
			}
		}
	}
	return out
}
