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

// Type privileges (GRANT … ON TYPE | DOMAIN) keep, per user-defined type,
// domain or relation row type that a GRANT, a REVOKE or a default
// privilege named, the roles holding its one privilege, USAGE, in the
// order of pg_type.typacl ("" for PUBLIC): a type none named has PostgreSQL's default (PUBLIC's
// and its owner's USAGE, typacl NULL). Items name their grantor
// (type_grantor.go). An array type answers as its element type, as in
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
	return []string{"", e.typeACLOwner(name)}, false
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
	refused := map[string]bool{}
	for _, name := range g.Types {
		if builtin, err := e.checkGrantableType(name, g.Domain); err != nil {
			// A built-in type is the superuser's: another role grants
			// nothing on it, with the warning below, as in PostgreSQL.
			if builtin && s.mustBeSuperuser("") != nil {
				refused[name] = true
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
	// Every type's new items are worked out before any changes, so that
	// an error (42501, 2BP01) leaves them all as they were; a type named
	// twice sees the first's changes, as in PostgreSQL.
	pending := map[string][]aclItem{}
	var changed, warnings []string
	for _, name := range g.Types {
		if refused[name] {
			// A relation's row type another role than a superuser names
			// changes nothing here.
			verb := map[bool]string{false: "were granted", true: "could be revoked"}[g.Revoke]
			warnings = append(warnings, fmt.Sprintf("no privileges %s for %q", verb, e.bareName(name)))
			continue
		}
		items, ok := pending[name]
		if !ok {
			items = e.typeItems(name)
			changed = append(changed, name)
		}
		next, w, err := e.grantTypeBy(g, name, items, s.userName())
		if err != nil {
			return Result{}, err
		}
		if w != "" {
			warnings = append(warnings, w)
		}
		pending[name] = next
	}
	for _, name := range changed {
		if err := e.setTypeItems(name, pending[name]); err != nil {
			return Result{}, err
		}
	}
	return withWarnings(Result{Tag: tag}, warnings), nil
}

// checkGrantableType refuses a GRANT on name unless it is a type or
// domain CREATE made (a domain for ON DOMAIN) or a relation's row type
// (row_type_acl.go), with PostgreSQL's errors; builtin is true when it
// refuses a built-in type or a catalog's row type, on which a role that
// is no superuser grants nothing.
func (e *Engine) checkGrantableType(name string, domain bool) (builtin bool, err error) {
	if e.userTypeExists(name) {
		if _, isDomain := e.domains.byName[name]; domain && !isDomain {
			return false, pgerr.New(pgerr.WrongObjectType, "%q is not a domain", e.bareName(name))
		}
		return false, nil
	}
	if e.seqs[name] != nil && !e.userTypeExists(name) {
		// A sequence has no row type in PostgreSQL 15.
		return false, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
	}
	if e.rowTypeGrantable(name) {
		if domain {
			return false, pgerr.New(pgerr.WrongObjectType, "%q is not a domain", e.bareName(name))
		}
		return false, nil
	}
	sch, bare := e.splitObject(name)
	if elem, ok := strings.CutPrefix(bare, "_"); ok && (e.userTypeExists(typeKeyIn(sch, elem)) || e.rowTypeGrantable(typeKeyIn(sch, elem))) {
		return false, pgerr.New("0LP01", "cannot set privileges of array types").WithHint("Set the privileges of the element type instead.")
	}
	_, catalogArray := catalogRelations["pg_catalog."+strings.TrimPrefix(name, "_")]
	if t, err := value.TypeFromName(name, nil); err == nil && t.Kind.IsArray() || builtinArrayName(name) || catalogArray && strings.HasPrefix(name, "_") {
		return false, pgerr.New("0LP01", "cannot set privileges of array types").WithHint("Set the privileges of the element type instead.")
	}
	if handled, builtin, err := e.checkGrantablePseudo(name, domain); handled {
		return builtin, err
	}
	_, catalog := catalogRelations["pg_catalog."+name]
	if !e.typeNameTaken(name) && !catalog {
		if isTemp(name) {
			// Named pg_temp.x: PostgreSQL's message writes it so.
			name = "pg_temp." + tempLabel(name)
		}
		return false, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
	}
	if domain {
		return false, pgerr.New(pgerr.WrongObjectType, "%q is not a domain", name)
	}
	if builtinTypeNamed(name) != nil || catalog {
		return true, nil // the superuser's: its ACL is kept as a user type's
	}
	if _, err := value.TypeFromName(name, nil); err == nil && !catalog {
		// A spelling of the grammar (integer), not a name of pg_type.
		return false, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
	}
	return true, pgerr.New(pgerr.FeatureNotSupported, "privileges on the type %s are not supported", name).
		WithHint("only the types and domains CREATE made take GRANT here; every role may use the built-in ones and the catalogs' row types")
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
	if e.store != nil && !isTemp(name) {
		if err := e.store.Drop([]string{typeACLStoreName(name)}); err != nil {
			return err
		}
		if acl != nil {
			if err := e.store.Create(&StoredRelation{Name: typeACLStoreName(name), Kind: KindTypeACL, SQL: typeACLStatements(name, e.typeACLOwner(name), acl, opts)}); err != nil {
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
// type name, owned by owner, from the default: an item another role than
// the owner granted names its grantor (GRANTED BY).
func typeACLStatements(name, owner string, acl, opts []string) string {
	on := " ON TYPE " + quoteKey(name) + " "
	out := []string{"REVOKE ALL" + on + "FROM PUBLIC", "REVOKE ALL" + on + "FROM " + sql.QuoteIdent(owner)}
	for _, it := range typeKeyItems(acl, opts, owner) {
		stmt := "GRANT USAGE" + on + "TO " + defACLGrantee(it.grantee)
		if it.privs.Options() != 0 {
			stmt += " WITH GRANT OPTION"
		}
		if it.grantor != owner {
			stmt += " GRANTED BY " + sql.QuoteIdent(it.grantor)
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
	items := typeKeyItems(acl, e.typeOptions[name], e.typeACLOwner(name))
	out := make([]string, len(items))
	for i, it := range items {
		letters := "U"
		if it.privs.Options() != 0 {
			letters = "U*"
		}
		out[i] = aclRole(it.grantee) + "=" + letters + "/" + aclRole(it.grantor)
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
	return e.aclMask(e.typeItems(name), role, e.typeACLOwner(name), sql.PrivUsage) != 0
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
	if d := elem.RecordDesc(); elem.Kind == value.Record && d != nil && d.Name != "" {
		// A relation's or a catalog's row type, whose ACL is kept under
		// the relation's key (a catalog's bare, as pg_class).
		key := strings.TrimPrefix(d.Name, "pg_catalog.")
		if _, ok := e.typeACLs[key]; ok {
			return key
		}
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
// of its ACL, as grantee and grantor, as PostgreSQL's aclnewowner: an
// item then the same as one before it merges into the first. The type is
// already owner's.
func (e *Engine) typeACLNewOwner(name, old, owner string) error {
	acl, ok := e.typeACLs[name]
	if !ok {
		return nil
	}
	return e.setTypeItems(name, aclNewOwner(typeKeyItems(acl, e.typeOptions[name], old), old, owner))
}

// typeACLGrantees lists, as DROP ROLE's DETAIL does, the types on which
// role holds USAGE by a GRANT or granted it.
func (e *Engine) typeACLGrantees(role string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(e.typeACLs)) {
		if slices.Contains(aclRoles(e.typeItems(name), e.typeACLOwner(name)), role) {
			out = append(out, "privileges for type "+name)
		}
	}
	return out
}

// dropOwnedTypeACLs are DROP OWNED's statements for the types'
// privileges of roles, which take with them (CASCADE) what the roles
// granted through their options, as PostgreSQL's RemoveRoleFromObjectACL.
func (e *Engine) dropOwnedTypeACLs(roles []string) []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(e.typeACLs)) {
		named := aclRoles(e.typeItems(name), e.typeACLOwner(name))
		var held []string
		for _, r := range roles {
			if slices.Contains(named, r) {
				held = append(held, sql.QuoteIdent(r))
			}
		}
		if len(held) > 0 {
			out = append(out, "REVOKE ALL ON TYPE "+quoteKey(name)+" FROM "+strings.Join(held, ", ")+" CASCADE")
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
			_, catalog := catalogRelations["pg_catalog."+name]
			if pseudo, _ := pseudoTypeNamed(name); !e.userTypeExists(name) && builtinTypeNamed(name) == nil && !pseudo && !catalog && !e.rowTypeGrantable(name) {
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
