package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// An aggregate's EXECUTE privilege is kept on the aggregate
// (sql.Aggregate's ACL) as a function's is (routine_acl.go): PostgreSQL's
// default of PUBLIC and the owner until a GRANT or REVOKE … ON FUNCTION |
// ROUTINE names it (or ALL FUNCTIONS | ROUTINES IN SCHEMA takes it), its
// items naming their grantors as a function's (routine_grantor.go). A call, ad hoc or through a view, is
// checked after the statement binds, as the session's role: 42501
// `permission denied for aggregate a`. The store keeps each GRANT and
// REVOKE as statements after the aggregate's own, replayed at open.

// aggACL is the list of the roles that hold EXECUTE on a.
func aggACL(a *sql.Aggregate) []string {
	return executeACL(a.HasACL, a.ACL, aggOwnerName(a))
}

// mayExecuteAgg reports whether role holds EXECUTE on a.
func (e *Engine) mayExecuteAgg(a *sql.Aggregate, role string) bool {
	return e.holdsExecute(aggACL(a), role)
}

// aggProACL is pg_proc.proacl of a: NULL for the default.
func aggProACL(a *sql.Aggregate) any {
	return proACL(a.HasACL, a.ACL, a.ACLOptions, aggOwnerName(a))
}

// aggExecuteAllowed returns an error (42501) unless the session's role
// may call a.
func (s *Session) aggExecuteAllowed(a *sql.Aggregate) error {
	if s.mustBeSuperuser("") == nil || s.e.mayExecuteAgg(a, s.role) {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for aggregate %s", s.e.bareName(a.Name))
}

// useAggregateCall records a call of a, once, for its EXECUTE.
func (r *recorder) useAggregateCall(a *sql.Aggregate) {
	if !slices.Contains(r.aggCalls, a) {
		r.aggCalls = append(r.aggCalls, a)
	}
}

// grantAggregates runs the part of a GRANT or REVOKE EXECUTE that names
// the aggregates aggs, on behalf of user, as a function's
// (execGrantedBy): every aggregate's new items are worked out before any
// changes.
func (s *Session) grantAggregates(g *sql.GrantRoutine, aggs []*sql.Aggregate, res *Result, user string) error {
	e := s.e
	var mine []*sql.Aggregate
	var nexts [][]aclItem
	for _, a := range aggs {
		if slices.Contains(mine, a) {
			continue
		}
		owner := aggOwnerName(a)
		next, w, err := e.execGrantedBy(g, execItems(a.HasACL, a.ACL, a.ACLOptions, owner), owner, e.bareName(a.Name), user, s.restoring)
		if err != nil {
			return err
		}
		if w != "" {
			res.warn(w)
		}
		mine, nexts = append(mine, a), append(nexts, next)
	}
	for i, a := range mine {
		if err := e.setAggregateItems(a, nexts[i]); err != nil {
			return err
		}
	}
	return nil
}

// setAggregateItems gives a the EXECUTE items next, in memory (a copy: a
// binding under way keeps the aggregate it found) and in the store,
// which records the change as the statements that make it.
func (e *Engine) setAggregateItems(a *sql.Aggregate, next []aclItem) error {
	sig, owner := a.Signature(), aggOwnerName(a)
	old := execItems(a.HasACL, a.ACL, a.ACLOptions, owner)
	if a.HasACL && slices.Equal(old, next) {
		return nil
	}
	if err := e.saveRoutine(sig, sig, KindAggregate, "", execChangeText("FUNCTION", sig, owner, old, next, a.HasACL)); err != nil {
		return err
	}
	b := *a
	b.HasACL = true
	b.ACL, b.ACLOptions = execKeys(next, owner)
	for i, x := range e.aggs[a.Name] {
		if x == a {
			e.aggs[a.Name][i] = &b
		}
	}
	return nil
}

// aggACLText is the statements that give a, made again by CREATE OR
// REPLACE, the ACL it kept: "" for the default.
func aggACLText(a *sql.Aggregate) string {
	if !a.HasACL {
		return ""
	}
	owner := aggOwnerName(a)
	return execChangeText("FUNCTION", a.Signature(), owner, execItems(false, nil, nil, owner), execItems(true, a.ACL, a.ACLOptions, owner), false)
}

// aggExecuteGrantees lists, as DROP ROLE's DETAIL does, the aggregates
// whose EXECUTE items name role, as grantee or grantor.
func (e *Engine) aggExecuteGrantees(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			if execNamesRole(a.HasACL, a.ACL, aggOwnerName(a), role) {
				out = append(out, "privileges for function "+a.Signature())
			}
		}
	}
	return out
}

// applyAggDefaultACL gives a, just created, its owner's default
// privileges on functions, when they differ from the built-in default.
func (e *Engine) applyAggDefaultACL(a *sql.Aggregate) error {
	owner := aggOwnerName(a)
	sch, _ := e.splitObject(a.Name)
	acl, differs := e.mergedDefaultACL('f', owner, sch)
	if !differs {
		return nil
	}
	return e.setAggregateItems(a, defaultExecItems(acl, owner))
}
