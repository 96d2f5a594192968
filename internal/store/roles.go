package store

import (
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	isql "github.com/deltaview/deltaview/internal/sql"
)

// The roles and privileges of the catalog keep their state in two tables
// of the file: deltaview_roles (a role's attributes and its password's
// SCRAM-SHA-256 verifier, never the password) and deltaview_grants (the
// privileges a role (PUBLIC: an empty name) holds on a relation, as GRANT
// spells them). Each change is a SQLite transaction of its own, like
// CREATE and DROP. A relation's rows keep the order of their first grant
// (their rowids: a grant changed in place keeps its row), which is the
// order of the relation's ACL; PUBLIC's row with no privileges marks a
// relation whose every grant was revoked, whose ACL PostgreSQL keeps
// (the owner's item alone) where one never granted has none.

// SaveRole implements engine.Store.
func (f *File) SaveRole(r engine.StoredRole) error {
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, "INSERT OR REPLACE INTO deltaview_roles (name, login, superuser, verifier) VALUES (?, ?, ?, nullif(?, ''))",
			r.Name, r.Login, r.Superuser, r.Verifier)
		return err
	})
}

// DropRoles implements engine.Store.
func (f *File) DropRoles(names []string) error {
	return f.inTransaction(func() error {
		for _, n := range names {
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_roles WHERE name = ?", n); err != nil {
				return err
			}
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_grants WHERE role = ?", n); err != nil {
				return err
			}
		}
		return nil
	})
}

// SaveGrants implements engine.Store.
func (f *File) SaveGrants(gs []engine.StoredGrant) error {
	return f.inTransaction(func() error {
		for _, g := range gs {
			if g.Privs == 0 {
				if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_grants WHERE relation = ? AND role = ?", g.Relation, g.Role); err != nil {
					return err
				}
				if _, err := f.conn.ExecContext(ctx, "INSERT OR IGNORE INTO deltaview_grants (relation, role, privileges) VALUES (?, '', '')", g.Relation); err != nil {
					return err
				}
				continue
			}
			// A grantee new to the relation (PUBLIC after the mark too)
			// goes last; one granted more keeps its row and place.
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_grants WHERE relation = ? AND role = ? AND privileges = ''", g.Relation, g.Role); err != nil {
				return err
			}
			if _, err := f.conn.ExecContext(ctx, "INSERT INTO deltaview_grants (relation, role, privileges) VALUES (?, ?, ?) ON CONFLICT (relation, role) DO UPDATE SET privileges = excluded.privileges",
				g.Relation, g.Role, formatPrivileges(g.Privs)); err != nil {
				return err
			}
		}
		return nil
	})
}

// Roles reads the stored roles and privileges. A read-only file of
// format 1 has none.
func (f *File) Roles() ([]engine.StoredRole, []engine.StoredGrant, error) {
	if f.version < 2 {
		return nil, nil, nil
	}
	rows, err := f.conn.QueryContext(ctx, "SELECT name, login, superuser, coalesce(verifier, '') FROM deltaview_roles ORDER BY name")
	if err != nil {
		return nil, nil, f.mapErr("read", err)
	}
	var roles []engine.StoredRole
	for rows.Next() {
		var r engine.StoredRole
		if err := rows.Scan(&r.Name, &r.Login, &r.Superuser, &r.Verifier); err != nil {
			rows.Close()
			return nil, nil, f.mapErr("read", err)
		}
		roles = append(roles, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, f.mapErr("read", err)
	}
	rows, err = f.conn.QueryContext(ctx, "SELECT relation, role, privileges FROM deltaview_grants ORDER BY relation, rowid")
	if err != nil {
		return nil, nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var grants []engine.StoredGrant
	for rows.Next() {
		var g engine.StoredGrant
		var privs string
		if err := rows.Scan(&g.Relation, &g.Role, &privs); err != nil {
			return nil, nil, f.mapErr("read", err)
		}
		if privs == "" {
			grants = append(grants, g) // the mark of a relation's ACL emptied
			continue
		}
		if g.Privs, err = parsePrivileges(privs); err != nil {
			return nil, nil, pgerr.New(codeDataCorrupted, "database file %q: privileges of role %q on %q: %v", f.path, g.Role, g.Relation, err)
		}
		if f.version < 12 {
			g.Privs = olderTableGrant(g.Privs) // a read-only older file
		}
		grants = append(grants, g)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, f.mapErr("read", err)
	}
	return roles, grants, nil
}

// storedPrivileges are the privileges a relation's grant may hold.
var storedPrivileges = []isql.Privilege{isql.PrivSelect, isql.PrivInsert, isql.PrivUpdate, isql.PrivDelete, isql.PrivTruncate, isql.PrivReferences, isql.PrivTrigger, isql.PrivUsage}

// formatPrivileges spells p as Privilege.String does, a privilege held
// with its grant option followed by "*".
func formatPrivileges(p isql.Privilege) string {
	var names []string
	for _, x := range storedPrivileges {
		if p&x == 0 {
			continue
		}
		name := x.String()
		if p.Options()&x != 0 {
			name += "*"
		}
		names = append(names, name)
	}
	return strings.Join(names, ", ")
}

// parsePrivileges reads privileges as formatPrivileges spells them.
func parsePrivileges(s string) (isql.Privilege, error) {
	var p isql.Privilege
	for _, name := range strings.Split(s, ", ") {
		bare, option := strings.CutSuffix(name, "*")
		found := false
		for _, x := range storedPrivileges {
			if x.String() == bare {
				p |= x
				if option {
					p |= x.WithOption()
				}
				found = true
			}
		}
		if !found {
			return 0, pgerr.New(codeDataCorrupted, "unknown privilege %q", name)
		}
	}
	return p, nil
}
