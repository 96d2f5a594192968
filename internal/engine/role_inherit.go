package engine

import "github.com/deltaview/deltaview/internal/sql"

// A role's NOINHERIT keeps no state beyond the role's noInherit: a role
// that does not inherit holds its own privileges and PUBLIC's, and those
// of a role it is a member of only after SET ROLE to it (heldRoles), as
// PostgreSQL 15's rolinherit; it may still SET ROLE to its roles and is
// their member (memberRoles). A store keeps NOINHERIT as an ALTER ROLE
// statement (KindRoleNoInherit), run after the roles are loaded.

// KindRoleNoInherit is the kind of a role's NOINHERIT in the store.
const KindRoleNoInherit RelKind = "role noinherit"

func noInheritStoreName(role string) string { return "noinherit of " + role }

// storeNoInherit records r's NOINHERIT, new or changed, in the store.
func (e *Engine) storeNoInherit(r *role) error {
	if e.store == nil {
		return nil
	}
	name := noInheritStoreName(r.name)
	if err := e.store.Drop([]string{name}); err != nil {
		return err
	}
	if !r.noInherit {
		return nil
	}
	return e.store.Create(&StoredRelation{Name: name, Kind: KindRoleNoInherit, SQL: "ALTER ROLE " + sql.QuoteIdent(r.name) + " NOINHERIT"})
}

// dropNoInherit forgets the NOINHERIT of dropped roles in the store.
func (e *Engine) dropNoInherit(roles []string) error {
	names := make([]string, len(roles))
	for i, r := range roles {
		names[i] = noInheritStoreName(r)
	}
	return e.store.Drop(names)
}
