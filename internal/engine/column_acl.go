package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Column privileges. e.colGrants keeps, per relation, the privileges
// GRANT SELECT | INSERT | UPDATE | REFERENCES (cols) gave on each of its
// columns, by column name, each column's grantees in the order of their
// first grant still held, as PostgreSQL keeps pg_attribute.attacl (no
// owner's item: the owner holds them through the table). A colACL is
// never changed in place: a change makes a new one, so the catalog image
// of a transaction block (txddl_image.go) keeps the old by reference. A
// store keeps each relation's as the GRANT statements that make it
// (KindColumnGrants), run again at open after the roles; it follows the
// relation's renames and moves and its columns' renames, and goes with
// the relation or the column.

// KindColumnGrants is the kind of a relation's column privileges in the
// store: GRANT … (cols) ON statements, run after the roles are loaded.
const KindColumnGrants RelKind = "column privileges"

func colGrantsStoreName(key string) string { return "column privileges of " + key }

// colACL is one relation's column privileges: column name → grantees.
type colACL map[string][]colItem

// colItem is what one role (PUBLIC: "") holds on a column.
type colItem struct {
	role  string
	privs sql.Privilege
}

// held is what role holds on col through the grants to it, to PUBLIC
// and to the roles in held.
func (a colACL) held(col string, held []string) sql.Privilege {
	var p sql.Privilege
	for _, it := range a[col] {
		if it.role == "" || slices.Contains(held, it.role) {
			p |= it.privs
		}
	}
	return p
}

// heldByAny reports whether role holds a privilege on any column.
func (a colACL) heldByAny(role string) bool {
	for _, items := range a {
		if slices.ContainsFunc(items, func(it colItem) bool { return it.role == role }) {
			return true
		}
	}
	return false
}

// grantColumns applies g's column privileges and, for a REVOKE, takes
// the privileges it revokes on the table from every column too, as
// PostgreSQL's REVOKE on a table does.
func (e *Engine) grantColumns(g *sql.Grant) error {
	for _, rel := range g.Relations {
		old := e.colGrants[rel]
		if len(g.Columns) == 0 && (len(old) == 0 || !g.Revoke) {
			continue
		}
		next := colACL{}
		for col, items := range old {
			next[col] = items
		}
		change := func(col string, privs sql.Privilege) {
			items := slices.Clone(next[col])
			for _, role := range g.Roles {
				at := slices.IndexFunc(items, func(it colItem) bool { return it.role == role })
				switch {
				case g.Revoke && at >= 0:
					if items[at].privs = applyGrant(g, items[at].privs, privs); items[at].privs == 0 {
						items = slices.Delete(items, at, at+1)
					}
				case !g.Revoke && at >= 0:
					items[at].privs = applyGrant(g, items[at].privs, privs)
				case !g.Revoke:
					items = append(items, colItem{role: role, privs: applyGrant(g, 0, privs)})
				}
			}
			if len(items) == 0 {
				delete(next, col)
			} else {
				next[col] = items
			}
		}
		for _, c := range g.Columns {
			change(c.Name, c.Privs)
		}
		strip := g.Privs & sql.PrivColumn
		if g.All {
			strip = sql.PrivColumn
		}
		if g.Revoke && strip != 0 {
			for _, col := range sortedKeys(old) {
				change(col, strip)
			}
		}
		if err := e.setColumnGrants(rel, next); err != nil {
			return err
		}
	}
	return nil
}

// setColumnGrants makes a the column privileges of the relation keyed
// key, in the store and in memory.
func (e *Engine) setColumnGrants(key string, a colACL) error {
	if len(a) == 0 {
		a = nil
	}
	if e.store != nil && !isTemp(key) {
		if err := e.store.Drop([]string{colGrantsStoreName(key)}); err != nil {
			return err
		}
		if text := e.columnGrantsText(key, a); text != "" {
			if err := e.store.Create(&StoredRelation{Name: colGrantsStoreName(key), Kind: KindColumnGrants, SQL: text}); err != nil {
				return err
			}
		}
	}
	if a == nil {
		if _, ok := e.colGrants[key]; ok {
			m := maps.Clone(e.colGrants)
			delete(m, key)
			e.colGrants = m
		}
		return nil
	}
	if e.colGrants == nil {
		e.colGrants = map[string]colACL{}
	}
	e.colGrants[key] = a
	return nil
}

