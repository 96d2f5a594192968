package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A role's dependents keep no state of their own: they are read from the
// owners and privileges the catalog holds, as PostgreSQL reads
// pg_shdepend, for DROP ROLE to refuse (2BP01) a role that owns
// something, holds privileges or is named by a policy, with a DETAIL
// line per object.

// roleDependents lists, as DROP ROLE's DETAIL names them, the objects
// that depend on role: what it owns, the policies naming it, and the
// objects on which it holds privileges by a GRANT.
func (e *Engine) roleDependents(role string) []string {
	held, owned := e.defACLDependents(role)
	out := append(held, e.ownedBy(role)...)
	out = append(out, e.routinesOwnedBy(role)...)
	out = append(out, e.aggregatesOwnedBy(role)...)
	out = append(out, e.executeGrantees(role)...)
	out = append(out, e.aggExecuteGrantees(role)...)
	out = append(out, e.typesOwnedBy(role)...)
	out = append(out, e.collationsOwnedBy(role)...)
	out = append(out, e.statsOwnedBy(role)...)
	out = append(out, e.schemasOwnedBy(role)...)
	if p := e.policyOfRole(role); p != "" {
		out = append(out, strings.Split(p, "\n")...)
	}
	out = append(out, e.privilegeGrantees(role)...)
	out = append(out, e.columnPrivilegeGrantees(role)...)
	out = append(out, e.databaseGrantee(role)...)
	out = append(out, e.typeACLGrantees(role)...)
	return append(out, owned...)
}

// schemasOwnedBy lists the schemas role owns.
func (e *Engine) schemasOwnedBy(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.schemas) {
		if e.schemas[name].owner == role {
			out = append(out, "owner of schema "+expr.QuoteIdent(name))
		}
	}
	return out
}

// privilegeGrantees lists the relations and schemas on which role holds
// privileges by a GRANT.
func (e *Engine) privilegeGrantees(role string) []string {
	var out []string
	for _, key := range sortedKeys(e.grants) {
		if !slices.Contains(aclRoles(e.relItems(key), e.relOwner(key)), role) {
			continue
		}
		kind, ok := e.kindOf(key)
		if !ok {
			continue
		}
		what := map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}[kind]
		out = append(out, "privileges for "+what+" "+e.detailRelName(key))
	}
	for _, sc := range e.aclSchemas() {
		if sc.namesRole(role) {
			out = append(out, "privileges for schema "+expr.QuoteIdent(sc.name))
		}
	}
	return out
}

// detailRelName is a relation's name as PostgreSQL's object descriptions
// print it: qualified unless its schema is public.
func (e *Engine) detailRelName(key string) string {
	sch, n := e.splitKey(key)
	if sch == "public" || sch == "" {
		return expr.QuoteIdent(n)
	}
	return expr.QuoteIdent(sch) + "." + expr.QuoteIdent(n)
}
