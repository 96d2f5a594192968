package engine

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// REASSIGN OWNED and DROP OWNED keep no state of their own: each is run
// as the catalog statements that do what it does to the objects of the
// roles it names, as they are when it starts — ALTER … OWNER TO of each
// relation (its owned sequences follow it), routine and schema for
// REASSIGN OWNED; for DROP OWNED, DROP of each (views first, then
// tables, sequences, routines, schemas; CASCADE when given) after
// REVOKE of every privilege granted to the roles on relations, schemas
// and routines. Each runs through the session as it would on its own, so the
// store keeps what each changes, and all of them as one unit (asOneBlock):
// one that fails undoes the others.

// execOwned runs REASSIGN OWNED and DROP OWNED; ok is false for another
// statement.
func (s *Session) execOwned(st *sql.Stmt) ([]Result, bool, error) {
	var stmts []string
	var err error
	switch {
	case st.Node.GetReassignOwnedStmt() != nil:
		stmts, err = s.reassignOwnedStmts(st.Node.GetReassignOwnedStmt())
	case st.Node.GetDropOwnedStmt() != nil:
		stmts, err = s.dropOwnedStmts(st.Node.GetDropOwnedStmt())
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	tag := "REASSIGN OWNED"
	if st.Node.GetDropOwnedStmt() != nil {
		tag = "DROP OWNED"
	}
	// The changes run without the checks of the statements that make
	// them, as PostgreSQL's: the role's privileges over the roles were
	// checked (ownedRoles).
	role := s.role
	s.role = ""
	err = s.asOneBlock(stmts)
	s.role = role
	if err != nil {
		return nil, true, err
	}
	return []Result{{Tag: tag}}, true, nil
}

// ownedRoles reads the roles a REASSIGN OWNED or DROP OWNED names: each
// must exist (42704), and the session's role hold the privileges of each
// (42501), as PostgreSQL 15 requires.
func (s *Session) ownedRoles(specs []*pg_query.Node, verb, what string) ([]string, error) {
	var out []string
	for _, n := range specs {
		r := n.GetRoleSpec()
		switch {
		case r == nil:
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_CSTRING:
			if r.Rolename != SuperuserName && s.e.roles[r.Rolename] == nil {
				return nil, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", r.Rolename)
			}
			out = append(out, r.Rolename)
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_PUBLIC:
			return nil, pgerr.New(pgerr.UndefinedObject, "role \"public\" does not exist")
		default:
			out = append(out, s.userName())
		}
	}
	if s.mustBeSuperuser("") != nil {
		for _, r := range out {
			if !s.e.hasPrivsOf(s.role, r) {
				return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to %s objects", verb)
			}
		}
	}
	for _, r := range out {
		if r == SuperuserName && s.e.roles[r] == nil {
			return nil, pgerr.New(pgerr.DependentObjects, "cannot %s objects owned by role %s because they are required by the database system", what, r)
		}
	}
	return out, nil
}

// ownedObjects is what roles own, as the statements' names write it.
type ownedObjects struct {
	views, tables, seqs, routines, schemas []string
	routineWords                           []string // FUNCTION, PROCEDURE or AGGREGATE, per routine
	matviews                               []string
	// domains and types are the domains and the other types CREATE
	// TYPE made (enum, composite, range) ALTER … OWNER TO gave them.
	domains, types []string
	stats          []string // statistics objects
}

// ownedBy collects what the roles own; the caller holds the engine's lock.
func (e *Engine) ownedObjectsOf(roles []string) ownedObjects {
	var o ownedObjects
	has := func(r string) bool {
		for _, x := range roles {
			if x == r {
				return true
			}
		}
		return false
	}
	for _, key := range sortedKeys(e.owners) {
		if !has(e.owners[key]) || isTemp(key) {
			continue
		}
		name := e.qualifiedName(key)
		if k, ok := e.kindOf(key); ok {
			switch k {
			case sql.DropView:
				o.views = append(o.views, name)
			case sql.DropMatView:
				o.matviews = append(o.matviews, name)
			default:
				o.tables = append(o.tables, name)
			}
		} else if q := e.seqs[key]; q != nil && q.owner[0] == "" {
			o.seqs = append(o.seqs, name)
		}
	}
	// Aggregates before functions: an aggregate uses its functions.
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			if a.Owner != "" && has(a.Owner) && !isTemp(a.Name) {
				o.routines = append(o.routines, routineSQLName(a.Signature()))
				o.routineWords = append(o.routineWords, "AGGREGATE")
			}
		}
	}
	for _, name := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[name] {
			if f.Owner != "" && has(f.Owner) && !isTemp(f.Name) {
				o.routines = append(o.routines, routineSQLName(f.Signature()))
				o.routineWords = append(o.routineWords, routineWord(f))
			}
		}
	}
	for _, n := range sortedKeys(e.schemas) {
		if has(e.schemas[n].owner) {
			o.schemas = append(o.schemas, sql.QuoteIdent(n))
		}
	}
	for _, n := range sortedKeys(e.stats) {
		if st := e.stats[n]; st.owner != "" && has(st.owner) {
			o.stats = append(o.stats, e.statsQualified(n))
		}
	}
	for _, n := range sortedKeys(e.typeOwners) {
		if !has(e.typeOwners[n]) || !e.userTypeExists(n) || isTemp(n) {
			continue
		}
		if _, dom := e.domains.byName[n]; dom {
			o.domains = append(o.domains, e.qualifiedName(n))
		} else {
			o.types = append(o.types, e.qualifiedName(n))
		}
	}
	return o
}

