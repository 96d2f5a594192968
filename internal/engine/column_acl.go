package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
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

// colACL is one relation's column privileges: column name → its ACL
// items, one per (grantee, grantor), as acl_items.go keeps a relation's.
type colACL map[string][]aclItem

// held is what role holds on col through the grants to it, to PUBLIC
// and to the roles in held, from every grantor.
func (a colACL) held(col string, held []string) sql.Privilege {
	var p sql.Privilege
	for _, it := range a[col] {
		if it.grantee == "" || slices.Contains(held, it.grantee) {
			p |= it.privs
		}
	}
	return p
}

// heldByAny reports whether role holds a privilege on any column.
func (a colACL) heldByAny(role string) bool {
	for _, items := range a {
		if slices.ContainsFunc(items, func(it aclItem) bool { return it.grantee == role }) {
			return true
		}
	}
	return false
}

// namesRole reports whether role is a grantee or a grantor of an item.
func (a colACL) namesRole(role string) bool {
	for _, items := range a {
		if slices.ContainsFunc(items, func(it aclItem) bool { return it.grantee == role || it.grantor == role }) {
			return true
		}
	}
	return false
}

// grantColumns applies g's column privileges on each of its relations as
// the owner (a superuser's statement), and, for a REVOKE, takes the
// privileges it revokes on the table from every column too.
func (e *Engine) grantColumns(g *sql.Grant) error {
	for _, rel := range g.Relations {
		next, changed, err := e.grantColumnsOf(g, rel, SuperuserName, e.relItems(rel), func(string) {})
		if err != nil {
			return err
		}
		if changed {
			if err := e.setColumnGrants(rel, next); err != nil {
				return err
			}
		}
	}
	return nil
}

// grantColumnsOf is the column part of PostgreSQL's ExecGrant_Relation
// for rel, by user: the columns g names with their privileges and, for a
// REVOKE of privileges columns also have, every column (system columns
// first, but a view's, which has none) with those. Each column changes as
// ExecGrant_Attribute changes it: its grantor is the best one over the
// table's ACL before the statement (relACL) and the column's together,
// what it may give is restricted to the options it holds, with a
// WARNING naming the column, and the column's ACL changes item by item.
// It returns rel's column ACL after g, and whether g changed it.
func (e *Engine) grantColumnsOf(g *sql.Grant, rel, user string, relACL []aclItem, warn func(string)) (colACL, bool, error) {
	old := e.colGrants[rel]
	var order []string
	privs := map[string]sql.Privilege{}
	add := func(col string, p sql.Privilege) {
		if _, ok := privs[col]; !ok {
			order = append(order, col)
		}
		privs[col] |= p
	}
	strip := g.Privs & sql.PrivColumn
	if g.All {
		strip = sql.PrivColumn
	}
	if g.Revoke && strip != 0 {
		if kind, _ := e.kindOf(rel); kind != sql.DropView {
			for _, c := range systemColumnsByNumber {
				add(c, strip)
			}
		}
		if r, ok := e.Relation(rel); ok {
			for _, c := range r.Cols {
				add(c.Name, strip)
			}
		}
		for _, col := range sortedKeys(old) {
			add(col, strip)
		}
	}
	for _, c := range g.Columns {
		add(c.Name, c.Privs)
	}
	if len(order) == 0 {
		return nil, false, nil
	}
	owner := e.relOwner(rel)
	if r, ok := e.Relation(rel); ok {
		// ExecGrant_Relation runs its columns in their number's order.
		num := map[string]int{}
		for i, c := range systemColumnsByNumber {
			num[c] = i - len(systemColumnsByNumber)
		}
		for i, c := range r.Cols {
			num[c.Name] = i + 1
		}
		slices.SortStableFunc(order, func(a, b string) int { return num[a] - num[b] })
	}
	next := colACL{}
	maps.Copy(next, old)
	changed := false
	for _, col := range order {
		p := privs[col]
		items := old[col]
		if g.Grantor != "" && !g.Revoke {
			// A store's statement: the item as it was recorded.
			for _, r := range g.Roles {
				items = withItem(items, r, g.Grantor, applyGrant(g, 0, p))
			}
			next[col], changed = items, true
			continue
		}
		grantor, avail := e.bestGrantor(user, p, append(slices.Clip(relACL), items...), owner)
		p, w, err := e.restrictColumnGrant(g.Revoke, p, col, rel, grantor, avail, owner, relACL, items)
		if err != nil {
			return nil, false, err
		}
		warn(w)
		if slices.Contains(systemColumnsByNumber, col) {
			continue // no grant here names one
		}
		now, err := e.mergeGrant(items, g.Revoke, g.Option, g.Cascade, g.Roles, p, grantor, owner)
		if err != nil {
			return nil, false, err
		}
		if slices.Equal(now, items) {
			continue
		}
		changed = true
		if len(now) == 0 {
			delete(next, col)
		} else {
			next[col] = now
		}
	}
	return next, changed, nil
}

