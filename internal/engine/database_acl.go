package engine

import (
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

// grantDatabase runs GRANT and REVOKE … ON DATABASE as a superuser.
func (e *Engine) grantDatabase(g *sql.GrantDatabase) (Result, error) {
	return e.grantDatabaseBy(g, SuperuserName)
}

// grantDatabaseBy runs GRANT and REVOKE … ON DATABASE for user, the
// items changing as those of the role user grants as (bestGrantor), as
// PostgreSQL's ExecGrant_Database; a store's statement naming a grantor
// (GRANTED BY) restores that grantor's item.
func (e *Engine) grantDatabaseBy(g *sql.GrantDatabase, user string) (Result, error) {
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
	items := e.databaseItems()
	var warnings []string
	for range g.Databases {
		if g.Grantor != "" && !g.Revoke {
			for _, r := range g.Roles {
				items = withItem(items, r, g.Grantor, applyGrantDB(g, 0))
			}
			continue
		}
		grantor, avail := e.bestGrantor(user, g.Privs, items, SuperuserName)
		privs, w, err := e.restrictObjectGrant(g.Revoke, g.All, g.Privs, sql.PrivDatabase, grantor, avail, SuperuserName, items, "database", DatabaseName)
		if err != nil {
			return Result{}, err
		}
		if w != "" {
			warnings = append(warnings, w)
		}
		if privs == 0 {
			continue
		}
		if items, err = e.mergeGrant(items, g.Revoke, g.Option, g.Cascade, g.Roles, privs, grantor, SuperuserName); err != nil {
			return Result{}, err
		}
	}
	acl, order := databaseFromItems(items)
	if e.store != nil {
		if err := e.store.Drop([]string{databaseACLStoreName}); err != nil {
			return Result{}, err
		}
		if err := e.store.Create(&StoredRelation{Name: databaseACLStoreName, Kind: KindDatabaseACL, SQL: databaseACLStatements(acl, order)}); err != nil {
			return Result{}, err
		}
	}
	e.dbACL, e.dbACLOrder = acl, order
	return withWarnings(Result{Tag: tag}, warnings), nil
}

// applyGrantDB is what a grantee holding held holds after g gives its
// privileges.
func applyGrantDB(g *sql.GrantDatabase, held sql.Privilege) sql.Privilege {
	return withGrant(g.Revoke, g.Option, held, g.Privs)
}

// databaseACLStatements are the statements that make the ACL acl, in
// order, from the default: an item another role than the owner granted
// names its grantor (GRANTED BY).
func databaseACLStatements(acl map[string]sql.Privilege, order []string) string {
	on := " ON DATABASE " + sql.QuoteIdent(DatabaseName) + " "
	out := []string{"REVOKE ALL" + on + "FROM PUBLIC", "REVOKE ALL" + on + "FROM " + sql.QuoteIdent(SuperuserName)}
	for _, k := range order {
		r, grantor := splitItemKey(k, SuperuserName)
		by := ""
		if grantor != SuperuserName {
			by = " GRANTED BY " + sql.QuoteIdent(grantor)
		}
		// The privileges, then those held with their grant option.
		for i, p := range []sql.Privilege{acl[k].Plain(), acl[k].Options()} {
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
				out = append(out, "GRANT "+strings.Join(names, ", ")+on+"TO "+defACLGrantee(r)+map[int]string{0: "", 1: " WITH GRANT OPTION"}[i]+by)
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
	out := make([]string, 0, len(e.dbACLOrder))
	for _, it := range e.databaseItems() {
		p := it.privs
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
		out = append(out, aclRole(it.grantee)+"="+letters+"/"+aclRole(it.grantor))
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
	acl = granteeUnion(acl)
	p := acl[""]
	for _, h := range e.heldRoles(role) {
		p |= acl[h]
	}
	return p
}

// databaseGrantee lists, as DROP ROLE's DETAIL does, the database when
// role holds privileges on it by a GRANT.
func (e *Engine) databaseGrantee(role string) []string {
	if role != SuperuserName && e.dbACL != nil && slices.Contains(aclRoles(e.databaseItems(), SuperuserName), role) {
		return []string{"privileges for database " + DatabaseName}
	}
	return nil
}

// dropOwnedDatabase is DROP OWNED's statement for the database's
// privileges of roles.
func (e *Engine) dropOwnedDatabase(roles []string) []string {
	var held []string
	for _, r := range roles {
		if r != SuperuserName && e.dbACL != nil && slices.Contains(aclRoles(e.databaseItems(), SuperuserName), r) {
			held = append(held, sql.QuoteIdent(r))
		}
	}
	if len(held) == 0 {
		return nil
	}
	return []string{"REVOKE ALL ON DATABASE " + sql.QuoteIdent(DatabaseName) + " FROM " + strings.Join(held, ", ") + " CASCADE"}
}
