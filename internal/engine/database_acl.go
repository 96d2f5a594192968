package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The database's privileges (GRANT … ON DATABASE) keep its ACL: nil
// until a GRANT or REVOKE names it (PostgreSQL's default: PUBLIC's
// CONNECT and TEMPORARY, its owner's every privilege), then every item,
// the owner's too, with its grantees in the order of their grants, as
// PostgreSQL keeps datacl. CONNECT is checked when a role logs in
// (RoleInfo.Connect); CREATE and TEMPORARY gate nothing more than a
// superuser's check does here: only superusers create schemas and
// temporary tables. A store keeps the ACL as the statements that make
// it from nothing (KindDatabaseACL), run again at open after the roles.

// KindDatabaseACL is the kind of the database's privileges in the store.
const KindDatabaseACL RelKind = "database privileges"

const databaseACLStoreName = "privileges of the database"

// databaseACL is the database's ACL and its grantees' order: the
// default until a GRANT or REVOKE names it.
func (e *Engine) databaseACL() (map[string]sql.Privilege, []string) {
	if e.dbACL == nil {
		return defaultDatabaseACL(), []string{"", SuperuserName}
	}
	return e.dbACL, e.dbACLOrder
}

func defaultDatabaseACL() map[string]sql.Privilege {
	return map[string]sql.Privilege{"": sql.PrivConnect | sql.PrivTemp, SuperuserName: sql.PrivDatabase}
}

// grantDatabase runs GRANT and REVOKE … ON DATABASE.
func (e *Engine) grantDatabase(g *sql.GrantDatabase) (Result, error) {
	tag := "GRANT"
	if g.Revoke {
		tag = "REVOKE"
	}
	for _, n := range g.Databases {
		if n != DatabaseName {
			return Result{}, pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", n)
		}
	}
	for _, r := range g.Roles {
		if r != "" && r != SuperuserName && e.roles[r] == nil {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", r)
		}
	}
	if err := checkGrantOption(g.Option, g.Revoke, g.Roles); err != nil {
		return Result{}, err
	}
	acl, order := e.databaseACL()
	acl, order = maps.Clone(acl), slices.Clone(order)
	for _, r := range g.Roles {
		acl[r] = withGrant(g.Revoke, g.Option, acl[r], g.Privs)
		at := slices.Index(order, r)
		switch {
		case acl[r] == 0:
			delete(acl, r)
			if at >= 0 {
				order = slices.Delete(order, at, at+1)
			}
		case at < 0:
			order = append(order, r)
		}
	}
	if e.store != nil {
		if err := e.store.Drop([]string{databaseACLStoreName}); err != nil {
			return Result{}, err
		}
		if err := e.store.Create(&StoredRelation{Name: databaseACLStoreName, Kind: KindDatabaseACL, SQL: databaseACLStatements(acl, order)}); err != nil {
			return Result{}, err
		}
	}
	e.dbACL, e.dbACLOrder = acl, order
	return Result{Tag: tag}, nil
}

// databaseACLStatements are the statements that make the ACL acl, in
// order, from the default.
func databaseACLStatements(acl map[string]sql.Privilege, order []string) string {
	on := " ON DATABASE " + sql.QuoteIdent(DatabaseName) + " "
	out := []string{"REVOKE ALL" + on + "FROM PUBLIC", "REVOKE ALL" + on + "FROM " + sql.QuoteIdent(SuperuserName)}
	for _, r := range order {
		// The privileges, then those held with their grant option.
		for i, p := range []sql.Privilege{acl[r].Plain(), acl[r].Options()} {
			var names []string
			for _, x := range []struct {
				p    sql.Privilege
				name string
			}{{sql.PrivCreate, "CREATE"}, {sql.PrivConnect, "CONNECT"}, {sql.PrivTemp, "TEMPORARY"}} {
				if p&x.p != 0 {
					names = append(names, x.name)
				}
			}
			if len(names) > 0 {
				out = append(out, "GRANT "+strings.Join(names, ", ")+on+"TO "+defACLGrantee(r)+map[int]string{0: "", 1: " WITH GRANT OPTION"}[i])
			}
		}
	}
	return strings.Join(out, ";\n")
}

// databaseACLText is pg_database.datacl: NULL for the default.
func (e *Engine) databaseACLText() any {
	if e.dbACL == nil {
		return nil
	}
	owner := aclRole(SuperuserName)
	out := make([]string, 0, len(e.dbACLOrder))
	for _, r := range e.dbACLOrder {
		p := e.dbACL[r]
		letters := ""
		for _, x := range []struct {
			p sql.Privilege
			c string
		}{{sql.PrivCreate, "C"}, {sql.PrivTemp, "T"}, {sql.PrivConnect, "c"}} {
			if p&x.p != 0 {
				letters += x.c
			}
			if p.Options()&x.p != 0 {
				letters += "*"
			}
		}
		out = append(out, aclRole(r)+"="+letters+"/"+owner)
	}
	return out
}

// mayConnect reports whether role, a superuser or not, may log in to
// the database by the ACL acl (nil for the default): a superuser may,
// another role when it holds CONNECT, itself, through PUBLIC or through
// its roles.
func (e *Engine) mayConnect(role string, superuser bool, acl map[string]sql.Privilege) bool {
	if superuser || role == SuperuserName {
		return true
	}
	if acl == nil {
		acl = defaultDatabaseACL()
	}
	return e.databasePrivs(role, acl)&sql.PrivConnect != 0
}

// databasePrivs is what role holds on the database by acl, itself,
// through PUBLIC or through its roles.
func (e *Engine) databasePrivs(role string, acl map[string]sql.Privilege) sql.Privilege {
	p := acl[""]
	for _, h := range e.heldRoles(role) {
		p |= acl[h]
	}
	return p
}

// databaseGrantee lists, as DROP ROLE's DETAIL does, the database when
// role holds privileges on it by a GRANT.
func (e *Engine) databaseGrantee(role string) []string {
	if e.dbACL[role] != 0 && role != SuperuserName {
		return []string{"privileges for database " + DatabaseName}
	}
	return nil
}

// dropOwnedDatabase is DROP OWNED's statement for the database's
// privileges of roles.
func (e *Engine) dropOwnedDatabase(roles []string) []string {
	var held []string
	for _, r := range roles {
		if e.dbACL[r] != 0 && r != SuperuserName {
			held = append(held, sql.QuoteIdent(r))
		}
	}
	if len(held) == 0 {
		return nil
	}
	return []string{"REVOKE ALL ON DATABASE " + sql.QuoteIdent(DatabaseName) + " FROM " + strings.Join(held, ", ")}
}
