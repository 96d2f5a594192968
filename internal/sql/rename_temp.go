package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TempObjects is how a session names the functions, procedures and types
// it keeps in its temporary schema (pg_temp), for RenameTempObjects.
type TempObjects struct {
	// Prefix is the engine's prefix of the session's temporary objects'
	// keys ("pg_temp_3."); "" when the session has none yet, and then
	// NewPrefix gives it one, for a statement that makes one.
	Prefix    string
	NewPrefix func() string
	// Type reports whether the session has a temporary type (or domain)
	// named name: an unqualified type name finds it first, as PostgreSQL
	// searches pg_temp first for types. Functions are found only when
	// qualified by pg_temp, as there.
	Type func(name string) bool
}

// MentionsTemp reports whether a statement's text may name pg_temp, for
// a session to skip RenameTempObjects when it cannot matter.
func MentionsTemp(text string) bool {
	return strings.Contains(strings.ToLower(text), "pg_temp")
}

// RenameTempObjects returns st with the names of functions, procedures
// and types in pg_temp written as the engine's keys of the session's
// temporary objects ("pg_temp.f" → "pg_temp_3.f"), and unqualified type
// names of the session's temporary types too; a key of another
// session's temporary object, written as a name, is left as a name
// that does not exist. st itself is left as it is.
func RenameTempObjects(st *Stmt, t TempObjects) (*Stmt, error) {
	if st.Node == nil {
		return st, nil
	}
	out := *st
	out.Node = proto.Clone(st.Node).(*pg_query.Node)
	// prefix is the session's prefix, for an object a statement makes in
	// pg_temp; a name of one it does not make, while the session has no
	// temporary schema, is 3F000.
	creating := false
	newName := func() {}
	prefix := func() string {
		if t.Prefix == "" && t.NewPrefix != nil && creating {
			t.Prefix = t.NewPrefix()
		}
		if t.Prefix == "" {
			return "pg_temp_0."
		}
		return t.Prefix
	}
	var err error
	rename := func(names []*pg_query.Node, isType bool) []*pg_query.Node {
		schema, name, ok := nameParts(names)
		switch {
		case !ok:
			return names
		case schema == "pg_temp":
			p := prefix()
			if p == "pg_temp_0." && err == nil {
				// PostgreSQL: a session without a temporary schema has no pg_temp
				// for functions and types.
				err = pgerr.New(pgerr.InvalidSchemaName, "schema \"pg_temp\" does not exist")
			}
			return []*pg_query.Node{pg_query.MakeStrNode(p + name)}
		case schema == "" && strings.HasPrefix(name, "pg_temp_") && strings.Contains(name, ".") && err == nil:
			// The engine's key, written as one name: none the statement may use.
			if isType {
				err = pgerr.New(pgerr.UndefinedObject, "type %q does not exist", name)
			} else {
				err = pgerr.New(pgerr.UndefinedFunction, "function %s does not exist", name)
			}
		case schema == "" && isType && t.Type != nil && t.Type(name):
			return []*pg_query.Node{pg_query.MakeStrNode(t.Prefix + name)}
		}
		return names
	}
	creating = true
	switch n := out.Node; {
	case n.GetCreateFunctionStmt() != nil:
		cf := n.GetCreateFunctionStmt()
		cf.Funcname = rename(cf.Funcname, false)
	case n.GetCreateEnumStmt() != nil:
		ce := n.GetCreateEnumStmt()
		ce.TypeName = rename(ce.TypeName, false)
	case n.GetCreateRangeStmt() != nil:
		cr := n.GetCreateRangeStmt()
		cr.TypeName = rename(cr.TypeName, false)
	case n.GetCreateDomainStmt() != nil:
		cd := n.GetCreateDomainStmt()
		cd.Domainname = rename(cd.Domainname, false)
	case n.GetDefineStmt() != nil:
		ds := n.GetDefineStmt()
		ds.Defnames = rename(ds.Defnames, false)
	case n.GetCompositeTypeStmt() != nil:
		if rv := n.GetCompositeTypeStmt().Typevar; rv != nil && rv.Schemaname == "pg_temp" {
			rv.Schemaname, rv.Relname = "", prefix()+rv.Relname
		}
	}
	creating = false
	switch n := out.Node; {
	case n.GetAlterEnumStmt() != nil:
		ae := n.GetAlterEnumStmt()
		ae.TypeName = rename(ae.TypeName, true)
	case n.GetAlterDomainStmt() != nil:
		ad := n.GetAlterDomainStmt()
		ad.TypeName = rename(ad.TypeName, true)
	case n.GetCreateTrigStmt() != nil:
		ct := n.GetCreateTrigStmt()
		ct.Funcname = rename(ct.Funcname, false)
	case n.GetGrantStmt() != nil:
		// GRANT | REVOKE … ON TYPE | DOMAIN names its types as lists of
		// names, not as type names the walk below reaches.
		if gs := n.GetGrantStmt(); gs.Objtype == pg_query.ObjectType_OBJECT_TYPE || gs.Objtype == pg_query.ObjectType_OBJECT_DOMAIN {
			for _, o := range gs.Objects {
				if l := o.GetList(); l != nil {
					l.Items = rename(l.Items, true)
				}
			}
		}
	case n.GetAlterObjectSchemaStmt() != nil:
		if names := objectNames(n.GetAlterObjectSchemaStmt().Object); names != nil {
			if schema, _, ok := nameParts(names); ok && schema == "pg_temp" || n.GetAlterObjectSchemaStmt().Newschema == "pg_temp" {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot move objects into or out of temporary schemas")
			}
		}
	case n.GetRenameStmt() != nil:
		// ALTER FUNCTION | TYPE | DOMAIN pg_temp.x RENAME TO y: y in pg_temp too.
		rs := n.GetRenameStmt()
		isType := rs.RenameType == pg_query.ObjectType_OBJECT_TYPE || rs.RenameType == pg_query.ObjectType_OBJECT_DOMAIN
		switch rs.RenameType {
		case pg_query.ObjectType_OBJECT_FUNCTION, pg_query.ObjectType_OBJECT_PROCEDURE, pg_query.ObjectType_OBJECT_ROUTINE,
			pg_query.ObjectType_OBJECT_AGGREGATE, pg_query.ObjectType_OBJECT_TYPE, pg_query.ObjectType_OBJECT_DOMAIN:
			if l := rs.Object.GetList(); l != nil {
				l.Items = rename(l.Items, isType)
				newName = func() { prefixNew(rs, l.Items) }
			} else if ow := rs.Object.GetObjectWithArgs(); ow != nil {
				newName = func() { prefixNew(rs, ow.Objname) } // once the walk below renamed it
			}
		}
	}
	walk(out.Node.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg_query.TypeName:
			x.Names = rename(x.Names, true)
		case *pg_query.FuncCall:
			x.Funcname = rename(x.Funcname, false)
		case *pg_query.ObjectWithArgs:
			x.Objname = rename(x.Objname, false)
		}
	})
	if err != nil {
		return nil, err
	}
	newName()
	return &out, nil
}

