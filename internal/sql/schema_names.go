package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Qualifier maps the relation names a statement writes, qualified by a
// schema or not, to the catalog's keys: a relation of schema public is
// keyed by its name, one of another schema s by "s.name". A session
// resolves unqualified names through its search_path.
type Qualifier interface {
	// RelationKey is the key of the existing relation schema.name
	// names (schema "" when unqualified); ok false leaves the name as
	// written, for the binder to report or to find among the system
	// catalogs and WITH queries.
	RelationKey(schema, name string) (key string, ok bool, err error)
	// CreationKey is the key of the relation a statement creates as
	// schema.name: an unqualified name goes to the search path's first
	// schema that exists (3F000 without one), a qualified one to its
	// schema, which must exist (3F000).
	CreationKey(schema, name string) (string, error)
	// SchemaExists reports whether the schema name exists.
	SchemaExists(name string) bool
	// SplitKey is the schema and the name of a relation's key.
	SplitKey(key string) (schema, name string)
	// SearchPath is the search path's schemas that exist, pg_catalog
	// left out.
	SearchPath() []string
}

// NameResolver is a Catalog that resolves relation names written in text
// (nextval('s.seq'), 's.t'::regclass) as Qualifier does.
type NameResolver interface {
	Qualifier() Qualifier
}

// systemSchema reports whether the relations of schema are the system
// catalogs' (or a session's temporary ones), which the binder resolves.
func systemSchema(schema string) bool {
	return schema == "pg_catalog" || schema == "information_schema" || schema == "pg_temp"
}

