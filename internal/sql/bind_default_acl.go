package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// AlterDefaultPrivileges is ALTER DEFAULT PRIVILEGES [FOR ROLE roles]
// [IN SCHEMA schemas] GRANT | REVOKE privileges ON TABLES | SEQUENCES |
// FUNCTIONS | ROUTINES | TYPES | SCHEMAS TO | FROM grantees: the
// privileges the objects of that kind the roles create afterwards (in
// those schemas) get.
type AlterDefaultPrivileges struct {
	// Roles are the roles of FOR ROLE; "" stands for the session's role
	// (none given, CURRENT_USER, CURRENT_ROLE; SESSION_USER when the
	// catalog does not know the session's roles).
	Roles []string
	// Schemas are the schemas of IN SCHEMA, nil for none.
	Schemas []string
	// ObjType is pg_default_acl.defaclobjtype: 'r' (tables), 'S'
	// (sequences), 'f' (functions and routines), 'T' (types), 'n'
	// (schemas).
	ObjType byte
	Revoke  bool
	// Privs are the privileges named, every privilege of the kind for
	// ALL.
	Privs    Privilege
	Grantees []string // "" for PUBLIC
	// Option is WITH GRANT OPTION of a GRANT and GRANT OPTION FOR of a
	// REVOKE.
	Option bool
}

func (*AlterDefaultPrivileges) bound() {}

// defACLKinds are the object kinds of ALTER DEFAULT PRIVILEGES: their
// defaclobjtype, the word of PostgreSQL's messages, and their privileges
// by name.
var defACLKinds = map[pg_query.ObjectType]struct {
	typ   byte
	word  string
	privs map[string]Privilege
}{
	pg_query.ObjectType_OBJECT_TABLE: {'r', "relation", map[string]Privilege{"select": PrivSelect, "insert": PrivInsert,
		"update": PrivUpdate, "delete": PrivDelete, "truncate": PrivTruncate, "references": PrivReferences, "trigger": PrivTrigger}},
	pg_query.ObjectType_OBJECT_SEQUENCE: {'S', "sequence", map[string]Privilege{"select": PrivSelect, "update": PrivUpdate, "usage": PrivUsage}},
	pg_query.ObjectType_OBJECT_FUNCTION: {'f', "function", map[string]Privilege{"execute": PrivExecute}},
	pg_query.ObjectType_OBJECT_TYPE:     {'T', "type", map[string]Privilege{"usage": PrivUsage}},
	pg_query.ObjectType_OBJECT_SCHEMA:   {'n', "schema", map[string]Privilege{"usage": PrivUsage, "create": PrivCreate}},
}

func (b *binder) bindAlterDefaultPrivileges(s *pg_query.AlterDefaultPrivilegesStmt) (Bound, error) {
	g := s.Action
	verb := "GRANT"
	if !g.IsGrant {
		verb = "REVOKE"
	}
	a := &AlterDefaultPrivileges{Revoke: !g.IsGrant}
	for _, o := range s.Options {
		d := o.GetDefElem()
		for _, n := range d.GetArg().GetList().GetItems() {
			switch d.Defname {
			case "schemas":
				a.Schemas = append(a.Schemas, n.GetString_().GetSval())
			case "roles":
				r := n.GetRoleSpec()
				switch r.GetRoletype() {
				case pg_query.RoleSpecType_ROLESPEC_CSTRING:
					a.Roles = append(a.Roles, r.Rolename)
				case pg_query.RoleSpecType_ROLESPEC_PUBLIC:
					return nil, b.stmt.errf(r.Location, pgerr.UndefinedObject, "role \"public\" does not exist")
				case pg_query.RoleSpecType_ROLESPEC_SESSION_USER:
					name, _ := b.sessionRole("session_user")
					a.Roles = append(a.Roles, name)
				default:
					a.Roles = append(a.Roles, "")
				}
			}
		}
	}
	if a.Roles == nil {
		a.Roles = []string{""}
	}
	kind, ok := defACLKinds[g.Objtype]
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER DEFAULT PRIVILEGES on this kind of object is not supported")
	}
	a.ObjType = kind.typ
	if len(g.Privileges) == 0 {
		for _, p := range kind.privs {
			a.Privs |= p
		}
	}
	for _, n := range g.Privileges {
		p := n.GetAccessPriv()
		if p == nil {
			continue
		}
		if len(p.Cols) > 0 {
			return nil, pgerr.New("0LP01", "default privileges cannot be set for columns")
		}
		bit, ok := kind.privs[p.PrivName]
		switch {
		case !ok:
			return nil, pgerr.New("0LP01", "invalid privilege type %s for %s", strings.ToUpper(p.PrivName), kind.word)
		}
		a.Privs |= bit
	}
	if kind.typ == 'n' && a.Schemas != nil {
		return nil, pgerr.New("0LP01", "cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS")
	}
	a.Option = g.GrantOption
	var err error
	if a.Grantees, err = b.grantees(g.Grantees, verb); err != nil {
		return nil, err
	}
	return a, nil
}
