package sql

import (
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Schema is a schema statement that changes nothing: CREATE SCHEMA IF
// NOT EXISTS of a system schema, with its notice.
type Schema struct {
	Tag     string
	Notices []string
}

// CreateSchema is CREATE SCHEMA [IF NOT EXISTS] name [AUTHORIZATION
// role]; its schema elements (CREATE TABLE … inside it) a session runs
// as statements of their own, in the new schema (SchemaElements).
type CreateSchema struct {
	Name        string
	Owner       string // "" for the session's role
	IfNotExists bool
}

// DropSchema is DROP SCHEMA [IF EXISTS] name, … [CASCADE | RESTRICT].
type DropSchema struct {
	Names    []string
	IfExists bool
	Cascade  bool
}

// AlterSchema is ALTER SCHEMA name RENAME TO new_name or OWNER TO role.
type AlterSchema struct {
	Name     string
	NewName  string // RENAME TO
	NewOwner string // OWNER TO
}

func (*Schema) bound()       {}
func (*CreateSchema) bound() {}
func (*DropSchema) bound()   {}
func (*AlterSchema) bound()  {}

// systemSchemas are PostgreSQL's schemas that exist in every database.
var systemSchemas = map[string]bool{"public": true, "pg_catalog": true, "information_schema": true}

// SystemSchema reports whether name is one of the schemas every database
// has.
func SystemSchema(name string) bool { return systemSchemas[name] }

func (b *binder) bindCreateSchema(cs *pg_query.CreateSchemaStmt) (Bound, error) {
	name := cs.Schemaname
	owner := ""
	if cs.Authrole != nil {
		switch cs.Authrole.Roletype {
		case pg_query.RoleSpecType_ROLESPEC_CSTRING:
			owner = cs.Authrole.Rolename
		case pg_query.RoleSpecType_ROLESPEC_CURRENT_USER, pg_query.RoleSpecType_ROLESPEC_SESSION_USER, pg_query.RoleSpecType_ROLESPEC_CURRENT_ROLE:
		default:
			return nil, b.stmt.errf(cs.Authrole.Location, pgerr.FeatureNotSupported, "AUTHORIZATION takes a role's name")
		}
		if name == "" {
			name = owner // CREATE SCHEMA AUTHORIZATION r names the schema after r
		}
	}
	if systemSchemas[name] {
		if !cs.IfNotExists {
			return nil, pgerr.New("42P06", "schema %q already exists", name)
		}
		return &Schema{Tag: "CREATE SCHEMA", Notices: []string{fmt.Sprintf("schema %q already exists, skipping", name)}}, nil
	}
	if strings.HasPrefix(name, "pg_") {
		return nil, pgerr.New("42939", "unacceptable schema name %q", name).WithDetail("The prefix \"pg_\" is reserved for system schemas.")
	}
	return &CreateSchema{Name: name, Owner: owner, IfNotExists: cs.IfNotExists}, nil
}

// SchemaElements splits CREATE SCHEMA with schema elements into CREATE
// SCHEMA alone and its elements' statements, each as its own text; ok
// is false for another statement, or CREATE SCHEMA without elements. An
// element naming another schema is 42P15, as in PostgreSQL.
func SchemaElements(st *Stmt) (schema *Stmt, elems []*Stmt, ok bool, err error) {
	cs := st.Node.GetCreateSchemaStmt()
	if cs == nil || len(cs.SchemaElts) == 0 {
		return nil, nil, false, nil
	}
	if cs.IfNotExists {
		return nil, nil, false, pgerr.New(pgerr.FeatureNotSupported, "CREATE SCHEMA IF NOT EXISTS cannot include schema elements")
	}
	name := cs.Schemaname
	if name == "" && cs.Authrole != nil {
		name = cs.Authrole.Rolename
	}
	deparse := func(n *pg_query.Node) (*Stmt, error) {
		text, err := pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: n}}})
		if err != nil {
			return nil, pgerr.New(pgerr.Internal, "cannot write a schema element: %v", err)
		}
		return &Stmt{SQL: text, Node: n}, nil
	}
	head := &pg_query.CreateSchemaStmt{Schemaname: cs.Schemaname, Authrole: cs.Authrole, IfNotExists: cs.IfNotExists}
	if schema, err = deparse(&pg_query.Node{Node: &pg_query.Node_CreateSchemaStmt{CreateSchemaStmt: head}}); err != nil {
		return nil, nil, false, err
	}
	for _, el := range cs.SchemaElts {
		var rv *pg_query.RangeVar
		switch {
		case el.GetCreateStmt() != nil:
			rv = el.GetCreateStmt().Relation
		case el.GetViewStmt() != nil:
			rv = el.GetViewStmt().View
		case el.GetCreateSeqStmt() != nil:
			rv = el.GetCreateSeqStmt().Sequence
		case el.GetIndexStmt() != nil:
			rv = el.GetIndexStmt().Relation
		case el.GetCreateTrigStmt() != nil:
			rv = el.GetCreateTrigStmt().Relation
		}
		if rv != nil && rv.Schemaname != "" && rv.Schemaname != name {
			return nil, nil, false, pgerr.New("42P15", "CREATE specifies a schema (%s) different from the one being created (%s)", rv.Schemaname, name).
				At(st.SQL, int(rv.Location))
		}
		e, err := deparse(el)
		if err != nil {
			return nil, nil, false, err
		}
		// The element is parsed again from its own text, for positions
		// in its errors.
		if parsed, perr := Parse(e.SQL); perr == nil && parsed.Node != nil {
			e = parsed
		}
		elems = append(elems, e)
	}
	return schema, elems, true, nil
}

