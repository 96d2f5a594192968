package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Privilege is a set of the privileges GRANT gives on a relation; the
// high byte holds the grant options of the low one's (grant_option.go).
type Privilege uint16

// Privileges on tables and views.
const (
	PrivSelect Privilege = 1 << iota
	PrivInsert
	PrivUpdate
	PrivDelete
	PrivTruncate
	PrivAll = PrivSelect | PrivInsert | PrivUpdate | PrivDelete | PrivTruncate
)

// PrivReferences is REFERENCES, on a table or its columns; PrivColumn
// the privileges a column has (ALL (a) is those four).
const (
	PrivReferences Privilege = 1 << 7
	PrivColumn               = PrivSelect | PrivInsert | PrivUpdate | PrivReferences
)

// PrivTrigger is TRIGGER on a table or view: the bit of a schema's
// CREATE, which a relation never holds. PrivTableAll is ALL on a table,
// aclitem's arwdDxt.
const (
	PrivTrigger  Privilege = 1 << 6
	PrivTableAll           = PrivAll | PrivReferences | PrivTrigger
)

// String names the privileges of p, as GRANT spells them.
func (p Privilege) String() string {
	var names []string
	for _, x := range []struct {
		p    Privilege
		name string
	}{{PrivSelect, "SELECT"}, {PrivInsert, "INSERT"}, {PrivUpdate, "UPDATE"}, {PrivDelete, "DELETE"}, {PrivTruncate, "TRUNCATE"}, {PrivUsage, "USAGE"}, {PrivReferences, "REFERENCES"}, {PrivTrigger, "TRIGGER"}} {
		if p&x.p != 0 {
			names = append(names, x.name)
		}
	}
	return strings.Join(names, ", ")
}

// RoleOptions are the options of CREATE ROLE and ALTER ROLE; nil fields
// are not given.
type RoleOptions struct {
	Login     *bool
	Superuser *bool
	// Password is set for PASSWORD 'text' (a password, or a SCRAM-SHA-256
	// verifier in PostgreSQL's format); ClearPassword for PASSWORD NULL.
	Password      *string
	ClearPassword bool
	// BypassRLS is set for BYPASSRLS or NOBYPASSRLS.
	BypassRLS *bool
	// Inherit is set for INHERIT or NOINHERIT.
	Inherit *bool
}

// CreateRole is CREATE ROLE | USER name [WITH] options; USER implies LOGIN.
type CreateRole struct {
	Name string
	Opts RoleOptions
}

// AlterRole is ALTER ROLE name [WITH] options.
type AlterRole struct {
	Name string
	Opts RoleOptions
}

// DropRole is DROP ROLE [IF EXISTS] names.
type DropRole struct {
	Names    []string
	IfExists bool
}

// Grant is GRANT privileges ON [TABLE | SEQUENCE] relations TO roles, or
// REVOKE … FROM; a role "" is PUBLIC, every role. Privs holds SELECT,
// INSERT, UPDATE, DELETE, TRUNCATE and, on sequences, USAGE (PrivUsage).
type Grant struct {
	Revoke    bool
	Privs     Privilege
	Relations []string
	Roles     []string
	// Sequence is set for ON SEQUENCE and ON ALL SEQUENCES IN SCHEMA:
	// every relation must be a sequence (42809 otherwise).
	Sequence bool
	// All is set for ALL [PRIVILEGES]: every privilege the relation's
	// kind has (a sequence's SELECT, UPDATE and USAGE).
	All bool
	// Columns are the column privileges it names (SELECT (a, b)), a
	// column once, in the order first named; Privs then holds the
	// privileges it names without columns, if any.
	Columns []ColumnPriv
	// Option is WITH GRANT OPTION of a GRANT and GRANT OPTION FOR of a
	// REVOKE; Cascade is REVOKE's CASCADE.
	Option  bool
	Cascade bool
	// Grantor is the role a store's statement grants as (GRANTED BY
	// naming another role than the current user); "" for the user.
	Grantor string
}

// ColumnPriv is the privileges a GRANT or REVOKE names on one column.
type ColumnPriv struct {
	Name  string
	Privs Privilege
}

func (*CreateRole) bound() {}
func (*AlterRole) bound()  {}
func (*DropRole) bound()   {}
func (*Grant) bound()      {}

