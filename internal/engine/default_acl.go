package engine

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Default privileges (ALTER DEFAULT PRIVILEGES) keep, per role, schema
// (none for the role's global entry) and kind of object, the ACL that
// the objects of that kind the role comes to own get when they are
// created, as pg_default_acl keeps them: a global entry is the whole
// ACL, starting from the kind's built-in default (acldefault), a
// schema's entry the privileges added in that schema. An object takes
// the merge of the two; when it equals the built-in default it keeps
// none (NULL), as in PostgreSQL. Items are listed as PostgreSQL sorts
// them by the roles' oids: PUBLIC, the built-in superuser, then the
// others, here by name (PostgreSQL's oids follow the roles' creation).
// An entry is never changed in place (catalog images share it). A store
// keeps each entry as the statements that make it from nothing
// (KindDefaultACL), run again at open after the roles.

// KindDefaultACL is the kind of a default privileges entry in the store.
const KindDefaultACL RelKind = "default privileges"

// defACLKey names an entry of pg_default_acl.
type defACLKey struct {
	role, schema string // schema "" for the role's global entry
	kind         byte   // defaclobjtype: r, S, f, T or n
}

// defACLWords are, per kind, the word of ALTER DEFAULT PRIVILEGES, of
// psql's \ddp and of DROP ROLE's DETAIL.
var defACLWords = map[byte][3]string{
	'r': {"TABLES", "table", "relations"}, 'S': {"SEQUENCES", "sequence", "sequences"},
	'f': {"FUNCTIONS", "function", "functions"}, 'T': {"TYPES", "type", "types"}, 'n': {"SCHEMAS", "schema", "schemas"},
}

// builtinACL is acldefault(kind, owner): what an object of the kind has
// until a GRANT or a default privilege names it.
func builtinACL(kind byte, owner string) map[string]sql.Privilege {
	switch kind {
	case 'r':
		return map[string]sql.Privilege{owner: sql.PrivTableAll}
	case 'S':
		return map[string]sql.Privilege{owner: sql.PrivSelect | sql.PrivUpdate | sql.PrivUsage}
	case 'f':
		return map[string]sql.Privilege{"": sql.PrivExecute, owner: sql.PrivExecute}
	case 'T':
		return map[string]sql.Privilege{"": sql.PrivUsage, owner: sql.PrivUsage}
	}
	return map[string]sql.Privilege{owner: sql.PrivUsage | sql.PrivCreate}
}