// QualifyNames returns st with every relation it names replaced by its
// key, as q resolves it, unqualified: those it creates (CREATE TABLE,
// VIEW, MATERIALIZED VIEW, SEQUENCE, the index of CREATE INDEX, the new
// name of ALTER … RENAME TO) in their schemas, those it reads, changes
// or drops through the search path. st itself is left as it is.
func QualifyNames(st *Stmt, q Qualifier) (*Stmt, error) {
	if st.Node == nil {
		return st, nil
	}
	if tp, ok := q.(TempPath); ok {
		own, _ := tp.TempSchema()
		st = AliasTempSchema(st, own)
	}
	ctes := map[string]bool{}
	walk(st.Node.ProtoReflect(), func(m protoreflect.Message) {
		if c, ok := m.Interface().(*pg_query.CommonTableExpr); ok {
			ctes[c.Ctename] = true
		}
	})
	out := *st
	out.Node = proto.Clone(st.Node).(*pg_query.Node)
	at := func(err error, loc int32) error {
		pe := pgerr.Wrap(err)
		if pe.Position == 0 && loc >= 0 {
			pe = pe.At(st.SQL, int(loc))
		}
		return pe
	}
	made := map[*pg_query.RangeVar]bool{}
	var err error
	create := func(rv *pg_query.RangeVar) {
		if rv == nil || err != nil {
			return
		}
		made[rv] = true
		if rv.Relpersistence == "t" || rv.Schemaname == "pg_temp" {
			return // the session's own (temp.go)
		}
		k, e := q.CreationKey(rv.Schemaname, rv.Relname)
		if e != nil {
			err = at(e, rv.Location)
			return
		}
		rv.Schemaname, rv.Relname = "", k
	}
	switch n := out.Node; {
	case n.GetCreateStmt() != nil:
		create(n.GetCreateStmt().Relation)
		// CREATE on the schema comes before the names the definition
		// looks up (its columns' types), as in PostgreSQL.
		if cc, ok := q.(CreationChecker); ok && err == nil && made[n.GetCreateStmt().Relation] {
			if rv := n.GetCreateStmt().Relation; rv.Schemaname == "" && rv.Relpersistence != "t" {
				if e := cc.MayCreate(rv.Relname); e != nil {
					err = at(e, rv.Location)
				}
			}
		}
	case n.GetCreateTableAsStmt() != nil:
		create(n.GetCreateTableAsStmt().GetInto().GetRel())
	case n.GetViewStmt() != nil:
		create(n.GetViewStmt().View)
	case n.GetCreateSeqStmt() != nil:
		create(n.GetCreateSeqStmt().Sequence)
	}
	// resolved holds the schema part of each resolved key: what a name
	// made beside that relation (an index, a new name) takes.
	resolved := map[*pg_query.RangeVar]string{}
	if ct := out.Node.GetCompositeTypeStmt(); ct != nil {
		made[ct.Typevar] = true // a type's name, which the binder reads
	}
	into := out.Node.GetSelectStmt().GetIntoClause().GetRel()
	positioned := positionedNames(out.Node)
	walk(out.Node.ProtoReflect(), func(m protoreflect.Message) {
		rv, ok := m.Interface().(*pg_query.RangeVar)
		if !ok || err != nil || made[rv] || rv.Schemaname == "" && ctes[rv.Relname] || systemSchema(rv.Schemaname) {
			return
		}
		name := rv.Relname
		k, ok, e := q.RelationKey(rv.Schemaname, name)
		switch {
		case e != nil && rv == into && pgerr.Code(e) == pgerr.InsufficientPrivilege:
			// SELECT INTO's new table: its schema is checked as a
			// creation's, without a position, as PostgreSQL checks it.
			k = name
			if rv.Schemaname != "public" {
				k = rv.Schemaname + "." + name
			}
			rv.Schemaname, rv.Relname = "", k
			resolved[rv] = k[:len(k)-len(name)]
		case e != nil && pgerr.Code(e) == pgerr.InsufficientPrivilege && !positioned[rv]:
			err = e
		case e != nil:
			err = at(e, rv.Location)
		case ok:
			rv.Schemaname, rv.Relname = "", k
			resolved[rv] = k[:len(k)-len(name)]
		}
	})
	// A column named schema.table.column is the column of that table,
	// named by the table's key, which the binder matches with FROM items
	// without an alias.
	walk(out.Node.ProtoReflect(), func(m protoreflect.Message) {
		cr, ok := m.Interface().(*pg_query.ColumnRef)
		if !ok || len(cr.Fields) != 3 {
			return
		}
		sc, rel := cr.Fields[0].GetString_(), cr.Fields[1].GetString_()
		if sc == nil || rel == nil || systemSchema(sc.Sval) || !q.SchemaExists(sc.Sval) {
			return
		}
		if k, ok, e := q.RelationKey(sc.Sval, rel.Sval); ok && e == nil {
			cr.Fields = append([]*pg_query.Node{pg_query.MakeStrNode(k)}, cr.Fields[2:]...)
		}
	})
	if err == nil {
		err = qualifyObjects(out.Node, q, at)
	}
	if err != nil {
		return nil, err
	}
	switch n := out.Node; {
	case n.GetIndexStmt() != nil:
		is := n.GetIndexStmt()
		if p := resolved[is.Relation]; p != "" && is.Idxname != "" {
			is.Idxname = p + is.Idxname
		}
	case n.GetClusterStmt() != nil:
		// An index a statement names beside its table is of the table's
		// schema: CLUSTER s.t USING t_pkey is s.t_pkey.
		cs := n.GetClusterStmt()
		if p := resolved[cs.Relation]; p != "" && cs.Indexname != "" {
			cs.Indexname = p + cs.Indexname
		}
	case n.GetAlterTableStmt() != nil:
		as := n.GetAlterTableStmt()
		if p := resolved[as.Relation]; p != "" {
			for _, c := range as.Cmds {
				switch c := c.GetAlterTableCmd(); {
				case c.GetSubtype() == pg_query.AlterTableType_AT_ClusterOn:
					c.Name = p + c.Name
				case c.GetDef().GetReplicaIdentityStmt().GetName() != "":
					ri := c.GetDef().GetReplicaIdentityStmt()
					ri.Name = p + ri.Name
				}
			}
		}
	case n.GetRenameStmt() != nil:
		rs := n.GetRenameStmt()
		switch rs.RenameType {
		case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW, pg_query.ObjectType_OBJECT_MATVIEW,
			pg_query.ObjectType_OBJECT_SEQUENCE, pg_query.ObjectType_OBJECT_INDEX, pg_query.ObjectType_OBJECT_FOREIGN_TABLE:
			if rs.Relation != nil {
				if p := resolved[rs.Relation]; (p != "" || rs.Relation.Schemaname == "") && !TempKey(rs.Relation.Relname) {
					// A new name of public's must not read as another
					// schema's key.
					k, e := q.CreationKey(schemaOfPrefix(p), rs.Newname)
					if e != nil {
						return nil, e
					}
					rs.Newname = k
				}
			}
		}
	}
	// DROP and COMMENT ON name their relations as lists of names.
	var lists []*pg_query.Node
	missingOK := false
	if d := out.Node.GetDropStmt(); d != nil {
		switch d.RemoveType {
		case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW, pg_query.ObjectType_OBJECT_MATVIEW,
			pg_query.ObjectType_OBJECT_SEQUENCE, pg_query.ObjectType_OBJECT_INDEX, pg_query.ObjectType_OBJECT_FOREIGN_TABLE:
			lists, missingOK = d.Objects, d.MissingOk
		}
	}
	col := 0
	if d := out.Node.GetDropStmt(); d != nil {
		switch d.RemoveType {
		case pg_query.ObjectType_OBJECT_POLICY, pg_query.ObjectType_OBJECT_TRIGGER, pg_query.ObjectType_OBJECT_RULE:
			lists, missingOK, col = d.Objects, d.MissingOk, 1 // table, member
		}
	}
	if c := out.Node.GetCommentStmt(); c != nil && c.Object != nil {
		switch c.Objtype {
		case pg_query.ObjectType_OBJECT_TABCONSTRAINT, pg_query.ObjectType_OBJECT_TRIGGER,
			pg_query.ObjectType_OBJECT_RULE, pg_query.ObjectType_OBJECT_POLICY:
			lists, col = []*pg_query.Node{c.Object}, 1 // table, member
		case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW, pg_query.ObjectType_OBJECT_MATVIEW,
			pg_query.ObjectType_OBJECT_SEQUENCE, pg_query.ObjectType_OBJECT_INDEX, pg_query.ObjectType_OBJECT_COLUMN:
			lists = []*pg_query.Node{c.Object}
			if c.Objtype == pg_query.ObjectType_OBJECT_COLUMN {
				col = 1
			}
		}
	}
	for _, l := range lists {
		items := l.GetList().GetItems()
		if len(items) < 1+col || len(items) > 2+col {
			continue
		}
		name := items[len(items)-1-col].GetString_()
		schema := ""
		if len(items) > 1+col {
			schema = items[0].GetString_().GetSval()
		}
		if systemSchema(schema) {
			continue
		}
		if schema != "" && !missingOK && !q.SchemaExists(schema) {
			return nil, pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
		}
		k, ok, e := q.RelationKey(schema, name.GetSval())
		if e != nil {
			return nil, e
		}
		if ok {
			if col == 1 && out.Node.GetDropStmt() != nil {
				var written []string
				for _, it := range items[:len(items)-1] {
					written = append(written, it.GetString_().GetSval())
				}
				out.MemberTable = strings.Join(written, ".")
			}
			name.Sval = k
			l.GetList().Items = items[len(items)-1-col:]
		}
	}
	return &out, nil
}

