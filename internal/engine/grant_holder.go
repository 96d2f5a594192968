package engine

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// GRANT and REVOKE on the database by a role that is no superuser, as
// PostgreSQL's restrict_and_check_grant decides them: the object's owner,
// and a role holding its owner's privileges, grant as the owner; a role
// holding a grant option on it would grant as itself, which the ACL here,
// whose every item the owner granted, cannot record (0A000); a role
// holding some privilege on it without the option changes nothing, with a
// WARNING; a role holding none gets 42501. Schemas record their grantors
// (schema_grantor.go).

// holderGrant is what a GRANT (REVOKE when revoke) by user, who holds no
// privileges of the owner of the object what name, does given the
// object's acl: a WARNING, or an error.
func (e *Engine) holderGrant(user string, acl map[string]sql.Privilege, revoke bool, what, name string) (string, error) {
	var held sql.Privilege
	for _, h := range append([]string{""}, e.heldRoles(user)...) {
		held |= acl[h]
	}
	verb := map[bool]string{false: "GRANT", true: "REVOKE"}[revoke]
	switch {
	case held.Options() != 0:
		return "", pgerr.New(pgerr.FeatureNotSupported, "%s by a role holding a grant option is not supported", verb).
			WithHint("the owner of %s %s or a superuser grants and revokes its privileges", what, name)
	case held == 0:
		return "", pgerr.New(pgerr.InsufficientPrivilege, "permission denied for %s %s", what, name)
	case revoke:
		return fmt.Sprintf("no privileges could be revoked for %q", name), nil
	}
	return fmt.Sprintf("no privileges were granted for %q", name), nil
}

// withWarnings is res after the WARNINGs warnings, which come first.
func withWarnings(res Result, warnings []string) Result {
	if len(warnings) == 0 {
		return res
	}
	levels := map[int]string{}
	for i := range warnings {
		levels[i] = "WARNING"
	}
	for i, l := range res.NoticeLevels {
		levels[i+len(warnings)] = l
	}
	res.Notices = append(slices.Clip(warnings), res.Notices...)
	res.NoticeLevels = levels
	return res
}

// grantSchemaAsRole runs GRANT or REVOKE … ON SCHEMA for the session's
// role, which grants as the schema's owner or as a role holding grant
// options on it (schema_grantor.go).
func (s *Session) grantSchemaAsRole(g *sql.GrantSchema) (Result, error) {
	if s.mustBeSuperuser("") == nil {
		return s.e.grantSchema(g)
	}
	return s.e.grantSchemas(g, s.userName())
}

// grantDatabaseAsRole runs GRANT or REVOKE … ON DATABASE for the
// session's role (see above); the database's owner is the superuser.
func (s *Session) grantDatabaseAsRole(g *sql.GrantDatabase) (Result, error) {
	e := s.e
	if s.mustBeSuperuser("") == nil || e.hasPrivsOf(s.userName(), SuperuserName) {
		return e.grantDatabase(g)
	}
	for _, n := range g.Databases {
		if n != DatabaseName {
			return e.grantDatabase(g) // which reports it
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
	acl, _ := e.databaseACL()
	var warnings []string
	for range g.Databases {
		w, err := e.holderGrant(s.userName(), acl, g.Revoke, "database", DatabaseName)
		if err != nil {
			return Result{}, err
		}
		warnings = append(warnings, w)
	}
	tag := map[bool]string{false: "GRANT", true: "REVOKE"}[g.Revoke]
	return withWarnings(Result{Tag: tag}, warnings), nil
}
