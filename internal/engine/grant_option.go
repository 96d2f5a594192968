package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Grant options. A grantee's Privilege holds, in its high byte, the
// privileges it may grant to others (sql.Privilege.WithOption), as an
// aclitem's "*" letters: GRANT … WITH GRANT OPTION gives them with the
// privileges, REVOKE GRANT OPTION FOR takes the options alone and REVOKE
// the privileges with their options. Superusers and the object's owner
// (or a member of it) grant here, as the owner, so every item's grantor
// is the owner and no grant ever depends on another: REVOKE … RESTRICT
// never finds dependent privileges.

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

// grantAsRole runs g for the session's role. A superuser, and the owner
// of a relation (or a member of it), grant on it as its owner. Another
// role that holds a grant option on it is refused (0A000): PostgreSQL
// lets it grant as the grantor of the items it makes, which the ACLs
// here, whose every item the owner granted, cannot record. A role that
// holds some privilege on it without the option changes nothing there,
// with PostgreSQL's WARNING; one that holds none gets 42501.
func (s *Session) grantAsRole(g *sql.Grant) (Result, error) {
	e := s.e
	if s.role == "" || e.roles[s.role] != nil && e.roles[s.role].superuser {
		return e.grant(g)
	}
	held := e.heldRoles(s.role)
	var warnings []string
	c := *g
	c.Relations = nil
	for _, rel := range g.Relations {
		if slices.Contains(held, e.relOwner(rel)) {
			c.Relations = append(c.Relations, rel)
			continue
		}
		var privs sql.Privilege
		for _, h := range append([]string{""}, held...) {
			privs |= e.grants[rel][h]
			for col := range e.colGrants[rel] {
				privs |= e.colGrants[rel].held(col, []string{h})
			}
		}
		what := "table"
		if e.seqs[rel] != nil {
			what = "sequence"
		} else if w := e.relWhat(rel); w != "" {
			what = w
		}
		switch {
		case privs.Options() != 0:
			verb := map[bool]string{false: "GRANT", true: "REVOKE"}[g.Revoke]
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "%s by a role holding a grant option is not supported", verb).
				WithHint("the owner of %s %s or a superuser grants and revokes its privileges", what, e.bareName(rel))
		case privs == 0:
			return Result{}, pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", what, e.bareName(rel))
		case g.Revoke:
			warnings = append(warnings, fmt.Sprintf("no privileges could be revoked for %q", e.bareName(rel)))
		default:
			warnings = append(warnings, fmt.Sprintf("no privileges were granted for %q", e.bareName(rel)))
		}
	}
	res, err := e.grant(&c)
	if err != nil {
		return Result{}, err
	}
	levels := map[int]string{}
	for i := range warnings {
		levels[i] = "WARNING"
	}
	for i, l := range res.NoticeLevels {
		levels[i+len(warnings)] = l
	}
	res.Notices = append(warnings, res.Notices...)
	res.NoticeLevels = levels
	return res, nil
}
