package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Grant options. A grantee's Privilege holds, in its high byte, the
// privileges it may grant to others (sql.Privilege.WithOption), as an
// aclitem's "*" letters: GRANT … WITH GRANT OPTION gives them with the
// privileges, REVOKE GRANT OPTION FOR takes the options alone and REVOKE
// the privileges with their options. On a relation, a role holding an
// option grants as the grantor of the items it makes (acl_items.go), as on
// schemas, the database and routines (schema_grantor.go,
// database_grantor.go, routine_grantor.go); on other objects superusers
// and the object's owner (or a member of it) grant, as the owner.

// checkGrantOption refuses a grant option given to PUBLIC (0LP01, as
// PostgreSQL's "grant options can only be granted to roles").
func checkGrantOption(option, revoke bool, roles []string) error {
	if !option || revoke {
		return nil
	}
	for _, r := range roles {
		if r == "" {
			return pgerr.New("0LP01", "grant options can only be granted to roles")
		}
	}
	return nil
}

// applyGrant is what a grantee holding held holds after g gives or takes
// privs.
func applyGrant(g *sql.Grant, held, privs sql.Privilege) sql.Privilege {
	return withGrant(g.Revoke, g.Option, held, privs)
}

// withGrant is what a grantee holding held holds after a GRANT (REVOKE
// when revoke) of privs, WITH GRANT OPTION (GRANT OPTION FOR) when
// option.
func withGrant(revoke, option bool, held, privs sql.Privilege) sql.Privilege {
	switch {
	case revoke && option:
		return held &^ sql.OptionsOf(privs)
	case revoke:
		return held &^ (privs.Plain() | sql.OptionsOf(privs))
	case option:
		return held | privs.WithOption()
	}
	return held | privs.Plain()
}

// addGrantOption records in sc the grant options of p, what role holds
// on the relation oid (on its column col, when not ""), for the privilege
// functions asked WITH GRANT OPTION.
func addGrantOption(sc *expr.SysCatalog, oid uint32, col, role string, p sql.Privilege) {
	if p.Options() == 0 {
		return
	}
	if col == "" {
		if sc.GrantOptions == nil {
			sc.GrantOptions = map[uint32]map[string]uint8{}
		}
		if sc.GrantOptions[oid] == nil {
			sc.GrantOptions[oid] = map[string]uint8{}
		}
		sc.GrantOptions[oid][role] = uint8(p.Options())
		return
	}
	if sc.ColGrantOptions == nil {
		sc.ColGrantOptions = map[uint32]map[string]map[string]uint8{}
	}
	if sc.ColGrantOptions[oid] == nil {
		sc.ColGrantOptions[oid] = map[string]map[string]uint8{}
	}
	if sc.ColGrantOptions[oid][col] == nil {
		sc.ColGrantOptions[oid][col] = map[string]uint8{}
	}
	sc.ColGrantOptions[oid][col][role] = uint8(p.Options())
}

// grantAsRole runs g for the session's role (grant_relation.go).
func (s *Session) grantAsRole(g *sql.Grant) (Result, error) {
	if err := s.schemasAllowed(g.Relations); err != nil {
		return Result{}, err
	}
	return s.e.grantBy(g, s.userName())
}