// qualifiedName writes the relation keyed key as a statement names it.
func (e *Engine) qualifiedName(key string) string {
	sc, n := e.splitKey(key)
	return sql.QuoteIdent(sc) + "." + sql.QuoteIdent(n)
}

// reassignOwnedStmts are the statements of REASSIGN OWNED BY … TO role.
func (s *Session) reassignOwnedStmts(r *pg_query.ReassignOwnedStmt) ([]string, error) {
	s.e.mu.RLock()
	defer s.e.mu.RUnlock()
	roles, err := s.ownedRoles(r.Roles, "reassign", "reassign ownership of")
	if err != nil {
		return nil, err
	}
	to := s.userName()
	if nr := r.Newrole; nr != nil && nr.Roletype == pg_query.RoleSpecType_ROLESPEC_CSTRING {
		to = nr.Rolename
		if to != SuperuserName && s.e.roles[to] == nil {
			return nil, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", to)
		}
	}
	if s.mustBeSuperuser("") != nil && !s.e.hasPrivsOf(s.role, to) {
		return nil, pgerr.New(pgerr.InsufficientPrivilege, "permission denied to reassign objects")
	}
	o := s.e.ownedObjectsOf(roles)
	q := sql.QuoteIdent(to)
	var out []string
	for _, n := range o.tables {
		out = append(out, "ALTER TABLE "+n+" OWNER TO "+q)
	}
	for _, n := range o.stats {
		out = append(out, "ALTER STATISTICS "+n+" OWNER TO "+q)
	}
	for _, n := range o.views {
		out = append(out, "ALTER VIEW "+n+" OWNER TO "+q)
	}
	for _, n := range o.matviews {
		out = append(out, "ALTER MATERIALIZED VIEW "+n+" OWNER TO "+q)
	}
	for _, n := range o.seqs {
		out = append(out, "ALTER SEQUENCE "+n+" OWNER TO "+q)
	}
	for i, n := range o.routines {
		out = append(out, "ALTER "+o.routineWords[i]+" "+n+" OWNER TO "+q)
	}
	for _, n := range o.domains {
		out = append(out, "ALTER DOMAIN "+n+" OWNER TO "+q)
	}
	for _, n := range o.types {
		out = append(out, "ALTER TYPE "+n+" OWNER TO "+q)
	}
	for _, n := range s.e.collationNamesOwnedBy(roles) {
		out = append(out, "ALTER COLLATION "+n+" OWNER TO "+q)
	}
	for _, n := range o.schemas {
		out = append(out, "ALTER SCHEMA "+n+" OWNER TO "+q)
	}
	return out, nil
}

