package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Types (enums, composites, domains, ranges), functions, procedures and
// aggregates of a schema are keyed as its relations are: "s.name", and
// public's by their names. QualifyNames writes the names a statement
// gives them as keys, so the binder and the catalog see one name, as for
// relations: a qualified name as its key, a name the statement creates
// in the search path's first schema, and an unqualified name of one that
// exists through the search path, after pg_catalog (a built-in type or
// function of the name is left to the binder, which finds it first).

// ObjectFinder is a Qualifier that also tells which types and functions
// exist, to resolve their unqualified names through the search path.
type ObjectFinder interface {
	// HasType reports whether a user-defined type (an enum, a
	// composite or range type, a domain) is keyed key.
	HasType(key string) bool
	// HasFunction reports whether a function, procedure or aggregate
	// is keyed key.
	HasFunction(key string) bool
}

// objectKind tells which catalog an unqualified name is looked up in.
type objectKind int

const (
	typeObject objectKind = iota
	funcObject
)

// qualifyObjects rewrites the names of types and functions in node (a
// clone the caller owns) as keys; at places an error.
func qualifyObjects(node *pg_query.Node, q Qualifier, at func(error, int32) error) error {
	var err error
	// lookup resolves the name list of an existing object in place.
	lookup := func(names []*pg_query.Node, kind objectKind) []*pg_query.Node {
		if e := mayLookIn(q, names); e != nil && err == nil {
			err = e // unpositioned where no earlier check placed it
		}
		if k, ok := objectKey(names, kind, q); ok {
			return []*pg_query.Node{pg_query.MakeStrNode(k)}
		}
		return names
	}
	// create resolves the name list of an object the statement makes.
	create := func(names []*pg_query.Node, loc int32) []*pg_query.Node {
		schema, name, ok := nameParts(names)
		if !ok || err != nil || schema == "pg_catalog" || schema == "pg_temp" {
			return names
		}
		k, e := q.CreationKey(schema, name)
		if e == nil {
			// CREATE on the schema before the names the definition looks
			// up, as PostgreSQL's QualifiedNameGetCreationNamespace.
			if cc, ok := q.(CreationChecker); ok {
				e = cc.MayCreate(k)
			}
		}
		if e != nil {
			err = at(e, loc)
			return names
		}
		return []*pg_query.Node{pg_query.MakeStrNode(k)}
	}
	switch n := node; {
	case n.GetCreateFunctionStmt() != nil:
		cf := n.GetCreateFunctionStmt()
		cf.Funcname = create(cf.Funcname, -1)
	case n.GetCreateEnumStmt() != nil:
		ce := n.GetCreateEnumStmt()
		ce.TypeName = create(ce.TypeName, -1)
	case n.GetCreateRangeStmt() != nil:
		cr := n.GetCreateRangeStmt()
		cr.TypeName = create(cr.TypeName, -1)
	case n.GetCreateDomainStmt() != nil:
		cd := n.GetCreateDomainStmt()
		cd.Domainname = create(cd.Domainname, -1)
	case n.GetDefineStmt() != nil:
		if ds := n.GetDefineStmt(); ds.Kind == pg_query.ObjectType_OBJECT_AGGREGATE {
			ds.Defnames = create(ds.Defnames, -1)
		}
	case n.GetCompositeTypeStmt() != nil:
		rv := n.GetCompositeTypeStmt().Typevar
		if rv != nil && rv.Schemaname != "pg_temp" {
			k, e := q.CreationKey(rv.Schemaname, rv.Relname)
			if e != nil {
				return at(e, rv.Location)
			}
			rv.Schemaname, rv.Relname = "", k
		}
	case n.GetAlterEnumStmt() != nil:
		ae := n.GetAlterEnumStmt()
		ae.TypeName = lookup(ae.TypeName, typeObject)
	case n.GetAlterDomainStmt() != nil:
		ad := n.GetAlterDomainStmt()
		ad.TypeName = lookup(ad.TypeName, typeObject)
	case n.GetAlterObjectSchemaStmt() != nil:
		if l := n.GetAlterObjectSchemaStmt().Object.GetList(); l != nil {
			l.Items = lookup(l.Items, typeObject)
		}
	case n.GetCreateTrigStmt() != nil:
		ct := n.GetCreateTrigStmt()
		ct.Funcname = lookup(ct.Funcname, funcObject)
	case n.GetRenameStmt() != nil:
		rs := n.GetRenameStmt()
		var kind objectKind
		switch rs.RenameType {
		case pg_query.ObjectType_OBJECT_TYPE, pg_query.ObjectType_OBJECT_DOMAIN:
			kind = typeObject
		case pg_query.ObjectType_OBJECT_FUNCTION, pg_query.ObjectType_OBJECT_PROCEDURE,
			pg_query.ObjectType_OBJECT_ROUTINE, pg_query.ObjectType_OBJECT_AGGREGATE:
			kind = funcObject
		default:
			return err
		}
		if l := rs.Object.GetList(); l != nil && kind == typeObject {
			l.Items = lookup(l.Items, kind)
			rs.Newname = keyPrefix(l.Items) + rs.Newname
		} else if ow := rs.Object.GetObjectWithArgs(); ow != nil {
			ow.Objname = lookup(ow.Objname, kind)
			rs.Newname = keyPrefix(ow.Objname) + rs.Newname
		}
	}
	if err != nil {
		return err
	}
	typesAt := typesPositioned(node)
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg_query.TypeName:
			if e := mayLookIn(q, x.Names); e != nil && err == nil {
				err = e
				if typesAt {
					err = at(e, x.Location)
				}
			}
			x.Names = lookup(x.Names, typeObject)
		case *pg_query.FuncCall:
			if e := mayLookIn(q, x.Funcname); e != nil && err == nil {
				err = at(e, x.Location)
			}
			x.Funcname = lookup(x.Funcname, funcObject)
		case *pg_query.ObjectWithArgs:
			x.Objname = lookup(x.Objname, funcObject)
		}
	})
	return err
}

