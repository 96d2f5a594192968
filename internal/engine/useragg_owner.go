package engine

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// An aggregate's owner is sql.Aggregate.Owner, as PostgreSQL's
// pg_proc.proowner: the role that creates it (CREATE OR REPLACE keeps the
// former owner), changed by ALTER AGGREGATE … OWNER TO. Its owner, and
// the roles holding the owner's privileges, may replace, alter and drop
// it; another role gets 42501. The store keeps the owner as an ALTER
// AGGREGATE … OWNER TO statement after the CREATE statement, as it keeps
// a function's.

// aggOwnerName is the owner of a as catalogs name it.
func aggOwnerName(a *sql.Aggregate) string {
	if a.Owner == "" {
		return SuperuserName
	}
	return a.Owner
}

// aggOwnerText is the statement a store keeps after a's CREATE statement
// to give it its owner: "" for the built-in superuser.
func aggOwnerText(a *sql.Aggregate) string {
	if a.Owner == "" {
		return ""
	}
	return fmt.Sprintf("ALTER AGGREGATE %s OWNER TO %s", routineSQLName(a.Signature()), sql.QuoteIdent(a.Owner))
}

// aggregateCreator is the owner CREATE [OR REPLACE] AGGREGATE gives a:
// the former aggregate's when it replaces one, else the session's role.
func aggregateCreator(s *Session, old *sql.Aggregate) string {
	switch {
	case old != nil:
		return old.Owner
	case s != nil && s.role != "":
		return s.role
	}
	return ""
}

// mayCreateAggregate checks CREATE [OR REPLACE] AGGREGATE as PostgreSQL
// does for a role that is no superuser: CREATE on the schema, EXECUTE on
// the user-defined functions it names, and the ownership of the
// aggregate it replaces.
func (s *Session) mayCreateAggregate(ca *sql.CreateAggregate) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	e, a := s.e, ca.Agg
	if old, _ := e.aggregate(a.Signature(), a.Name); old != nil && ca.Replace && !e.hasPrivsOf(s.role, aggOwnerName(old)) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of function %s", e.bareName(a.Name))
	}
	if err := s.mayCreateIn(a.Name); err != nil {
		return err
	}
	if f := e.aggregateFunc(a.SFunc, a.TransParams()); f != nil && !e.mayExecute(f, s.role) {
		return errNoExecute(e, f, s.role)
	}
	return nil
}

// aggregateFunc is the user-defined function that names, as CREATE
// AGGREGATE writes it, calls with parameters of params' types: the one
// declared of them exactly, else one of their base types (a domain's
// values are its base type's); nil for a built-in one.
func (e *Engine) aggregateFunc(names []*pg_query.Node, params []sql.FuncParam) *sql.Function {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n.GetString_().GetSval()
	}
	base := make([]value.Type, len(params))
	for i, p := range params {
		base[i] = p.Type
	}
	for _, name := range []string{strings.Join(parts, "."), sql.FuncName(names)} {
		if f, _ := e.function(sql.ParamsSignature(name, params), name); f != nil {
			return f
		}
		if f, _ := e.function(sql.Signature(name, base), name); f != nil {
			return f
		}
	}
	return nil
}

// mayDropAggregates checks DROP AGGREGATE: each aggregate that exists
// must be the session role's (PostgreSQL names it as written here).
func (s *Session) mayDropAggregates(d *sql.DropAggregate) error {
	if s.mustBeSuperuser("") == nil {
		return nil
	}
	e := s.e
	for _, ref := range d.Aggs {
		a, _ := e.aggregate(ref.Key(), ref.Name)
		if a != nil && !e.hasPrivsOf(s.role, aggOwnerName(a)) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of aggregate %s", ref.Name)
		}
	}
	return nil
}

// mayAlterAggregate checks ALTER AGGREGATE (or ALTER FUNCTION of an
// aggregate) a of ag as mayAlterRoutine checks a function's.
func (s *Session) mayAlterAggregate(ag *sql.Aggregate, a *sql.AlterFunction) error {
	e := s.e
	if err := s.mayMoveTo(a); err != nil {
		return err
	}
	if !e.hasPrivsOf(s.role, aggOwnerName(ag)) {
		return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of function %s", e.bareName(ag.Name))
	}
	return s.mayRenameOrGive(ag.Name, a)
}

// setAggregateOwner gives the aggregate ag the owner role, in the
// catalog (a copy: a binding under way keeps the one it found).
func (e *Engine) setAggregateOwner(ag *sql.Aggregate, role string) {
	b := *ag
	b.Owner = role
	if role == SuperuserName && e.roles[role] == nil {
		b.Owner = ""
	}
	if b.HasACL {
		b.ACL, b.ACLOptions = execNewOwner(b.ACL, b.ACLOptions, aggOwnerName(ag), aggOwnerName(&b))
	}
	for i, x := range e.aggs[ag.Name] {
		if x == ag {
			e.aggs[ag.Name][i] = &b
		}
	}
}

// aggregatesOwnedBy lists, as DROP ROLE's DETAIL does, the aggregates
// owned by role (PostgreSQL names each a function).
func (e *Engine) aggregatesOwnedBy(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.aggs) {
		for _, a := range e.aggs[name] {
			if a.Owner == role {
				out = append(out, "owner of function "+a.Signature())
			}
		}
	}
	return out
}