func (b *binder) roleOptions(opts []*pg_query.Node) (RoleOptions, error) {
	var o RoleOptions
	for _, n := range opts {
		d := n.GetDefElem()
		if d == nil {
			continue
		}
		switch d.Defname {
		case "canlogin", "superuser":
			v := d.Arg.GetBoolean().GetBoolval()
			if d.Defname == "canlogin" {
				o.Login = &v
			} else {
				o.Superuser = &v
			}
		case "bypassrls":
			v := d.Arg.GetBoolean().GetBoolval()
			o.BypassRLS = &v
		case "inherit":
			v := d.Arg.GetBoolean().GetBoolval()
			o.Inherit = &v
		case "password":
			if s := d.Arg.GetString_(); s != nil {
				p := s.Sval
				o.Password = &p
			} else {
				o.ClearPassword = true
			}
		default:
			return o, b.stmt.errf(d.Location, pgerr.FeatureNotSupported, "role option %s is not supported", strings.ToUpper(d.Defname)).
				WithHint("the role options are LOGIN, NOLOGIN, SUPERUSER, NOSUPERUSER, INHERIT, NOINHERIT, BYPASSRLS, NOBYPASSRLS and PASSWORD")
		}
	}
	return o, nil
}

func (b *binder) bindCreateRole(s *pg_query.CreateRoleStmt) (Bound, error) {
	if s.StmtType == pg_query.RoleStmtType_ROLESTMT_GROUP {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "CREATE GROUP is not supported").WithHint("use CREATE ROLE")
	}
	o, err := b.roleOptions(s.Options)
	if err != nil {
		return nil, err
	}
	if s.StmtType == pg_query.RoleStmtType_ROLESTMT_USER && o.Login == nil {
		t := true
		o.Login = &t
	}
	return &CreateRole{Name: s.Role, Opts: o}, nil
}

func (b *binder) bindAlterRole(s *pg_query.AlterRoleStmt) (Bound, error) {
	if s.Role == nil || s.Role.Roletype != pg_query.RoleSpecType_ROLESPEC_CSTRING {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER ROLE takes a role's name")
	}
	o, err := b.roleOptions(s.Options)
	if err != nil {
		return nil, err
	}
	return &AlterRole{Name: s.Role.Rolename, Opts: o}, nil
}

func (b *binder) bindDropRole(s *pg_query.DropRoleStmt) (Bound, error) {
	d := &DropRole{IfExists: s.MissingOk}
	for _, n := range s.Roles {
		r := n.GetRoleSpec()
		if r == nil || r.Roletype != pg_query.RoleSpecType_ROLESPEC_CSTRING {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "DROP ROLE takes roles' names")
		}
		d.Names = append(d.Names, r.Rolename)
	}
	return d, nil
}