// typesPositioned reports whether node's type names are looked up where
// PostgreSQL has the statement's text, so that an error is positioned:
// in queries and table definitions, not in a routine's signature, a
// domain's base type or the names a DROP, COMMENT or GRANT lists.
func typesPositioned(node *pg_query.Node) bool {
	switch {
	case node.GetCreateFunctionStmt() != nil, node.GetCreateDomainStmt() != nil, node.GetDropStmt() != nil,
		node.GetCommentStmt() != nil, node.GetGrantStmt() != nil, node.GetAlterFunctionStmt() != nil,
		node.GetAlterOwnerStmt() != nil, node.GetAlterObjectSchemaStmt() != nil, node.GetRenameStmt() != nil,
		node.GetDefineStmt() != nil, node.GetCreateCastStmt() != nil, node.GetAlterEnumStmt() != nil,
		node.GetAlterDomainStmt() != nil, node.GetCompositeTypeStmt() != nil, node.GetCreateRangeStmt() != nil:
		return false
	}
	return true
}

// keyPrefix is the schema part ("s.") of a resolved name list's key, ""
// for public's.
func keyPrefix(names []*pg_query.Node) string {
	if len(names) != 1 {
		return ""
	}
	k := names[0].GetString_().GetSval()
	for i := 0; i < len(k); i++ {
		if k[i] == '.' {
			return k[:i+1]
		}
	}
	return ""
}

// nameParts splits a name list of one or two names into schema ("" when
// unqualified) and name.
func nameParts(names []*pg_query.Node) (schema, name string, ok bool) {
	for _, n := range names {
		if n.GetString_() == nil {
			return "", "", false
		}
	}
	switch len(names) {
	case 1:
		return "", names[0].GetString_().GetSval(), true
	case 2:
		return names[0].GetString_().GetSval(), names[1].GetString_().GetSval(), true
	}
	return "", "", false
}