// aclOrder lists the grantees of acl as PostgreSQL's aclitemsort orders
// them (see above).
func aclOrder(acl map[string]sql.Privilege) []string {
	return slices.SortedFunc(maps.Keys(acl), func(a, b string) int {
		rank := func(r string) int {
			switch r {
			case "":
				return 0
			case SuperuserName:
				return 1
			}
			return 2
		}
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
}

// defACLLetters are the privileges p of an object of kind as aclitem
// letters.
func defACLLetters(kind byte, p sql.Privilege) string {
	star := func(x sql.Privilege) string {
		if p.Options()&x != 0 {
			return "*"
		}
		return ""
	}
	switch kind {
	case 'f':
		return "X" + star(sql.PrivExecute)
	case 'T':
		return "U" + star(sql.PrivUsage)
	case 'n':
		out := ""
		if p&sql.PrivUsage != 0 {
			out += "U" + star(sql.PrivUsage)
		}
		if p&sql.PrivCreate != 0 {
			out += "C" + star(sql.PrivCreate)
		}
		return out
	}
	return aclLetters(p)
}

// defACLText is an entry's defaclacl, as PostgreSQL prints it.
func defACLText(k defACLKey, acl map[string]sql.Privilege) []string {
	out := make([]string, 0, len(acl))
	for _, r := range aclOrder(acl) {
		out = append(out, aclRole(r)+"="+defACLLetters(k.kind, acl[r])+"/"+aclRole(k.role))
	}
	return out
}

// alterDefaultPrivileges runs ALTER DEFAULT PRIVILEGES.
func (s *Session) alterDefaultPrivileges(a *sql.AlterDefaultPrivileges) (Result, error) {
	e := s.e
	roles := make([]string, len(a.Roles))
	for i, r := range a.Roles {
		if r == "" {
			r = s.userName()
		} else if r != SuperuserName && e.roles[r] == nil {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", r)
		}
		if s.mustBeSuperuser("") != nil && !e.isMemberOf(s.userName(), r) {
			return Result{}, pgerr.New(pgerr.InsufficientPrivilege, "must be member of role %q", r)
		}
		roles[i] = r
	}
	schemas := a.Schemas
	if schemas == nil {
		schemas = []string{""}
	}
	for _, n := range a.Schemas {
		if !e.schemaExists(n) {
			return Result{}, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", n)
		}
	}
	for _, g := range a.Grantees {
		if g != "" && g != SuperuserName && e.roles[g] == nil {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", g)
		}
	}
	if err := checkGrantOption(a.Option, a.Revoke, a.Grantees); err != nil {
		return Result{}, err
	}
	for _, role := range roles {
		for _, sch := range schemas {
			k := defACLKey{role: role, schema: sch, kind: a.ObjType}
			if err := e.changeDefaultACL(k, a); err != nil {
				return Result{}, err
			}
		}
	}
	return Result{Tag: "ALTER DEFAULT PRIVILEGES"}, nil
}

// defACLBase is what entry k starts from: the built-in default for a
// global entry, nothing in a schema.
func defACLBase(k defACLKey) map[string]sql.Privilege {
	if k.schema == "" {
		return builtinACL(k.kind, k.role)
	}
	return map[string]sql.Privilege{}
}

// changeDefaultACL applies a's GRANT or REVOKE to the entry k.
func (e *Engine) changeDefaultACL(k defACLKey, a *sql.AlterDefaultPrivileges) error {
	acl, ok := e.defACLs[k]
	if !ok {
		acl = defACLBase(k)
	}
	next := maps.Clone(acl)
	for _, g := range a.Grantees {
		if a.Revoke {
			if next[g] = withGrant(true, a.Option, next[g], a.Privs); next[g] == 0 {
				delete(next, g)
			}
		} else {
			next[g] = withGrant(false, a.Option, next[g], a.Privs)
		}
	}
	return e.setDefaultACL(k, next)
}

// setDefaultACL makes acl the entry k, in memory and in the store: none
// when it is the entry's base.
func (e *Engine) setDefaultACL(k defACLKey, acl map[string]sql.Privilege) error {
	same := maps.Equal(acl, defACLBase(k))
	if e.store != nil {
		if err := e.store.Drop([]string{defACLStoreName(k)}); err != nil {
			return err
		}
		if !same {
			if err := e.store.Create(&StoredRelation{Name: defACLStoreName(k), Kind: KindDefaultACL, SQL: defACLStatements(k, acl)}); err != nil {
				return err
			}
		}
	}
	next := maps.Clone(e.defACLs)
	if same {
		delete(next, k)
	} else {
		if next == nil {
			next = map[defACLKey]map[string]sql.Privilege{}
		}
		next[k] = acl
	}
	e.defACLs = next
	return nil
}

func defACLStoreName(k defACLKey) string {
	return fmt.Sprintf("default privileges of %s in %s on %c", k.role, k.schema, k.kind)
}

// defACLStatements are the statements that make the entry k, acl, from
// its base.
func defACLStatements(k defACLKey, acl map[string]sql.Privilege) string {
	head := "ALTER DEFAULT PRIVILEGES FOR ROLE " + sql.QuoteIdent(k.role)
	if k.schema != "" {
		head += " IN SCHEMA " + sql.QuoteIdent(k.schema)
	}
	grantee := defACLGrantee
	var out []string
	base := defACLBase(k)
	for _, r := range aclOrder(base) {
		if _, ok := acl[r]; !ok {
			out = append(out, head+" REVOKE ALL ON "+defACLWords[k.kind][0]+" FROM "+grantee(r))
		}
	}
	for _, r := range aclOrder(acl) {
		if acl[r] != base[r] {
			out = append(out, head+" GRANT "+defACLPrivNames(k.kind, acl[r].Plain())+" ON "+defACLWords[k.kind][0]+" TO "+grantee(r))
		}
		if opts := acl[r].Options(); opts != 0 {
			out = append(out, head+" GRANT "+defACLPrivNames(k.kind, opts)+" ON "+defACLWords[k.kind][0]+" TO "+grantee(r)+" WITH GRANT OPTION")
		}
	}
	return strings.Join(out, ";\n")
}

// defACLPrivNames writes the privileges p of kind as GRANT names them.
func defACLPrivNames(kind byte, p sql.Privilege) string {
	switch kind {
	case 'f':
		return "EXECUTE"
	case 'n':
		var names []string
		if p&sql.PrivUsage != 0 {
			names = append(names, "USAGE")
		}
		if p&sql.PrivCreate != 0 {
			names = append(names, "CREATE")
		}
		return strings.Join(names, ", ")
	}
	return p.String()
}

// mergedDefaultACL is the ACL an object of kind that owner creates in
// schema takes, and whether it differs from the built-in default
// (get_user_default_acl).
func (e *Engine) mergedDefaultACL(kind byte, owner, schema string) (map[string]sql.Privilege, bool) {
	glob, okG := e.defACLs[defACLKey{owner, "", kind}]
	sch, okS := e.defACLs[defACLKey{owner, schema, kind}]
	if !okG && !okS {
		return nil, false
	}
	def := builtinACL(kind, owner)
	out := maps.Clone(def)
	if okG {
		out = maps.Clone(glob)
	}
	for r, p := range sch {
		out[r] |= p
	}
	return out, !maps.Equal(out, def)
}

// defACLSnapshot is what exists before a catalog change, for the default
// privileges of what it creates.
type defACLSnapshot struct {
	rels, routines, schemas, types map[string]bool
}

func (e *Engine) takeDefACLSnapshot() defACLSnapshot {
	sn := defACLSnapshot{rels: map[string]bool{}, routines: map[string]bool{}, schemas: map[string]bool{}, types: map[string]bool{}}
	for k := range e.userTypes {
		sn.types[k] = true
	}
	for k := range e.domains.byName {
		sn.types[k] = true
	}
	for _, m := range []func(func(string) bool){maps.Keys(e.tables), maps.Keys(e.views), maps.Keys(e.named), maps.Keys(e.seqs)} {
		for k := range m {
			sn.rels[k] = true
		}
	}
	for _, fs := range e.funcs {
		for _, f := range fs {
			sn.routines[f.Signature()] = true
		}
	}
	for _, as := range e.aggs {
		for _, a := range as {
			sn.routines[a.Signature()] = true // no function's: the two kinds share signatures
		}
	}
	for n := range e.schemas {
		sn.schemas[n] = true
	}
	return sn
}

// applyingDefaultACLs runs fn, a catalog change, and gives what it
// created the default privileges of its owner. Without default
// privileges it costs nothing.
func (s *Session) applyingDefaultACLs(fn func() (Result, error)) func() (Result, error) {
	e := s.e
	if len(e.defACLs) == 0 || s.restoring {
		return fn
	}
	return func() (Result, error) {
		before := e.takeDefACLSnapshot()
		res, err := fn()
		if err != nil {
			return res, err
		}
		return res, e.applyDefaultACLs(before)
	}
}

// applyDefaultACLs gives the objects created since before their default
// privileges.
func (e *Engine) applyDefaultACLs(before defACLSnapshot) error {
	after := e.takeDefACLSnapshot()
	for _, key := range slices.Sorted(maps.Keys(after.rels)) {
		if before.rels[key] {
			continue
		}
		kind, all := byte('r'), sql.PrivTableAll
		if e.seqs[key] != nil {
			kind, all = 'S', sql.PrivSelect|sql.PrivUpdate|sql.PrivUsage
		}
		owner := e.relOwner(key)
		sch, _ := e.splitKey(key)
		acl, differs := e.mergedDefaultACL(kind, owner, sch)
		if !differs {
			continue
		}
		if acl[owner] != all {
			// A global entry took privileges from the owner: its item
			// is explicit (acl_owner.go), in aclitemsort's place.
			var items []aclItem
			for _, r := range aclOrder(acl) {
				items = append(items, aclItem{grantee: r, grantor: owner, privs: acl[r]})
			}
			if err := e.saveACLChanges(e.explicitACLChanges(key, items)); err != nil {
				return err
			}
			continue
		}
		if err := e.setRelItems(key, e.relItems(key), defaultRelItems(acl, owner)); err != nil {
			return err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.funcs)) {
		for _, f := range e.funcs[name] {
			sig := f.Signature()
			if before.routines[sig] || !after.routines[sig] || isTemp(f.Name) {
				continue
			}
			if err := e.applyRoutineDefaultACL(f); err != nil {
				return err
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(e.aggs)) {
		for _, a := range e.aggs[name] {
			if sig := a.Signature(); before.routines[sig] || !after.routines[sig] || isTemp(a.Name) {
				continue
			}
			if err := e.applyAggDefaultACL(a); err != nil {
				return err
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(after.types)) {
		if k := e.userTypes[key].Kind; before.types[key] || isTemp(key) || k.IsArray() || k == value.UserRange || k == value.UserMultirange {
			// A range type takes none here: pg_type does not list it.
			continue
		}
		if err := e.applyTypeDefaultACL(key); err != nil {
			return err
		}
	}
	for _, n := range slices.Sorted(maps.Keys(after.schemas)) {
		if before.schemas[n] {
			continue
		}
		sc := e.schemas[n]
		acl, differs := e.mergedDefaultACL('n', sc.owner, "")
		if !differs {
			continue
		}
		grants := map[string]sql.Privilege{}
		var order []string
		for _, r := range aclOrder(acl) {
			// The owner's place in the order is its item's (acl_lead.go).
			order = append(order, r)
			grants[r] = acl[r]
			if r == sc.owner && acl[r] == schemaPrivs {
				grants[r] = 0
			}
		}
		if acl[sc.owner] != schemaPrivs {
			grants[ownItemMark] = sql.PrivUsage // schema_owner_item.go
		}
		sc.grants, sc.order = grants, order
		if err := e.saveSchema(sc); err != nil {
			return err
		}
	}
	return nil
}

// applyRoutineDefaultACL gives the routine f, just created, its owner's
// default EXECUTE privileges; the store records them as the REVOKE and
// GRANT statements that make them from the built-in default.
func (e *Engine) applyRoutineDefaultACL(f *sql.Function) error {
	owner := routineOwnerName(f)
	sch, _ := e.splitObject(f.Name)
	acl, differs := e.mergedDefaultACL('f', owner, sch)
	if !differs {
		return nil
	}
	return e.setRoutineItems(f, defaultExecItems(acl, owner))
}

// moveSchemaDefaultACLs gives the entries of schema old to schema new,
// renamed (PostgreSQL's follow the schema's oid), or drops them when new
// is "" (DROP SCHEMA drops them with it).
func (e *Engine) moveSchemaDefaultACLs(old, new string) error {
	for _, k := range slices.Collect(maps.Keys(e.defACLs)) {
		if k.schema != old {
			continue
		}
		acl := e.defACLs[k]
		if err := e.setDefaultACL(k, map[string]sql.Privilege{}); err != nil {
			return err
		}
		if new != "" {
			if err := e.setDefaultACL(defACLKey{k.role, new, k.kind}, acl); err != nil {
				return err
			}
		}
	}
	return nil
}

// defACLDependents lists, as DROP ROLE's DETAIL names them, the entries
// in which role holds privileges (held) or that are its own (owned).
func (e *Engine) defACLDependents(role string) (held, owned []string) {
	keys := slices.SortedFunc(maps.Keys(e.defACLs), func(a, b defACLKey) int {
		return cmp.Or(cmp.Compare(a.role, b.role), cmp.Compare(a.schema, b.schema), cmp.Compare(defACLWords[a.kind][2], defACLWords[b.kind][2]))
	})
	for _, k := range keys {
		what := "default privileges on new " + defACLWords[k.kind][2] + " belonging to role " + k.role
		if k.schema != "" {
			what += " in schema " + k.schema
		}
		switch {
		case k.role == role:
			owned = append(owned, "owner of "+what)
		case e.defACLs[k][role] != 0:
			held = append(held, "privileges for "+what)
		}
	}
	return held, owned
}

// dropOwnedDefaultACLs are DROP OWNED's statements for the default
// privileges: each entry of the roles back to its base (which removes
// it), and the roles' privileges revoked from the others'.
func (e *Engine) dropOwnedDefaultACLs(roles []string) []string {
	var out []string
	keys := slices.SortedFunc(maps.Keys(e.defACLs), func(a, b defACLKey) int {
		return cmp.Or(cmp.Compare(a.role, b.role), cmp.Compare(a.schema, b.schema), cmp.Compare(a.kind, b.kind))
	})
	for _, k := range keys {
		head := "ALTER DEFAULT PRIVILEGES FOR ROLE " + sql.QuoteIdent(k.role)
		if k.schema != "" {
			head += " IN SCHEMA " + sql.QuoteIdent(k.schema)
		}
		word := defACLWords[k.kind][0]
		acl, base := e.defACLs[k], defACLBase(k)
		for _, r := range aclOrder(acl) {
			owned := slices.Contains(roles, k.role)
			if (owned || slices.Contains(roles, r)) && !(k.schema == "" && r == k.role) {
				out = append(out, head+" REVOKE ALL ON "+word+" FROM "+defACLGrantee(r))
			}
		}
		if slices.Contains(roles, k.role) {
			for _, r := range aclOrder(base) {
				if _, ok := acl[r]; !ok {
					out = append(out, head+" GRANT ALL ON "+word+" TO "+defACLGrantee(r))
				}
			}
		}
	}
	return out
}

// defACLGrantee writes a grantee as the statements name it.
func defACLGrantee(r string) string {
	if r == "" {
		return "PUBLIC"
	}
	return sql.QuoteIdent(r)
}