// refName is the name a FROM item reading the relation keyed key, without
// an alias, is referred to by: the relation's name, without its schema.
func (b *binder) refName(key string) string {
	if nr, ok := b.cat.(NameResolver); ok {
		if q := nr.Qualifier(); q != nil {
			_, n := q.SplitKey(key)
			return n
		}
	}
	return key
}

// bindCurrentSchema binds current_schema() and current_schemas(bool):
// the search path of the session binding the statement (a statement is
// bound again when it changes), as constants. ok is false for other
// functions, and for a catalog without a search path.
func (b *binder) bindCurrentSchema(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, bool, error) {
	if name != "current_schema" && name != "current_schemas" || len(f.Funcname) > 1 && f.Funcname[0].GetString_().GetSval() != "pg_catalog" {
		return nil, false, nil
	}
	nr, ok := b.cat.(NameResolver)
	if !ok || nr.Qualifier() == nil || b.forView {
		return nil, false, nil
	}
	path, implicit := nr.Qualifier().SearchPath(), []string{"pg_catalog"}
	if tp, ok := nr.Qualifier().(TempPath); ok {
		path, implicit = withTempSchema(tp, path)
	}
	if name == "current_schema" {
		if len(f.Args) != 0 {
			return nil, false, nil
		}
		if len(path) == 0 {
			return &expr.Const{V: value.Null, T: value.TextType}, true, nil
		}
		return &expr.Const{V: value.NewText(value.Text, path[0]), T: value.TextType}, true, nil
	}
	if len(f.Args) != 1 {
		return nil, false, nil
	}
	arg, err := b.bindExpr(s, f.Args[0])
	if err != nil {
		return nil, true, err
	}
	if arg, err = expr.Coerce(arg, value.BoolType, false); err != nil {
		return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	names := func(all bool) value.Value {
		var vs []value.Value
		if all {
			for _, p := range implicit {
				vs = append(vs, value.NewText(value.Text, p))
			}
		}
		for _, p := range path {
			vs = append(vs, value.NewText(value.Text, p))
		}
		return value.NewArray(value.ArrayOf(value.Text), vs)
	}
	t := value.ArrayType(value.Text)
	return &expr.Case{Whens: []expr.When{{Cond: arg, Result: &expr.Const{V: names(true), T: t}}},
		Else: &expr.Const{V: names(false), T: t}, T: t}, true, nil
}

// textRelationKey reads a relation's name written in text ('s.seq'), as
// regclass's input reads it, and resolves it to its key.
func (b *binder) textRelationKey(text string) (string, error) {
	if _, ok := b.cat.(TempCatalog); ok {
		parts, err := expr.RelationParts(text)
		if err != nil {
			return "", err
		}
		schema := ""
		if len(parts) == 2 {
			schema = parts[0]
		}
		if k, ok := b.tempRelation(schema, parts[len(parts)-1]); ok && len(parts) <= 2 {
			return k, nil
		}
		if schema == "pg_temp" {
			return "", pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", text)
		}
	}
	nr, ok := b.cat.(NameResolver)
	if !ok || nr.Qualifier() == nil {
		// A view's statement, bound where it is read, names another
		// schema's relation by its key.
		if parts, err := expr.RelationParts(text); err == nil && len(parts) == 2 && !systemSchema(parts[0]) && parts[0] != "public" {
			k := parts[0] + "." + parts[1]
			if _, ok := b.relationKind(k); ok {
				return k, nil
			}
		}
		return expr.RelationName(text)
	}
	parts, err := expr.RelationParts(text)
	if err != nil {
		return "", err
	}
	schema, name := "", parts[len(parts)-1]
	if len(parts) == 2 {
		schema = parts[0]
		if systemSchema(schema) {
			return expr.RelationName(text)
		}
		if !nr.Qualifier().SchemaExists(schema) {
			return "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
		}
	}
	k, ok, err := nr.Qualifier().RelationKey(schema, name)
	if err != nil || !ok {
		return name, err
	}
	return k, nil
}

// namesRelationKey resolves a relation named by a list of names (as
// OWNED BY s.t.c names its table s.t) to its key, as a RangeVar's name
// is resolved: a schema that does not exist is 3F000; a name the
// qualifier does not resolve is left as written, for the caller's error.
func (b *binder) namesRelationKey(schema, name string) (string, error) {
	q := b.qualifier()
	if q == nil || systemSchema(schema) {
		return name, nil
	}
	if schema != "" && !q.SchemaExists(schema) {
		return "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", schema)
	}
	k, ok, err := q.RelationKey(schema, name)
	if err != nil || !ok {
		return name, err
	}
	return k, nil
}

// qualifier is the catalog's Qualifier, nil for a catalog without schemas.
func (b *binder) qualifier() Qualifier {
	if nr, ok := b.cat.(NameResolver); ok {
		return nr.Qualifier()
	}
	return nil
}

// relationsOf are the keys of the catalog's relations of schema, in order.
func (b *binder) relationsOf(schema string) []string {
	all := b.relationNames()
	q := b.qualifier()
	if q == nil {
		return all
	}
	var out []string
	for _, k := range all {
		if s, _ := q.SplitKey(k); s == schema {
			out = append(out, k)
		}
	}
	return out
}

// schemaOfPrefix is the schema of a key's prefix ("s." is s, "" public).
func schemaOfPrefix(p string) string {
	if p == "" {
		return "public"
	}
	return p[:len(p)-1]
}
