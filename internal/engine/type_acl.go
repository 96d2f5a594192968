package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Type privileges (GRANT … ON TYPE | DOMAIN) keep, per user-defined type
// or domain that a GRANT, a REVOKE or a default privilege named, the
// roles holding its one privilege, USAGE, in the order of pg_type.typacl
// ("" for PUBLIC): a type none named has PostgreSQL's default (PUBLIC's
// and its owner's USAGE, typacl NULL). The grantor of every item is the
// type's owner. An array type answers as its element type, as in
// PostgreSQL. A role that is not a superuser needs USAGE on the types of
// the columns it adds or retypes (ALTER TABLE, ALTER TYPE of a composite
// type), 42501 `permission denied for type t`. The ACL follows the
// type's renames and moves and its owner (ALTER TYPE … OWNER TO puts the
// new owner in the old one's items), and goes with DROP. A store keeps it
// as the statements that make it from the default (KindTypeACL), run at
// open after the types' owners. Without grants on types it costs nothing.

// KindTypeACL is the kind of a type's privileges in the store.
const KindTypeACL RelKind = "type privileges"

func typeACLStoreName(name string) string { return "privileges of type " + name }

// typeACL is the type name's ACL: its grantees in order, and whether a
// GRANT or REVOKE named it (otherwise the default's).
func (e *Engine) typeACL(name string) ([]string, bool) {
	if acl, ok := e.typeACLs[name]; ok {
		return acl, true
	}
	return []string{"", e.typeOwner(name)}, false
}