func (b *binder) bindDropSchema(ds *pg_query.DropStmt) (Bound, error) {
	d := &DropSchema{IfExists: ds.MissingOk, Cascade: ds.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	for _, o := range ds.Objects {
		name := o.GetString_().GetSval()
		if systemSchemas[name] {
			return nil, b.refuse(-1, "DROP SCHEMA %s is not supported: it is a system schema", name)
		}
		d.Names = append(d.Names, name)
	}
	return d, nil
}

// bindAlterSchemaRename binds ALTER SCHEMA name RENAME TO new_name.
func (b *binder) bindAlterSchemaRename(rs *pg_query.RenameStmt) (Bound, error) {
	name := rs.Subname
	if name == "" {
		name = rs.Object.GetString_().GetSval()
	}
	if systemSchemas[name] {
		return nil, b.refuse(-1, "ALTER SCHEMA %s is not supported: it is a system schema", name)
	}
	if strings.HasPrefix(rs.Newname, "pg_") {
		return nil, pgerr.New("42939", "unacceptable schema name %q", rs.Newname).WithDetail("The prefix \"pg_\" is reserved for system schemas.")
	}
	return &AlterSchema{Name: name, NewName: rs.Newname}, nil
}

// bindAlterSchemaOwner binds ALTER SCHEMA name OWNER TO role.
func (b *binder) bindAlterSchemaOwner(ao *pg_query.AlterOwnerStmt) (Bound, error) {
	name := ao.Object.GetString_().GetSval()
	owner := ""
	if r := ao.Newowner; r != nil && r.Roletype == pg_query.RoleSpecType_ROLESPEC_CSTRING {
		owner = r.Rolename
	}
	if systemSchemas[name] {
		return nil, b.refuse(-1, "ALTER SCHEMA %s OWNER TO is not supported: it is a system schema", name)
	}
	return &AlterSchema{Name: name, NewOwner: owner}, nil
}

// Privileges on schemas.
const (
	PrivUsage Privilege = 1 << (iota + 5)
	PrivCreate
)

// GrantSchema is GRANT or REVOKE USAGE, CREATE or ALL ON SCHEMA name, …
// TO | FROM role, ….
type GrantSchema struct {
	Revoke  bool
	Privs   Privilege
	Schemas []string
	Roles   []string // "" for PUBLIC
	// Option is WITH GRANT OPTION of a GRANT and GRANT OPTION FOR of a
	// REVOKE.
	Option bool
	// All is GRANT ALL (no privilege named); Cascade is REVOKE's CASCADE.
	All, Cascade bool
}

func (*GrantSchema) bound() {}

func (b *binder) bindGrantSchema(s *pg_query.GrantStmt, verb string) (Bound, error) {
	g := &GrantSchema{Revoke: !s.IsGrant, Option: s.GrantOption, Cascade: s.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	if len(s.Privileges) == 0 {
		g.Privs, g.All = PrivUsage|PrivCreate, true
	}
	for _, n := range s.Privileges {
		switch p := n.GetAccessPriv(); p.GetPrivName() {
		case "usage":
			g.Privs |= PrivUsage
		case "create":
			g.Privs |= PrivCreate
		default:
			return nil, pgerr.New("0LP01", "invalid privilege type %s for schema", strings.ToUpper(p.GetPrivName()))
		}
	}
	for _, n := range s.Objects {
		g.Schemas = append(g.Schemas, n.GetString_().GetSval())
	}
	var err error
	if g.Roles, err = b.grantees(s.Grantees, verb); err != nil {
		return nil, err
	}
	return g, nil
}

// SequenceLister is a catalog that lists its permanent sequences' keys,
// sorted: for GRANT … ON ALL SEQUENCES IN SCHEMA.
type SequenceLister interface {
	SequenceNames() []string
}

// relationsInSchemas lists the tables, views and materialized views of
// the schemas named (GRANT … ON ALL TABLES IN SCHEMA), by key; a schema
// that does not exist is 3F000.
func (b *binder) relationsInSchemas(names []*pg_query.Node) ([]string, error) {
	var all []string
	if l, ok := b.cat.(RelationLister); ok {
		all = l.RelationNames()
	}
	return b.keysInSchemas(names, all)
}

// sequencesInSchemas lists the sequences of the schemas named (GRANT …
// ON ALL SEQUENCES IN SCHEMA), by key; a schema that does not exist is
// 3F000.
func (b *binder) sequencesInSchemas(names []*pg_query.Node) ([]string, error) {
	var all []string
	if l, ok := b.cat.(SequenceLister); ok {
		all = l.SequenceNames()
	}
	return b.keysInSchemas(names, all)
}

// keysInSchemas keeps the keys of all that belong to the schemas named.
func (b *binder) keysInSchemas(names []*pg_query.Node, all []string) ([]string, error) {
	var q Qualifier
	if nr, ok := b.cat.(NameResolver); ok {
		q = nr.Qualifier()
	}
	var out []string
	for _, n := range names {
		schema := n.GetString_().GetSval()
		if schema != "public" && (q == nil || !q.SchemaExists(schema)) {
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
		}
		for _, key := range all {
			if q == nil {
				out = append(out, key)
				continue
			}
			if s, _ := q.SplitKey(key); s == schema {
				out = append(out, key)
			}
		}
	}
	return out, nil
}

// outOfPublic is the error for an object other than a relation (a type,
// a function, an operator) named in a schema where it cannot be: 3F000
// when the schema does not exist, else a refusal (0A000): an operator
// outside public, anything in pg_temp.
func (b *binder) outOfPublic(schema, what string) error {
	if schema == "pg_temp" {
		return pgerr.New(pgerr.FeatureNotSupported, "%s in schema pg_temp are not supported", what).
			WithHint("the session's temporary schema holds tables, sequences, views, functions, procedures, enum and composite types and domains")
	}
	if nr, ok := b.cat.(NameResolver); ok && nr.Qualifier() != nil && nr.Qualifier().SchemaExists(schema) {
		return pgerr.New(pgerr.FeatureNotSupported, "%s in schema %s are not supported", what, schema).
			WithHint("operators are kept in schema public: create them there, unqualified")
	}
	return pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
}

// createsInPublic refuses a statement that creates an operator under an
// unqualified name when the search path is empty (3F000), as PostgreSQL
// does; otherwise the operator goes to the path's first schema
// (bind_operator_schema.go).
func (b *binder) createsInPublic(n *pg_query.Node) error {
	ds := n.GetDefineStmt()
	if ds == nil || ds.Kind != pg_query.ObjectType_OBJECT_OPERATOR || len(ds.Defnames) != 1 {
		return nil
	}
	nr, ok := b.cat.(NameResolver)
	if !ok || nr.Qualifier() == nil {
		return nil
	}
	path := nr.Qualifier().SearchPath()
	switch {
	case len(path) == 0:
		return pgerr.New(pgerr.InvalidSchemaName, "no schema has been selected to create in")
	}
	return nil
}