func (b *binder) bindGrant(s *pg_query.GrantStmt) (Bound, error) {
	verb := "GRANT"
	if !s.IsGrant {
		verb = "REVOKE"
	}
	grantor, err := b.grantedBy(s)
	if err != nil {
		return nil, err
	}
	if s.Objtype == pg_query.ObjectType_OBJECT_SCHEMA && s.Targtype == pg_query.GrantTargetType_ACL_TARGET_OBJECT {
		return b.bindGrantSchema(s, verb)
	}
	if s.Objtype == pg_query.ObjectType_OBJECT_DATABASE {
		return b.bindGrantDatabase(s, verb, grantor)
	}
	if s.Objtype == pg_query.ObjectType_OBJECT_TYPE || s.Objtype == pg_query.ObjectType_OBJECT_DOMAIN {
		return b.bindGrantType(s, verb, grantor)
	}
	if g, ok, err := b.bindGrantRoutine(s, verb, grantor); ok {
		return g, err
	}
	seq := s.Objtype == pg_query.ObjectType_OBJECT_SEQUENCE
	allIn := s.Targtype == pg_query.GrantTargetType_ACL_TARGET_ALL_IN_SCHEMA && (s.Objtype == pg_query.ObjectType_OBJECT_TABLE || seq)
	if !allIn && (s.Targtype != pg_query.GrantTargetType_ACL_TARGET_OBJECT || (s.Objtype != pg_query.ObjectType_OBJECT_TABLE && !seq)) {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s is supported on tables, views, sequences, schemas and routines only", verb).
			WithHint("%s SELECT, INSERT, UPDATE, DELETE, TRUNCATE or ALL ON [TABLE] name, … TO role, …", verb)
	}
	g := &Grant{Revoke: !s.IsGrant, Sequence: seq, Option: s.GrantOption, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE, Grantor: grantor}
	if len(s.Privileges) == 0 {
		g.Privs, g.All = PrivTableAll, true
		if seq {
			g.Privs = PrivSelect | PrivUpdate | PrivUsage
		}
	}
	what := map[bool]string{false: "table", true: "sequence"}[seq]
	for _, n := range s.Privileges {
		p := n.GetAccessPriv()
		if p == nil {
			continue
		}
		if len(p.Cols) > 0 {
			if err := g.addColumnPrivs(p, seq || allIn); err != nil {
				return nil, err
			}
			continue
		}
		switch p.PrivName {
		case "insert", "delete", "truncate":
			if seq {
				return nil, pgerr.New("0LP01", "invalid privilege type %s for sequence", strings.ToUpper(p.PrivName))
			}
		}
		switch p.PrivName {
		case "select":
			g.Privs |= PrivSelect
		case "insert":
			g.Privs |= PrivInsert
		case "update":
			g.Privs |= PrivUpdate
		case "delete":
			g.Privs |= PrivDelete
		case "truncate":
			g.Privs |= PrivTruncate
		case "usage":
			if !seq {
				return nil, pgerr.New("0LP01", "invalid privilege type USAGE for table")
			}
			g.Privs |= PrivUsage
		case "references", "trigger":
			if seq {
				return nil, pgerr.New("0LP01", "invalid privilege type %s for sequence", strings.ToUpper(p.PrivName))
			}
			g.Privs |= map[string]Privilege{"references": PrivReferences, "trigger": PrivTrigger}[p.PrivName]
		default:
			return nil, pgerr.New("0LP01", "invalid privilege type %s for %s", strings.ToUpper(p.PrivName), what)
		}
	}
	if allIn && seq {
		rels, err := b.sequencesInSchemas(s.Objects)
		if err != nil {
			return nil, err
		}
		g.Relations = rels
	} else if allIn {
		rels, err := b.relationsInSchemas(s.Objects)
		if err != nil {
			return nil, err
		}
		g.Relations = rels
	}
	for _, n := range s.Objects {
		rv := n.GetRangeVar()
		if rv == nil {
			continue
		}
		if _, ok := b.cat.Relation(rv.Relname); !ok && !b.isSequence(rv.Relname) {
			return nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
		}
		g.Relations = append(g.Relations, rv.Relname)
	}
	if err := b.checkGrantColumns(g); err != nil {
		return nil, err
	}
	if g.Roles, err = b.grantees(s.Grantees, verb); err != nil {
		return nil, err
	}
	return g, nil
}

// isSequence reports whether name is a sequence of the catalog.
func (b *binder) isSequence(name string) bool {
	sc, ok := b.cat.(SequenceCatalog)
	if !ok {
		return false
	}
	_, found := sc.Sequence(name)
	return found
}

// grantees lists the roles a GRANT or REVOKE names in list, PUBLIC as
// "", CURRENT_USER, CURRENT_ROLE and SESSION_USER as the roles they stand
// for (bind_grantee_spec.go).
func (b *binder) grantees(list []*pg_query.Node, verb string) ([]string, error) {
	var roles []string
	for _, n := range list {
		r := n.GetRoleSpec()
		switch {
		case r == nil:
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_PUBLIC:
			roles = append(roles, "")
		case r.Roletype == pg_query.RoleSpecType_ROLESPEC_CSTRING:
			roles = append(roles, r.Rolename)
		default:
			special := strings.ToLower(strings.TrimPrefix(r.Roletype.String(), "ROLESPEC_"))
			name, ok := b.sessionRole(special)
			if !ok {
				return nil, b.stmt.errf(r.Location, pgerr.FeatureNotSupported, "%s takes roles' names or PUBLIC", verb)
			}
			roles = append(roles, name)
		}
	}
	return roles, nil
}
