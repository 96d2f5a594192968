package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Type owners. A user-defined type or domain is owned by the superuser
// that made it until ALTER TYPE | DOMAIN … OWNER TO gives it to a role:
// e.typeOwners maps the type's name to that role. pg_type.typowner shows
// it (its array type's too), a role that owns a type cannot be dropped
// (2BP01), it follows the type's renames and moves (ALTER TYPE | DOMAIN
// … RENAME TO | SET SCHEMA, ALTER SCHEMA … RENAME TO); a type dropped goes
// back to no owner but the superuser (pruningTypeOwners). A store keeps the owner as the statement that set it
// (KindTypeOwner), run again at open after the roles.

// KindTypeOwner is the kind of a type's owner in the store: an ALTER
// TYPE … OWNER TO statement, run after the roles are loaded.
const KindTypeOwner RelKind = "type owner"

func typeOwnerStoreName(name string) string { return "owner of type " + name }

// userTypeExists reports whether name is a type or domain CREATE made.
func (e *Engine) userTypeExists(name string) bool {
	_, typ := e.userTypes[name]
	_, dom := e.domains.byName[name]
	return typ || dom
}

// alterTypeOwner runs ALTER TYPE | DOMAIN … OWNER TO.
func (s *Session) alterTypeOwner(a *sql.AlterTypeOwner) (Result, error) {
	e := s.e
	tag := "ALTER TYPE"
	if a.Domain {
		tag = "ALTER DOMAIN"
	}
	_, isDomain := e.domains.byName[a.Name]
	if !e.userTypeExists(a.Name) {
		if !e.typeNameTaken(a.Name) {
			return Result{}, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", a.Name)
		}
		if _, rel := e.kindOf(a.Name); !rel && e.seqs[a.Name] == nil {
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%s … OWNER TO of the built-in type %s is not supported", tag, a.Name).
				WithHint("built-in types belong to the superuser")
		}
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%s is a table's row type", a.Name).WithHint("Use ALTER TABLE instead.")
	}
	if a.Domain && !isDomain {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "%s is not a domain", a.Name)
	}
	role := a.Owner
	if role == "" {
		role = s.userName()
	}
	if role != SuperuserName && e.roles[role] == nil {
		return Result{}, pgerr.New(pgerr.UndefinedObject, "role %q does not exist", role)
	}
	if err := s.mayGiveType(a.Name, role); err != nil {
		return Result{}, err
	}
	old := e.typeOwner(a.Name)
	if err := e.setTypeOwner(a.Name, role); err != nil {
		return Result{}, err
	}
	if err := e.typeACLNewOwner(a.Name, old, role); err != nil {
		return Result{}, err
	}
	return Result{Tag: tag}, nil
}

// setTypeOwner gives the type name to role, in the store and in memory.
func (e *Engine) setTypeOwner(name, role string) error {
	if e.store != nil {
		if err := e.store.Drop([]string{typeOwnerStoreName(name)}); err != nil {
			return err
		}
		if role != SuperuserName {
			text := "ALTER TYPE " + quoteKey(name) + " OWNER TO " + sql.QuoteIdent(role)
			if err := e.store.Create(&StoredRelation{Name: typeOwnerStoreName(name), Kind: KindTypeOwner, SQL: text}); err != nil {
				return err
			}
		}
	}
	if role == SuperuserName {
		delete(e.typeOwners, name)
		return nil
	}
	if e.typeOwners == nil {
		e.typeOwners = map[string]string{}
	}
	e.typeOwners[name] = role
	return nil
}

// typeOwner is the owner of the type named name.
func (e *Engine) typeOwner(name string) string {
	if r, ok := e.typeOwners[name]; ok {
		return r
	}
	return SuperuserName
}

// typesOwnedBy lists the types role owns, as DROP ROLE's DETAIL names
// them.
func (e *Engine) typesOwnedBy(role string) []string {
	var out []string
	for _, name := range sortedKeys(e.typeOwners) {
		if e.typeOwners[name] == role {
			out = append(out, "owner of type "+name)
		}
	}
	return out
}

// pruningTypeOwners runs fn, a catalog change, then keeps the type owners
// in step with the types: ALTER TYPE … RENAME TO's new name keeps the
// owner, and the owner of a type that is gone is forgotten.
func (s *Session) pruningTypeOwners(fn func() (Result, error)) func() (Result, error) {
	return func() (Result, error) {
		res, err := fn()
		e := s.e
		if err != nil || len(e.typeOwners) == 0 {
			return res, err
		}
		moved := typeMoves(s.stmt, slices.Collect(maps.Keys(e.typeOwners)))
		for _, old := range sortedKeys(moved) {
			new := moved[old]
			role := e.typeOwners[old]
			if role == "" || !e.userTypeExists(new) || e.userTypeExists(old) {
				continue
			}
			if err := e.setTypeOwner(old, SuperuserName); err != nil {
				return res, err
			}
			if err := e.setTypeOwner(new, role); err != nil {
				return res, err
			}
		}
		for _, name := range sortedKeys(e.typeOwners) {
			if !e.userTypeExists(name) {
				if err := e.setTypeOwner(name, SuperuserName); err != nil {
					return res, err
				}
			}
		}
		return res, nil
	}
}

// typeMoves gives the new keys of the types of keys that the statement
// stmt renames or moves: ALTER TYPE … RENAME TO and SET SCHEMA, ALTER
// DOMAIN's, and ALTER SCHEMA … RENAME TO of their schema.
func typeMoves(stmt sql.Bound, keys []string) map[string]string {
	moved := map[string]string{}
	switch st := stmt.(type) {
	case *sql.RenameType:
		moved[st.Name] = st.New
	case *sql.AlterDomain:
		if st.Def.Name != "" && st.Def.Name != st.Name {
			moved[st.Name] = st.Def.Name
		}
	case *sql.AlterSchema:
		if st.NewName != "" {
			for _, name := range keys {
				if rest, ok := strings.CutPrefix(name, st.Name+"."); ok {
					moved[name] = typeKeyIn(st.NewName, rest)
				}
			}
		}
	}
	return moved
}

// typeOwnerOID is pg_type.typowner of t: its owner's oid, an array
// type's its element type's, a relation's row type its relation's.
func (o *catalogObjects) typeOwnerOID(t catType) uint32 {
	name := t.name
	if t.kind.IsArray() && strings.HasPrefix(name, "_") && o.e.typeOwners[name] == "" && o.e.owners[name] == "" {
		name = name[1:]
	}
	if oid := o.roleOID(o.e.relOrTypeOwner(name)); oid != 0 {
		return oid
	}
	return superuserOID
}

// quoteKey quotes a key for SQL text: "s"."name", or public's "name".
func quoteKey(key string) string {
	if sch, n, ok := strings.Cut(key, "."); ok {
		return sql.QuoteIdent(sch) + "." + sql.QuoteIdent(n)
	}
	return sql.QuoteIdent(key)
}

// typeKeyIn is the key of the type named name in schema: public's bare.
func typeKeyIn(schema, name string) string {
	if schema == "public" {
		return name
	}
	return schema + "." + name
}

// relOrTypeOwner is the owner of the type or relation keyed name: a
// composite type's pg_class row is its type's, a relation's row type its
// relation's, as PostgreSQL keeps the two owners together.
func (e *Engine) relOrTypeOwner(name string) string {
	if r, ok := e.typeOwners[name]; ok {
		return r
	}
	return e.relOwner(name)
}
