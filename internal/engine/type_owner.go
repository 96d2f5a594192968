package engine

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Type owners. A user-defined type or domain is owned by the superuser
// that made it until ALTER TYPE | DOMAIN … OWNER TO gives it to a role:
// e.typeOwners maps the type's name to that role. pg_type.typowner shows
// it (its array type's too), a role that owns a type cannot be dropped
// (2BP01), ALTER TYPE … RENAME TO keeps it; a type dropped, or moved or
// renamed by another statement, goes back to no owner but the superuser
// (pruneTypeOwners). A store keeps the owner as the statement that set it
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
	if err := s.mustBeSuperuser(fmt.Sprintf("change the owner of type %s", a.Name)); err != nil {
		return Result{}, err
	}
	if err := e.setTypeOwner(a.Name, role); err != nil {
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
			text := "ALTER TYPE " + sql.QuoteIdent(name) + " OWNER TO " + sql.QuoteIdent(role)
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
		if r, ok := s.stmt.(*sql.RenameType); ok && e.typeOwners[r.Name] != "" && e.userTypeExists(r.New) && !e.userTypeExists(r.Name) {
			role := e.typeOwners[r.Name]
			if err := e.setTypeOwner(r.Name, SuperuserName); err != nil {
				return res, err
			}
			if err := e.setTypeOwner(r.New, role); err != nil {
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

// typeOwnerOID is pg_type.typowner of t: its owner's oid, an array
// type's its element type's.
func (o *catalogObjects) typeOwnerOID(t catType) uint32 {
	name := t.name
	if _, ok := o.e.typeOwners[name]; !ok && t.kind.IsArray() && strings.HasPrefix(name, "_") {
		name = name[1:]
	}
	if role, ok := o.e.typeOwners[name]; ok {
		if oid := o.roleOID(role); oid != 0 {
			return oid
		}
	}
	return superuserOID
}