// grantType runs GRANT and REVOKE … ON TYPE | DOMAIN.
func (s *Session) grantType(g *sql.GrantType) (Result, error) {
	e := s.e
	tag := "GRANT"
	if g.Revoke {
		tag = "REVOKE"
	}
	if err := s.schemasAllowed(g.Types); err != nil {
		return Result{}, err
	}
	for _, name := range g.Types {
		if builtin, err := e.checkGrantableType(name, g.Domain); err != nil {
			// A built-in type is the superuser's: another role grants
			// nothing on it, with the warning below, as in PostgreSQL.
			if builtin && s.mustBeSuperuser("") != nil {
				continue
			}
			return Result{}, err
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
	// Every type is checked before any changes, so that an error
	// leaves none changed.
	res := Result{Tag: tag}
	var mine []string
	for _, name := range g.Types {
		if s.mustBeSuperuser("") != nil && !e.hasPrivsOf(s.userName(), e.typeOwner(name)) {
			if !e.typeUsable(s.userName(), name) {
				return Result{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for type %s", e.bareName(name))
			}
			if e.typeOptionHeld(s.userName(), name) {
				return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%s by a role holding a grant option is not supported", tag).
					WithHint("the owner of type %s or a superuser grants and revokes its privileges", e.bareName(name))
			}
			// A role without the grant option grants nothing, with a
			// warning, as in PostgreSQL.
			verb := map[bool]string{false: "were granted", true: "could be revoked"}[g.Revoke]
			res.warn(fmt.Sprintf("no privileges %s for %q", verb, e.bareName(name)))
			continue
		}
		if !slices.Contains(mine, name) {
			mine = append(mine, name)
		}
	}
	for _, name := range mine {
		acl, _ := e.typeACL(name)
		acl = slices.Clone(acl)
		opts := slices.Clone(e.typeOptions[name])
		for _, r := range g.Roles {
			at := slices.Index(acl, r)
			switch {
			case g.Revoke && g.Option:
				opts = slices.DeleteFunc(opts, func(o string) bool { return o == r })
			case g.Revoke && at >= 0:
				acl = slices.Delete(acl, at, at+1)
			case !g.Revoke && at < 0:
				acl = append(acl, r)
			}
			if !g.Revoke && g.Option && !slices.Contains(opts, r) {
				opts = append(opts, r)
			}
		}
		if err := e.setTypeACLWith(name, acl, opts); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// checkGrantableType refuses a GRANT on name unless it is a type or
// domain CREATE made (a domain for ON DOMAIN), with PostgreSQL's errors;
// builtin is true when it refuses a built-in type or a relation's row
// type, on which a role that is no superuser grants nothing.
func (e *Engine) checkGrantableType(name string, domain bool) (builtin bool, err error) {
	if e.userTypeExists(name) {
		if _, isDomain := e.domains.byName[name]; domain && !isDomain {
			return false, pgerr.New(pgerr.WrongObjectType, "%q is not a domain", e.bareName(name))
		}
		return false, nil
	}
	sch, bare := e.splitObject(name)
	if elem, ok := strings.CutPrefix(bare, "_"); ok && e.userTypeExists(typeKeyIn(sch, elem)) {
		return false, pgerr.New("0LP01", "cannot set privileges of array types").WithHint("Set the privileges of the element type instead.")
	}
	if t, err := value.TypeFromName(name, nil); err == nil && t.Kind.IsArray() || builtinArrayName(name) {
		return false, pgerr.New("0LP01", "cannot set privileges of array types").WithHint("Set the privileges of the element type instead.")
	}
	if handled, builtin, err := e.checkGrantablePseudo(name, domain); handled {
		return builtin, err
	}
	_, catalog := catalogColumns["pg_catalog."+name]
	if !e.typeNameTaken(name) && !catalog {
		return false, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
	}
	if domain {
		return false, pgerr.New(pgerr.WrongObjectType, "%q is not a domain", name)
	}
	if builtinTypeNamed(name) != nil {
		return true, nil // the superuser's: its ACL is kept as a user type's
	}
	if _, err := value.TypeFromName(name, nil); err == nil && !catalog {
		// A spelling of the grammar (integer), not a name of pg_type.
		return false, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
	}
	return true, pgerr.New(pgerr.FeatureNotSupported, "privileges on the type %s are not supported", name).
		WithHint("only the types and domains CREATE made take GRANT here; every role may use the built-in ones and relations' row types")
}

// builtinArrayName reports whether name is pg_type's name of a built-in
// array type: its element's with "_" before it.
func builtinArrayName(name string) bool {
	elem, ok := strings.CutPrefix(name, "_")
	if !ok {
		return false
	}
	_, err := value.TypeFromName(elem, nil)
	return err == nil
}

// setTypeACL makes acl the ACL of the type name, in the store and in
// memory; the roles of its grant options that acl keeps keep them.
func (e *Engine) setTypeACL(name string, acl []string) error {
	return e.setTypeACLWith(name, acl, e.typeOptions[name])
}

// setTypeACLWith makes acl the ACL of the type name and opts (those of
// them in acl) the roles holding its grant option, in the store and in
// memory.
func (e *Engine) setTypeACLWith(name string, acl, opts []string) error {
	opts = slices.DeleteFunc(slices.Clone(opts), func(r string) bool { return !slices.Contains(acl, r) })
	if e.store != nil {
		if err := e.store.Drop([]string{typeACLStoreName(name)}); err != nil {
			return err
		}
		if acl != nil {
			if err := e.store.Create(&StoredRelation{Name: typeACLStoreName(name), Kind: KindTypeACL, SQL: typeACLStatements(name, e.typeOwner(name), acl, opts)}); err != nil {
				return err
			}
		}
	}
	e.setTypeOptions(name, opts)
	next := maps.Clone(e.typeACLs)
	if acl == nil {
		delete(next, name)
	} else {
		if next == nil {
			next = map[string][]string{}
		}
		next[name] = acl
	}
	e.typeACLs = next
	return nil
}

// typeACLStatements are the statements that make the ACL acl of the
// type name, owned by owner, from the default.
func typeACLStatements(name, owner string, acl, opts []string) string {
	on := " ON TYPE " + quoteKey(name) + " "
	out := []string{"REVOKE ALL" + on + "FROM PUBLIC", "REVOKE ALL" + on + "FROM " + sql.QuoteIdent(owner)}
	for _, r := range acl {
		stmt := "GRANT USAGE" + on + "TO " + defACLGrantee(r)
		if slices.Contains(opts, r) {
			stmt += " WITH GRANT OPTION"
		}
		out = append(out, stmt)
	}
	return strings.Join(out, ";\n")
}

// typeACLText is pg_type.typacl of the type name: NULL for the default.
func (e *Engine) typeACLText(name string) any {
	acl, ok := e.typeACLs[name]
	if !ok {
		return nil
	}
	owner := aclRole(e.typeOwner(name))
	out := make([]string, len(acl))
	for i, r := range acl {
		out[i] = aclRole(r) + "=U/" + owner
		if slices.Contains(e.typeOptions[name], r) {
			out[i] = aclRole(r) + "=U*/" + owner
		}
	}
	return out
}

// typeUsable reports whether role holds USAGE on the type name: a
// superuser does, another role when the type's ACL gives it to PUBLIC,
// to the role or to a role whose privileges it holds.
func (e *Engine) typeUsable(role, name string) bool {
	if r := e.roles[role]; role == SuperuserName || r != nil && r.superuser {
		return true
	}
	acl, _ := e.typeACL(name)
	if slices.Contains(acl, "") {
		return true
	}
	for _, h := range e.heldRoles(role) {
		if slices.Contains(acl, h) {
			return true
		}
	}
	return false
}

// typeKeyOf is the key of the user type or domain a column of type t
// (domain dom) is of, its element type's for an array, or "" for a
// type without privileges of its own.
func (e *Engine) typeKeyOf(t value.Type, dom domainNamer) string {
	if dom != nil {
		return dom.Name()
	}
	elem := t
	if t.Kind.IsArray() && !t.Kind.IsVector() {
		elem = t.ElemType()
	}
	if elem.UserRange() != nil {
		// A range type and its multirange have no oid here: they are
		// the same type when their kind and descriptor are.
		for _, name := range slices.Sorted(maps.Keys(e.typeACLs)) {
			if u, ok := e.userTypes[name]; ok && u.Kind == elem.Kind && u.UserRange() == elem.UserRange() {
				return name
			}
		}
		return ""
	}
	if key := e.builtinTypeACLKey(elem); key != "" {
		return key
	}
	oid := e.typeOID(elem, nil)
	for _, name := range slices.Sorted(maps.Keys(e.typeACLs)) {
		if u, ok := e.userTypes[name]; ok && u.UserRange() == nil && e.typeOID(u, nil) == oid {
			return name
		}
	}
	return ""
}

// domainNamer is a column's domain, as typeKeyOf needs it.
type domainNamer interface{ Name() string }

// mayUseColumnTypes checks, for a role that is not a superuser, USAGE on
// the types of the columns cols whose types are new (added or retyped):
// 42501 `permission denied for type t`, as PostgreSQL checks them.
func (s *Session) mayUseColumnTypes(cols []sql.ColumnDef, isNew func(i int) bool) error {
	e := s.e
	if len(e.typeACLs) == 0 || s.mustBeSuperuser("") == nil {
		return nil
	}
	for i, c := range cols {
		if !isNew(i) {
			continue
		}
		var dom domainNamer
		if c.Domain != nil {
			dom = c.Domain
			if el := c.Domain.Elem(); el != nil {
				dom = el // an array type's privileges are its element type's
			}
		}
		if key := e.typeKeyOf(c.Type, dom); key != "" && !e.typeUsable(s.userName(), key) {
			return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for type %s", e.typeACLErrorName(key))
		}
	}
	return nil
}

// typeACLNewOwner puts the type name's new owner in the old one's items
// of its ACL, as PostgreSQL's aclnewowner: an item of the new owner
// already there merges into the first.
func (e *Engine) typeACLNewOwner(name, old, owner string) error {
	acl, ok := e.typeACLs[name]
	if !ok {
		return nil
	}
	next := make([]string, 0, len(acl))
	for _, r := range acl {
		if r == old {
			r = owner
		}
		if !slices.Contains(next, r) {
			next = append(next, r)
		}
	}
	return e.setTypeACL(name, next)
}

// typeACLGrantees lists, as DROP ROLE's DETAIL does, the types on which
// role holds USAGE by a GRANT.
func (e *Engine) typeACLGrantees(role string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(e.typeACLs)) {
		if slices.Contains(e.typeACLs[name], role) && e.typeOwner(name) != role {
			out = append(out, "privileges for type "+name)
		}
	}
	return out
}

// dropOwnedTypeACLs are DROP OWNED's statements for the types'
// privileges of roles.
func (e *Engine) dropOwnedTypeACLs(roles []string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(e.typeACLs)) {
		var held []string
		for _, r := range roles {
			if slices.Contains(e.typeACLs[name], r) && e.typeOwner(name) != r {
				held = append(held, sql.QuoteIdent(r))
			}
		}
		if len(held) > 0 {
			out = append(out, "REVOKE ALL ON TYPE "+quoteKey(name)+" FROM "+strings.Join(held, ", "))
		}
	}
	return out
}

// movingTypeACLs runs fn, a catalog change, then keeps the types' ACLs in
// step with the types: a type renamed or moved keeps its ACL, a type
// gone takes its ACL with it.
func (s *Session) movingTypeACLs(fn func() (Result, error)) func() (Result, error) {
	e := s.e
	if len(e.typeACLs) == 0 {
		return fn
	}
	return func() (Result, error) {
		moved := typeMoves(s.stmt, slices.Collect(maps.Keys(e.typeACLs)))
		res, err := fn()
		if err != nil {
			return res, err
		}
		for _, old := range slices.Sorted(maps.Keys(moved)) {
			new := moved[old]
			acl, ok := e.typeACLs[old]
			if !ok || !e.userTypeExists(new) || e.userTypeExists(old) {
				continue
			}
			opts := e.typeOptions[old]
			if err := e.setTypeACL(old, nil); err != nil {
				return res, err
			}
			if err := e.setTypeACLWith(new, acl, opts); err != nil {
				return res, err
			}
		}
		for _, name := range slices.Sorted(maps.Keys(e.typeACLs)) {
			if pseudo, _ := pseudoTypeNamed(name); !e.userTypeExists(name) && builtinTypeNamed(name) == nil && !pseudo {
				if err := e.setTypeACL(name, nil); err != nil {
					return res, err
				}
			}
		}
		return res, nil
	}
}

// mayUseAttrTypes checks USAGE on the types of the attributes that ALTER
// TYPE a adds to a composite type or retypes, as mayUseColumnTypes.
func (s *Session) mayUseAttrTypes(a *sql.AlterComposite) error {
	old := s.e.composites[a.Name]
	if old == nil {
		return nil
	}
	return s.mayUseColumnTypes(a.Attrs, func(i int) bool {
		at := slices.IndexFunc(old.Attrs, func(c sql.ColumnDef) bool { return c.Name == a.Attrs[i].Name })
		return at < 0 || old.Attrs[at].Type != a.Attrs[i].Type || old.Attrs[at].Domain != a.Attrs[i].Domain
	})
}

// applyTypeDefaultACL gives the type or domain name, just created, its
// owner's default privileges on types (ALTER DEFAULT PRIVILEGES … ON
// TYPES), when they differ from the built-in default.
func (e *Engine) applyTypeDefaultACL(name string) error {
	owner := e.typeOwner(name)
	sch, _ := e.splitObject(name)
	acl, differs := e.mergedDefaultACL('T', owner, sch)
	if !differs {
		return nil
	}
	var list, opts []string
	for _, r := range aclOrder(acl) {
		if acl[r]&sql.PrivUsage != 0 {
			list = append(list, r)
		}
		if acl[r].Options()&sql.PrivUsage != 0 {
			opts = append(opts, r)
		}
	}
	if list == nil {
		list = []string{}
	}
	return e.setTypeACLWith(name, list, opts)
}
