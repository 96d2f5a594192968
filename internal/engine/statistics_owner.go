package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Statistics objects are owned as PostgreSQL 15 owns them: by the role
// that made them (the owner of their table: CREATE STATISTICS needs it),
// which, and whose members, may alter and drop them; ALTER STATISTICS …
// OWNER TO gives them away, REASSIGN OWNED and DROP OWNED take them, and
// a role that owns one cannot be dropped (2BP01). A store keeps the owner
// as the statement that set it, ALTER STATISTICS … OWNER TO (of kind
// KindRelOwner, run again once the roles are back), beside the object's
// own statement (storeStats).

// ownerName is the role that owns st.
func (st *statsObject) ownerName() string {
	if st.owner == "" {
		return SuperuserName
	}
	return st.owner
}

// ownerSQL is the statement that gives st to its owner, "" for the
// built-in superuser's.
func (st *statsObject) ownerSQL() string {
	if st.owner == "" {
		return ""
	}
	return "ALTER STATISTICS " + expr.QuoteIdent(st.name) + " OWNER TO " + expr.QuoteIdent(st.owner)
}

// mayStatistics checks a statement on statistics objects for the
// session's role, no superuser: CREATE needs the table's ownership, the
// others the object's, OWNER TO also the new owner's privileges and
// CREATE for it on the schema, as PostgreSQL 15 checks them. What does
// not exist is let through, for the statement to report.
func (s *Session) mayStatistics(b sql.Bound) error {
	e := s.e
	switch b := b.(type) {
	case *sql.CreateStatistics:
		if err := s.mustOwnRel(b.Table, "table"); err != nil {
			return err
		}
		// Then CREATE on its schema; a schema that is missing is the
		// statement's to report.
		key, err := e.statsCreationKey(s.searchPath(), b.Schema, b.Name)
		if err != nil {
			return nil
		}
		return e.mayCreateAs(s.role, key)
	case *sql.DropStatistics:
		for _, n := range b.Names {
			if err := s.mustOwnStats(s.statsKeyOf(n)); err != nil {
				return err
			}
		}
	case *sql.AlterStatistics:
		key := s.statsKeyOf(sql.StatsName{Schema: b.Schema, Name: b.Name})
		// SET SCHEMA needs CREATE on the schema it moves to, checked
		// before the ownership as PostgreSQL looks the schema up first.
		if key != "" && b.SetSchema != "" && (b.SetSchema == "public" || e.schemaExists(b.SetSchema)) {
			if err := e.mayCreateAs(s.role, schemaKey(b.SetSchema, e.bareName(key))); err != nil {
				return err
			}
		}
		return s.mustOwnStats(key)
	case *sql.AlterStatisticsOwner:
		key := s.statsKeyOf(sql.StatsName{Schema: b.Schema, Name: b.Name})
		st := e.stats[key]
		role := b.Owner
		if role == "" {
			role = s.userName()
		}
		if st == nil || role == st.ownerName() || role != SuperuserName && e.roles[role] == nil {
			return nil
		}
		if err := s.mustOwnStats(key); err != nil {
			return err
		}
		if !e.hasPrivsOf(s.role, role) {
			return pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", role)
		}
		return e.mayCreateAs(role, st.name)
	}
	return nil
}

// mustOwnStats returns 42501 unless the session's role holds the
// privileges of the owner of the statistics object keyed key.
func (s *Session) mustOwnStats(key string) error {
	st := s.e.stats[key]
	if st == nil || slices.Contains(s.e.heldRoles(s.role), st.ownerName()) {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "must be owner of statistics object %s", s.e.bareName(key))
}

// statsKeyOf is the key of the statistics object n names through the
// session's path; a name that finds none is left for the statement to
// report (a key no object has).
func (s *Session) statsKeyOf(n sql.StatsName) string {
	key, found, _ := s.e.statsLookup(s.searchPath(), n)
	if !found {
		return ""
	}
	return key
}

// alterStatisticsOwner runs ALTER STATISTICS … OWNER TO role ("" for the
// session's role).
func (s *Session) alterStatisticsOwner(a *sql.AlterStatisticsOwner) (Result, error) {
	e := s.e
	key, found, err := e.statsLookup(s.searchPath(), sql.StatsName{Schema: a.Schema, Name: a.Name})
	if err != nil {
		return Result{}, err
	}
	if !found {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "statistics object %q does not exist", key)
	}
	st := e.stats[key]
	role := a.Owner
	if role == "" {
		role = s.userName()
	} else if role != SuperuserName && e.roles[role] == nil {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", role)
	}
	next := *st
	next.owner = role
	if role == SuperuserName {
		next.owner = ""
	}
	if next.owner != st.owner {
		if err := e.storeStats(st.name, &next); err != nil {
			return Result{}, err
		}
		e.stats[st.name] = &next
	}
	return Result{Tag: "ALTER STATISTICS"}, nil
}

// statsOwnedBy lists, as DROP ROLE's DETAIL does, the statistics objects
// role owns.
func (e *Engine) statsOwnedBy(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.stats) {
		if e.stats[name].owner == role {
			out = append(out, "owner of statistics object "+name)
		}
	}
	return out
}