// prefixNew gives a RenameStmt's new name the temporary schema's prefix
// of the object's key, when names is one.
func prefixNew(rs *pg_query.RenameStmt, names []*pg_query.Node) {
	if _, name, ok := nameParts(names); ok && len(names) == 1 && strings.HasPrefix(name, "pg_temp_") && strings.Contains(name, ".") {
		rs.Newname = name[:strings.IndexByte(name, '.')+1] + rs.Newname
	}
}

// objectNames is the name list of an ALTER … SET SCHEMA's object.
func objectNames(n *pg_query.Node) []*pg_query.Node {
	switch {
	case n.GetList() != nil:
		return n.GetList().Items
	case n.GetObjectWithArgs() != nil:
		return n.GetObjectWithArgs().Objname
	case n.GetTypeName() != nil:
		return n.GetTypeName().Names
	}
	return nil
}

// BodyMentions reports whether a SQL function's body names a function or
// type whose key begins with prefix.
func BodyMentions(f *Function, prefix string) bool {
	found := false
	visit := func(m protoreflect.Message) {
		if s, ok := m.Interface().(*pg_query.String); ok && strings.HasPrefix(s.Sval, prefix) && strings.Contains(s.Sval, ".") {
			found = true
		}
	}
	if f.Body != nil {
		walk(f.Body.ProtoReflect(), visit)
	}
	for _, n := range f.Earlier {
		walk(n.ProtoReflect(), visit)
	}
	return found
}