// dropOwnedStmts are the statements of DROP OWNED BY … [CASCADE].
func (s *Session) dropOwnedStmts(d *pg_query.DropOwnedStmt) ([]string, error) {
	e := s.e
	e.mu.RLock()
	defer e.mu.RUnlock()
	roles, err := s.ownedRoles(d.Roles, "drop", "drop")
	if err != nil {
		return nil, err
	}
	cascade := ""
	if d.Behavior == pg_query.DropBehavior_DROP_CASCADE {
		cascade = " CASCADE"
	}
	var out []string
	grantees := make([]string, len(roles))
	for i, r := range roles {
		grantees[i] = sql.QuoteIdent(r)
	}
	to := strings.Join(grantees, ", ")
	for _, rel := range sortedKeys(e.grants) {
		for _, r := range roles {
			if e.grants[rel][r] != 0 && !isTemp(rel) {
				// CASCADE: what the roles granted with their options goes
				// too, as PostgreSQL's RemoveRoleFromObjectACL takes it.
				out = append(out, fmt.Sprintf("REVOKE ALL ON TABLE %s FROM %s CASCADE", e.qualifiedName(rel), to))
				break
			}
		}
	}
	for _, rel := range sortedKeys(e.colGrants) {
		if e.grants[rel] != nil && slices.ContainsFunc(roles, func(r string) bool { return e.grants[rel][r] != 0 }) {
			continue // REVOKE ALL ON TABLE above takes its columns' too
		}
		for _, r := range roles {
			if e.colGrants[rel].heldByAny(r) && !isTemp(rel) {
				// CASCADE: what the roles granted on the columns goes too.
				out = append(out, fmt.Sprintf("REVOKE ALL ON TABLE %s FROM %s CASCADE", e.qualifiedName(rel), to))
				break
			}
		}
	}
	for _, sc := range e.aclSchemas() {
		for _, r := range roles {
			if sc.namesRole(r) {
				out = append(out, fmt.Sprintf("REVOKE ALL ON SCHEMA %s FROM %s CASCADE", sql.QuoteIdent(sc.name), to))
				break
			}
		}
	}
	for _, name := range sortedKeys(e.funcs) {
		for _, f := range e.funcs[name] {
			for _, r := range roles {
				if f.HasACL && routineOwnerName(f) != r && containsRole(f.ACL, r) {
					// CASCADE: what the roles granted with their options
					// goes too, as PostgreSQL's RemoveRoleFromObjectACL.
					out = append(out, fmt.Sprintf("REVOKE ALL ON %s %s FROM %s CASCADE", routineWord(f), routineSQLName(f.Signature()), to))
					break
				}
			}
		}
	}
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			if a.HasACL && slices.ContainsFunc(roles, func(r string) bool { return aggOwnerName(a) != r && containsRole(a.ACL, r) }) {
				out = append(out, fmt.Sprintf("REVOKE ALL ON FUNCTION %s FROM %s CASCADE", routineSQLName(a.Signature()), to))
			}
		}
	}
	out = append(out, e.dropOwnedDefaultACLs(roles)...)
	out = append(out, e.dropOwnedDatabase(roles)...)
	out = append(out, e.dropOwnedTypeACLs(roles)...)
	o := e.ownedObjectsOf(roles)
	for _, n := range o.stats {
		out = append(out, "DROP STATISTICS IF EXISTS "+n)
	}
	for _, n := range o.matviews {
		out = append(out, "DROP MATERIALIZED VIEW IF EXISTS "+n+cascade)
	}
	for _, n := range o.views {
		out = append(out, "DROP VIEW IF EXISTS "+n+cascade)
	}
	for _, n := range o.tables {
		out = append(out, "DROP TABLE IF EXISTS "+n+cascade)
	}
	for _, n := range o.seqs {
		out = append(out, "DROP SEQUENCE IF EXISTS "+n+cascade)
	}
	for i, n := range o.routines {
		out = append(out, "DROP "+o.routineWords[i]+" IF EXISTS "+n+cascade)
	}
	for _, n := range o.domains {
		out = append(out, "DROP DOMAIN IF EXISTS "+n+cascade)
	}
	for _, n := range o.types {
		out = append(out, "DROP TYPE IF EXISTS "+n+cascade)
	}
	for _, n := range e.collationNamesOwnedBy(roles) {
		out = append(out, "DROP COLLATION IF EXISTS "+n+cascade)
	}
	for _, n := range o.schemas {
		out = append(out, "DROP SCHEMA IF EXISTS "+n+cascade)
	}
	return out, nil
}

func containsRole(list []string, r string) bool {
	for _, x := range list {
		if x == r {
			return true
		}
	}
	return false
}