// columnGrantsText is the GRANT statements that make a on key: a column
// at a time in the table's order, its grantees in theirs.
func (e *Engine) columnGrantsText(key string, a colACL) string {
	var b strings.Builder
	for _, col := range e.aclColumnOrder(key, a) {
		for _, it := range a[col] {
			to := "PUBLIC"
			if it.role != "" {
				to = sql.QuoteIdent(it.role)
			}
			// The privileges, then those of them held with the option.
			for i, p := range []sql.Privilege{it.privs.Plain(), it.privs.Options()} {
				if p == 0 {
					continue
				}
				var privs []string
				for _, name := range strings.Split(p.String(), ", ") {
					privs = append(privs, name+" ("+sql.QuoteIdent(col)+")")
				}
				b.WriteString("GRANT " + strings.Join(privs, ", ") + " ON TABLE " + sql.QuoteIdent(key) + " TO " + to + map[int]string{0: "", 1: " WITH GRANT OPTION"}[i] + ";\n")
			}
		}
	}
	return b.String()
}

// aclColumnOrder lists the columns a names in the relation's order.
func (e *Engine) aclColumnOrder(key string, a colACL) []string {
	var out []string
	if rel, ok := e.Relation(key); ok {
		for _, c := range rel.Cols {
			if _, ok := a[c.Name]; ok {
				out = append(out, c.Name)
			}
		}
	}
	for _, col := range sortedKeys(a) {
		if !slices.Contains(out, col) {
			out = append(out, col)
		}
	}
	return out
}

// alterColumnGrants follows ALTER TABLE: the privileges of a column
// renamed go with its new name, those of a column dropped go, and the
// relation renamed takes them to its new key.
func (e *Engine) alterColumnGrants(t *table, a *sql.AlterTable) error {
	old := e.colGrants[a.Table]
	if old == nil {
		return nil
	}
	next := colACL{}
	for i, j := range a.Map {
		if j < 0 || j >= len(t.def.Cols) {
			continue
		}
		if items, ok := old[t.def.Cols[j].Name]; ok {
			next[a.New.Cols[i].Name] = items
		}
	}
	if a.New.Name != a.Table {
		if err := e.setColumnGrants(a.Table, nil); err != nil {
			return err
		}
	}
	return e.setColumnGrants(a.New.Name, next)
}

// moveColumnGrants gives the column privileges of the relation old to
// its new key.
func (e *Engine) moveColumnGrants(old, new string) error {
	a := e.colGrants[old]
	if a == nil || old == new {
		return nil
	}
	if err := e.setColumnGrants(old, nil); err != nil {
		return err
	}
	return e.setColumnGrants(new, a)
}

// pruneColumnGrants forgets the column privileges of relations that are
// gone and of roles that are gone.
func (e *Engine) pruneColumnGrants() error {
	for _, key := range sortedKeys(e.colGrants) {
		if _, ok := e.kindOf(key); ok {
			continue
		}
		if err := e.setColumnGrants(key, nil); err != nil {
			return err
		}
	}
	return nil
}

// dropColumnGrantees takes every column privilege from the roles gone.
func (e *Engine) dropColumnGrantees(gone []string) error {
	for _, key := range sortedKeys(e.colGrants) {
		if err := e.grantColumns(&sql.Grant{Revoke: true, Privs: sql.PrivColumn, All: true, Relations: []string{key}, Roles: gone}); err != nil {
			return err
		}
	}
	return nil
}

// columnPrivilegeGrantees lists, as DROP ROLE's DETAIL names them, the
// columns on which role holds privileges.
func (e *Engine) columnPrivilegeGrantees(role string) []string {
	var out []string
	for _, key := range sortedKeys(e.colGrants) {
		a := e.colGrants[key]
		for _, col := range e.aclColumnOrder(key, a) {
			if slices.ContainsFunc(a[col], func(it colItem) bool { return it.role == role }) {
				out = append(out, "privileges for column "+expr.QuoteIdent(col)+" of "+e.relWhat(key)+" "+e.detailRelName(key))
			}
		}
	}
	return out
}

// relWhat is the word for the kind of the relation keyed key.
func (e *Engine) relWhat(key string) string {
	kind, _ := e.kindOf(key)
	return map[sql.DropKind]string{sql.DropTable: "table", sql.DropView: "view", sql.DropMatView: "materialized view"}[kind]
}

// columnACL is pg_attribute.attacl of column col of key: NULL when no
// grant names the column, else an item per grantee.
func (e *Engine) columnACL(key, col string) any {
	items := e.colGrants[key][col]
	if len(items) == 0 {
		return nil
	}
	owner := aclRole(e.relOwner(key))
	acl := make([]string, 0, len(items))
	for _, it := range items {
		acl = append(acl, aclRole(it.role)+"="+aclLetters(it.privs)+"/"+owner)
	}
	return acl
}
