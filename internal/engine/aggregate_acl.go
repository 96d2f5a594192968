package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// An aggregate's EXECUTE privilege is kept on the aggregate
// (sql.Aggregate's ACL) as a function's is (routine_acl.go): PostgreSQL's
// default of PUBLIC and the owner until a GRANT or REVOKE … ON FUNCTION |
// ROUTINE names it (or ALL FUNCTIONS | ROUTINES IN SCHEMA takes it), the
// owner the grantor of every item. A call, ad hoc or through a view, is
// checked after the statement binds, as the session's role: 42501
// `permission denied for aggregate a`. The store keeps each GRANT and
// REVOKE as a statement after the aggregate's own, replayed at open.

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
// the aggregates aggs: each the session's role may not grant on gives a
// WARNING (or an error) as a function does; the others' ACLs change.
func (s *Session) grantAggregates(g *sql.GrantRoutine, aggs []*sql.Aggregate, res *Result, tag string) error {
	e := s.e
	var mine []*sql.Aggregate
	for _, a := range aggs {
		if s.mustBeSuperuser("") != nil && !e.hasPrivsOf(s.userName(), aggOwnerName(a)) {
			if !e.mayExecuteAgg(a, s.userName()) {
				return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for function %s", e.bareName(a.Name))
			}
			for _, h := range e.heldRoles(s.userName()) {
				if slices.Contains(a.ACLOptions, h) {
					return pgerr.New(pgerr.FeatureNotSupported, "%s by a role holding a grant option is not supported", tag).
						WithHint("the owner of function %s or a superuser grants and revokes its privileges", e.bareName(a.Name))
				}
			}
			verb := map[bool]string{false: "were granted", true: "could be revoked"}[g.Revoke]
			res.warn(fmt.Sprintf("no privileges %s for %q", verb, e.bareName(a.Name)))
			continue
		}
		if !slices.Contains(mine, a) {
			mine = append(mine, a)
		}
	}
	for _, a := range mine {
		acl, opts := executeGranted(g, aggACL(a), a.ACLOptions)
		if err := e.setAggregateACL(a, acl, opts, grantText(g, "FUNCTION", a.Signature())); err != nil {
			return err
		}
	}
	return nil
}

// setAggregateACL gives a the list acl of the roles holding EXECUTE and
// opts of those holding its grant option, in memory (a copy: a binding
// under way keeps the aggregate it found) and in the store, which
// records it as text, the statement that made it.
func (e *Engine) setAggregateACL(a *sql.Aggregate, acl, opts []string, text string) error {
	sig := a.Signature()
	if err := e.saveRoutine(sig, sig, KindAggregate, "", text); err != nil {
		return err
	}
	b := *a
	b.ACL, b.HasACL = acl, true
	if len(opts) == 0 {
		opts = nil
	}
	b.ACLOptions = opts
	for i, x := range e.aggs[a.Name] {
		if x == a {
			e.aggs[a.Name][i] = &b
		}
	}
	return nil
}

// grantText is the statement a store keeps for g's change of the
// routine sig, a word (FUNCTION, PROCEDURE).
func grantText(g *sql.GrantRoutine, word, sig string) string {
	var b strings.Builder
	verb, prep := "GRANT", "TO"
	switch {
	case g.Revoke && g.Option:
		verb, prep = "REVOKE GRANT OPTION FOR", "FROM"
	case g.Revoke:
		verb, prep = "REVOKE", "FROM"
	}
	fmt.Fprintf(&b, "%s EXECUTE ON %s %s %s ", verb, word, routineSQLName(sig), prep)
	for i, r := range g.Roles {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(defACLGrantee(r))
	}
	if g.Option && !g.Revoke {
		b.WriteString(" WITH GRANT OPTION")
	}
	return b.String()
}

// aggACLText is the statements that give a, made again by CREATE OR
// REPLACE, the ACL it kept: "" for the default.
func aggACLText(a *sql.Aggregate) string {
	if !a.HasACL {
		return ""
	}
	on := " ON FUNCTION " + routineSQLName(a.Signature()) + " "
	out := []string{"REVOKE ALL" + on + "FROM PUBLIC, " + sql.QuoteIdent(aggOwnerName(a))}
	for _, r := range a.ACL {
		stmt := "GRANT EXECUTE" + on + "TO " + defACLGrantee(r)
		if slices.Contains(a.ACLOptions, r) {
			stmt += " WITH GRANT OPTION"
		}
		out = append(out, stmt)
	}
	return strings.Join(out, ";\n")
}

// aggExecuteGrantees lists, as DROP ROLE's DETAIL does, the aggregates
// on which role holds EXECUTE by a GRANT.
func (e *Engine) aggExecuteGrantees(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			if a.HasACL && aggOwnerName(a) != role && slices.Contains(a.ACL, role) {
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
	b := *a
	b.ACL, b.HasACL, b.ACLOptions = []string{}, true, nil
	for _, r := range aclOrder(acl) {
		if acl[r]&sql.PrivExecute != 0 {
			b.ACL = append(b.ACL, r)
		}
		if acl[r].Options() != 0 {
			b.ACLOptions = append(b.ACLOptions, r)
		}
	}
	return e.setAggregateACL(a, b.ACL, b.ACLOptions, aggACLText(&b))
}
