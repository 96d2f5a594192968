package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// GRANT and REVOKE on tables, views and sequences, as PostgreSQL's
// ExecGrant_Relation runs them: the statement's grantor is the role the
// user grants as (bestGrantor), what it may give is restricted to the
// grant options that grantor holds (restrictGrant), and the relation's
// ACL changes item by item (mergeGrant), a REVOKE taking with it what the
// grantee granted with the options it loses (2BP01 under RESTRICT).

// grant runs g as a superuser: every item's grantor is the owner.
func (e *Engine) grant(g *sql.Grant) (Result, error) {
	return e.grantBy(g, SuperuserName)
}

// grantBy runs g for user.
func (e *Engine) grantBy(g *sql.Grant, user string) (Result, error) {
	for _, name := range g.Roles {
		if _, ok := e.roles[name]; !ok && name != "" && name != SuperuserName {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", name)
		}
	}
	if err := checkGrantOption(g.Option, g.Revoke, g.Roles); err != nil {
		return Result{}, err
	}
	// The items changed by the statement, written to the store before
	// they change in memory.
	var after []StoredGrant
	var res Result
	warn := func(w string) {
		if w == "" {
			return
		}
		res.warn(w)
	}
	cols := map[string]colACL{} // the column ACLs g changes
	var colOrder []string
	for _, rel := range g.Relations {
		owner := e.relOwner(rel)
		acl := e.relItems(rel)
		if g.Privs != 0 || g.All {
			privs, w, err := e.grantPrivsOn(g, rel)
			if err != nil {
				return Result{}, err
			}
			warn(w)
			if privs == 0 {
				continue // a sequence's privileges none of: PostgreSQL goes no further
			}
			grantor, avail := e.bestGrantor(user, privs, acl, owner)
			privs, w, err = e.restrictGrant(g, rel, privs, grantor, avail, owner, acl)
			if err != nil {
				return Result{}, err
			}
			warn(w)
			if revokesFromOwner(g.Revoke, g.Roles, grantor, owner) && !e.ownItemExplicit(rel) {
				next, err := e.mergeGrant(e.explicitOwnerItems(rel, acl), g.Revoke, g.Option, g.Cascade, g.Roles, privs, grantor, owner)
				if err != nil {
					return Result{}, err
				}
				after = append(after, e.explicitACLChanges(rel, next)...)
			} else {
				next, err := e.mergeGrant(acl, g.Revoke, g.Option, g.Cascade, g.Roles, privs, grantor, owner)
				if err != nil {
					return Result{}, err
				}
				after = append(after, aclChanges(rel, owner, acl, next, g.Roles, grantor)...)
			}
		}
		next, changed, err := e.grantColumnsOf(g, rel, user, acl, warn)
		if err != nil {
			return Result{}, err
		}
		if changed {
			if _, ok := cols[rel]; !ok {
				colOrder = append(colOrder, rel)
			}
			cols[rel] = next
		}
	}
	if err := e.saveACLChanges(after); err != nil {
		return Result{}, err
	}
	for _, rel := range colOrder {
		if err := e.setColumnGrants(rel, cols[rel]); err != nil {
			return Result{}, err
		}
	}
	res.Tag = "GRANT"
	if g.Revoke {
		res.Tag = "REVOKE"
	}
	return res, nil
}

// saveACLChanges writes the relations' items after, in the store and
// then in memory.
func (e *Engine) saveACLChanges(after []StoredGrant) error {
	if e.store != nil {
		// A session's temporary relation's privileges go with it: the
		// store never hears of it.
		kept := slices.DeleteFunc(slices.Clone(after), func(a StoredGrant) bool { return isTemp(a.Relation) })
		if err := e.store.SaveGrants(kept); err != nil {
			return err
		}
	}
	if e.grants == nil {
		e.grants = map[string]map[string]sql.Privilege{}
	}
	for _, a := range after {
		m := e.grants[a.Relation]
		if m == nil {
			m = map[string]sql.Privilege{}
			e.grants[a.Relation] = m
		}
		if a.Privs == 0 {
			delete(m, a.Role)
		} else {
			m[a.Role] = a.Privs
		}
		e.noteGrant(a.Relation, a.Role, a.Privs)
	}
	return nil
}

// aclChanges are the stored items of rel that change from acl to next:
// each item gone or emptied (zero privileges), then each new or changed
// one in next's order, so that one new to the relation goes last. The
// items grantor has on grantees are written even unchanged, which marks
// the relation as named by a GRANT (its relacl is no longer NULL).
func aclChanges(rel, owner string, acl, next []aclItem, grantees []string, grantor string) []StoredGrant {
	var out []StoredGrant
	before := map[string]sql.Privilege{}
	for _, it := range acl {
		before[it.key(owner)] = it.privs
	}
	now := map[string]bool{}
	for _, it := range next {
		now[it.key(owner)] = true
	}
	has := func(items []aclItem, grantee string) bool {
		return slices.ContainsFunc(items, func(it aclItem) bool { return it.grantee == grantee && it.grantor == grantor })
	}
	for _, it := range acl {
		if k := it.key(owner); !now[k] {
			out = append(out, StoredGrant{Relation: rel, Role: k})
		}
	}
	for _, name := range grantees {
		if k := itemKey(name, grantor, owner); !has(next, name) && !has(acl, name) {
			out = append(out, StoredGrant{Relation: rel, Role: k})
		}
	}
	for _, it := range next {
		k := it.key(owner)
		if p, ok := before[k]; !ok || p != it.privs {
			out = append(out, StoredGrant{Relation: rel, Role: k, Privs: it.privs})
		}
	}
	return out
}

// restrictGrant is PostgreSQL's restrict_and_check_grant: the privileges
// of privs grantor may give or take on rel, which are those it holds the
// grant option of, with a WARNING when that is not all of them. A grantor
// holding no option and no privilege at all on rel gets 42501.
func (e *Engine) restrictGrant(g *sql.Grant, rel string, privs sql.Privilege, grantor string, avail sql.Privilege, owner string, acl []aclItem) (sql.Privilege, string, error) {
	name := e.bareName(rel)
	if avail == 0 {
		whole := sql.PrivTableAll | sql.PrivUsage
		if !e.hasPrivsOf(grantor, owner) && e.aclMask(acl, grantor, owner, whole|sql.OptionsOf(whole)) == 0 {
			what := "table"
			if e.seqs[rel] != nil {
				what = "sequence"
			}
			return 0, "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", what, name)
		}
	}
	this := privs & avail.Options()
	switch {
	case this == 0 && g.Revoke:
		return 0, fmt.Sprintf("no privileges could be revoked for %q", name), nil
	case this == 0:
		return 0, fmt.Sprintf("no privileges were granted for %q", name), nil
	case !g.All && this != privs && g.Revoke:
		return this, fmt.Sprintf("not all privileges could be revoked for %q", name), nil
	case !g.All && this != privs:
		return this, fmt.Sprintf("not all privileges were granted for %q", name), nil
	}
	return this, "", nil
}
