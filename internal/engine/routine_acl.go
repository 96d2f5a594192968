package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The EXECUTE privilege of functions and procedures is kept on the
// routine (sql.Function's ACL): the roles that hold it, in the order
// pg_proc.proacl lists them, or, until a GRANT or REVOKE names the
// routine, PostgreSQL's default of PUBLIC and the owner. A call is
// checked after the statement binds (authorize), as the session's role:
// the routines a view calls too, as PostgreSQL checks them (a view's
// owner matters for its relations only); the body of a SECURITY DEFINER
// routine runs as the routine's owner, and is checked so. Superusers may call
// any routine; built-in functions are PUBLIC's. Only the owner and
// superusers grant; the grantor is the owner, as PostgreSQL records a
// superuser's grant. The store keeps each GRANT and REVOKE as a
// statement after the routine's own (saveRoutine), replayed at open.

// routineACL is the list of the roles that hold EXECUTE on f.
func routineACL(f *sql.Function) []string {
	return executeACL(f.HasACL, f.ACL, routineOwnerName(f))
}

// executeACL is the list of the roles that hold EXECUTE on a routine or
// an aggregate of ACL acl (has: one set by GRANT or REVOKE) and owner
// owner: PUBLIC ("") and the owner by default.
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
// holds.
func (e *Engine) holdsExecute(acl []string, role string) bool {
	held := e.heldRoles(role)
	for _, r := range acl {
		if r == "" || slices.Contains(held, r) {
			return true
		}
	}
	return false
}

// aclChanged is acl with roles given EXECUTE (appended, as PostgreSQL's
// aclupdate adds a grantee) or, revoke, deprived of it.
func aclChanged(acl []string, roles []string, revoke bool) []string {
	out := slices.Clone(acl)
	if out == nil {
		out = []string{}
	}
	for _, r := range roles {
		i := slices.Index(out, r)
		switch {
		case revoke && i >= 0:
			out = slices.Delete(out, i, i+1)
		case !revoke && i < 0:
			out = append(out, r)
		}
	}
	return out
}

// executeGranted is a routine's or an aggregate's EXECUTE holders acl
// and grant options opts after g.
func executeGranted(g *sql.GrantRoutine, acl, opts []string) ([]string, []string) {
	switch {
	case g.Revoke && g.Option:
		opts = aclChanged(opts, g.Roles, true)
	case g.Revoke:
		acl, opts = aclChanged(acl, g.Roles, true), aclChanged(opts, g.Roles, true)
	case g.Option:
		acl, opts = aclChanged(acl, g.Roles, false), aclChanged(opts, g.Roles, false)
	default:
		acl = aclChanged(acl, g.Roles, false)
	}
	return acl, opts
}

// aclNewOwner is acl of a routine given from owner old to owner new: the
// old owner's item becomes the new owner's, merged with an item the new
// owner held, as PostgreSQL's aclnewowner does.
func aclNewOwner(acl []string, old, new string) []string {
	out := make([]string, 0, len(acl))
	for _, r := range acl {
		if r == old {
			r = new
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// routineProACL is pg_proc.proacl of f: NULL for the default, else an
// aclitem per role, granted by the owner.
func routineProACL(f *sql.Function) any {
	return proACL(f.HasACL, f.ACL, f.ACLOptions, routineOwnerName(f))
}

// proACL is pg_proc.proacl of a routine or an aggregate of ACL acl (has:
// one set by GRANT or REVOKE), grant options opts and owner owner.
func proACL(has bool, acl, opts []string, owner string) any {
	if !has {
		return nil
	}
	o := aclRole(owner)
	out := make([]string, len(acl))
	for i, r := range acl {
		out[i] = aclRole(r) + "=X/" + o
		if slices.Contains(opts, r) {
			out[i] = aclRole(r) + "=X*/" + o
		}
	}
	return out
}

// errNoExecute is the error of a call of f that the role may not run.
func errNoExecute(e *Engine, f *sql.Function, role string) error {
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", routineKind(nil, f.Procedure), e.bareName(f.Name)).
		WithHint("role %q needs EXECUTE on %s %s: its owner or a superuser grants it with GRANT EXECUTE ON %s %s TO %s",
			role, routineKind(nil, f.Procedure), f.Signature(), strings.ToUpper(routineKind(nil, f.Procedure)), f.Signature(), role)
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
	var mine []*sql.Function
	for _, f := range fns {
		if s.mustBeSuperuser("") != nil && !e.hasPrivsOf(s.userName(), routineOwnerName(f)) {
			if !e.mayExecute(f, s.userName()) {
				return Result{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", routineKind(nil, f.Procedure), e.bareName(f.Name))
			}
			// A role holding the grant option grants in PostgreSQL as the
			// grantor of the items it makes, which proacl here, whose
			// every item the owner granted, cannot record.
			for _, h := range e.heldRoles(s.userName()) {
				if slices.Contains(f.ACLOptions, h) {
					return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%s by a role holding a grant option is not supported", tag).
						WithHint("the owner of %s %s or a superuser grants and revokes its privileges", routineKind(nil, f.Procedure), e.bareName(f.Name))
				}
			}
			// A role without the grant option grants nothing, with a
			// warning, as in PostgreSQL.
			verb := "were granted"
			if g.Revoke {
				verb = "could be revoked"
			}
			res.warn(fmt.Sprintf("no privileges %s for %q", verb, e.bareName(f.Name)))
			continue
		}
		if !slices.Contains(mine, f) {
			mine = append(mine, f)
		}
	}
	if err := s.grantAggregates(g, aggs, &res, tag); err != nil {
		return Result{}, err
	}
	for _, f := range mine {
		acl, opts := executeGranted(g, routineACL(f), f.ACLOptions)
		if err := e.setRoutineACL(f, acl, opts, g); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// setRoutineACL gives f the list acl of the roles that hold EXECUTE, in
// memory and in the store, which records it as the GRANT or REVOKE of
// roles that made it.
func (e *Engine) setRoutineACL(f *sql.Function, acl, opts []string, gr *sql.GrantRoutine) error {
	sig := f.Signature()
	var b strings.Builder
	roles := gr.Roles
	verb, prep := "GRANT", "TO"
	switch {
	case gr.Revoke && gr.Option:
		verb, prep = "REVOKE GRANT OPTION FOR", "FROM"
	case gr.Revoke:
		verb, prep = "REVOKE", "FROM"
	}
	fmt.Fprintf(&b, "%s EXECUTE ON %s %s %s ", verb, routineWord(f), routineSQLName(sig), prep)
	for i, r := range roles {
		if i > 0 {
			b.WriteString(", ")
		}
		if r == "" {
			b.WriteString("PUBLIC")
		} else {
			b.WriteString(sql.QuoteIdent(r))
		}
	}
	if gr.Option && !gr.Revoke {
		b.WriteString(" WITH GRANT OPTION")
	}
	if err := e.saveRoutine(sig, sig, KindFunction, f.SQL, b.String()); err != nil {
		return err
	}
	g := *f // a binding under way keeps the function it found
	g.ACL, g.HasACL = acl, true
	if len(opts) == 0 {
		opts = nil
	}
	g.ACLOptions = opts
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

// executeGrantees lists, as DROP ROLE's DETAIL does, the routines on
// which role holds EXECUTE by a GRANT.
func (e *Engine) executeGrantees(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[name] {
			if f.HasACL && routineOwnerName(f) != role && slices.Contains(f.ACL, role) {
				out = append(out, "privileges for function "+f.Signature()) // PostgreSQL 15 says function of a procedure too
			}
		}
	}
	return out
}