// objectKey is the key of the existing type or function a name list
// names, when it is another schema's than public's; ok is false to leave
// the name as written (public's, pg_catalog's, a schema that does not
// exist, for the binder to report).
func objectKey(names []*pg_query.Node, kind objectKind, q Qualifier) (string, bool) {
	schema, name, ok := nameParts(names)
	if !ok {
		return "", false
	}
	if schema != "" {
		if kind == funcObject && !isIdentName(name) || schema == "public" || systemSchema(schema) || !q.SchemaExists(schema) {
			return "", false
		}
		return schema + "." + name, true
	}
	if kind == funcObject && !isIdentName(name) {
		return "", false // an operator's symbol: operators stay in public
	}
	of, ok := q.(ObjectFinder)
	if !ok || builtinObject(name, kind) {
		return "", false
	}
	for _, s := range q.SearchPath() {
		if s == "public" {
			return "", false
		}
		k := s + "." + name
		if kind == typeObject && of.HasType(k) || kind == funcObject && of.HasFunction(k) {
			return k, true
		}
	}
	return "", false
}

// builtinObject reports whether pg_catalog holds a type or function of
// the name, which PostgreSQL's search path finds first.
func builtinObject(name string, kind objectKind) bool {
	if kind == typeObject {
		_, err := value.TypeFromName(name, nil)
		return err == nil
	}
	_, ok := expr.BuiltinCatalog().OID(value.RegProc, name)
	return ok
}

// isIdentName reports whether name is an identifier rather than an
// operator's symbol.
func isIdentName(name string) bool {
	if name == "" {
		return false
	}
	c := name[0]
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// otherSchemaKey is the key of a name list qualified by a schema that
// exists other than public and the system schemas.
func (b *binder) otherSchemaKey(names []*pg_query.Node) (string, bool) {
	schema, name, ok := nameParts(names)
	q := b.qualifier()
	if !ok || q == nil || schema == "" || schema == "public" || systemSchema(schema) || !q.SchemaExists(schema) {
		return "", false
	}
	return schema + "." + name, true
}

// keyName is the name of a type or function without the schema of its
// key, as PostgreSQL names a column after it.
func keyName(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] == '.' {
			return name[i+1:]
		}
	}
	return name
}

// bareName is the name of the object keyed key without its schema.
func (b *binder) bareName(key string) string {
	if q := b.qualifier(); q != nil {
		_, n := q.SplitKey(key)
		return n
	}
	return key
}

// schemaOfName is 3F000 for a name list qualified by a schema that does
// not exist, as PostgreSQL reports a function or type named so.
func (b *binder) schemaOfName(names []*pg_query.Node, loc int32) error {
	schema, _, ok := nameParts(names)
	if !ok || len(names) != 2 || schema == "public" || schema == "" || schema[0] == 0 || schema[0] == '$' || systemSchema(schema) {
		// ("\x00…" and "$…" mark the binder's own calls.)
		return nil
	}
	if q := b.qualifier(); q != nil && q.SchemaExists(schema) {
		return nil
	}
	return b.stmt.errf(loc, pgerr.InvalidSchemaName, "schema %q does not exist", schema)
}

// missingSchemaOf is 3F000, without a position, for the key of a
// relation that does not exist whose schema does not exist either, as
// PostgreSQL looks up the schema of a qualified name first.
func (b *binder) missingSchemaOf(key string) error {
	if schema, ok := b.missingSchema(key); ok {
		return pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
	}
	return nil
}

// missingSchema is the schema part of key when no schema of that name
// exists (a name qualified by it is kept as written).
func (b *binder) missingSchema(key string) (string, bool) {
	q := b.qualifier()
	i := strings.IndexByte(key, '.')
	if q == nil || i <= 0 || systemSchema(key[:i]) || strings.HasPrefix(key, "pg_temp") || q.SchemaExists(key[:i]) {
		return "", false
	}
	return key[:i], true
}

// writtenName is the name of the relation keyed key without its schema,
// an existing schema's or one that does not exist.
func (b *binder) writtenName(key string) string {
	if _, ok := b.missingSchema(key); ok {
		return key[strings.IndexByte(key, '.')+1:]
	}
	return b.bareName(key)
}