// systemColumnsByNumber are a table's system columns by their attnum,
// lowest first.
var systemColumnsByNumber = []string{"tableoid", "cmax", "xmax", "cmin", "xmin", "ctid"}

// restrictColumnGrant is PostgreSQL's restrict_and_check_grant for column
// col of rel: the privileges of privs grantor may give or take, those it
// holds the grant option of (avail), with a WARNING when that is not all
// of them; a grantor holding no column privilege on the table or the
// column at all gets 42501.
func (e *Engine) restrictColumnGrant(revoke bool, privs sql.Privilege, col, rel, grantor string, avail sql.Privilege, owner string, relACL, items []aclItem) (sql.Privilege, string, error) {
	name := e.bareName(rel)
	whole := sql.PrivColumn | sql.OptionsOf(sql.PrivColumn)
	if avail == 0 && !e.hasPrivsOf(grantor, owner) && e.aclMask(relACL, grantor, owner, whole) == 0 && e.aclMask(items, grantor, owner, whole) == 0 {
		return 0, "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied for column %q of relation %q", col, name)
	}
	this := privs & avail.Options()
	all := privs == sql.PrivColumn
	what := fmt.Sprintf("column %q of relation %q", col, name)
	switch {
	case this == 0 && revoke:
		return 0, "no privileges could be revoked for " + what, nil
	case this == 0:
		return 0, "no privileges were granted for " + what, nil
	case !all && this != privs && revoke:
		return this, "not all privileges could be revoked for " + what, nil
	case !all && this != privs:
		return this, "not all privileges were granted for " + what, nil
	}
	return this, "", nil
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
			if it.grantee != "" {
				to = sql.QuoteIdent(it.grantee)
			}
			// Run again at open, GRANTED BY makes the item the grantor's
			// whoever owns the relation then (a statement of a file
			// written before grantors other than the owner has none: the
			// owner's).
			by := " GRANTED BY " + sql.QuoteIdent(it.grantor)
			// The privileges, then those of them held with the option.
			for i, p := range []sql.Privilege{it.privs.Plain(), it.privs.Options()} {
				if p == 0 {
					continue
				}
				var privs []string
				for _, name := range strings.Split(p.String(), ", ") {
					privs = append(privs, name+" ("+sql.QuoteIdent(col)+")")
				}
				b.WriteString("GRANT " + strings.Join(privs, ", ") + " ON TABLE " + sql.QuoteIdent(key) + " TO " + to + map[int]string{0: "", 1: " WITH GRANT OPTION"}[i] + by + ";\n")
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

// columnsNewOwner rewrites the column ACLs of the relation keyed key for
// its new owner, as PostgreSQL's aclnewowner does to each column's: the
// old owner becomes the new one wherever it is grantee or grantor, and
// items that then share a grantee and a grantor merge into the first.
func (e *Engine) columnsNewOwner(key, newOwner string) error {
	a := e.colGrants[key]
	old := e.relOwner(key)
	if a == nil || old == newOwner {
		return nil
	}
	next := colACL{}
	for col, items := range a {
		next[col] = aclNewOwner(items, old, newOwner)
	}
	return e.setColumnGrants(key, next)
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

// columnPrivilegeGrantees lists, as DROP ROLE's DETAIL names them, the
// columns on which role holds privileges.
func (e *Engine) columnPrivilegeGrantees(role string) []string {
	var out []string
	for _, key := range sortedKeys(e.colGrants) {
		a := e.colGrants[key]
		for _, col := range e.aclColumnOrder(key, a) {
			if slices.ContainsFunc(a[col], func(it aclItem) bool { return it.grantee == role || it.grantor == role }) {
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
	acl := make([]string, 0, len(items))
	for _, it := range items {
		acl = append(acl, aclRole(it.grantee)+"="+aclLetters(it.privs)+"/"+aclRole(it.grantor))
	}
	return acl
}
