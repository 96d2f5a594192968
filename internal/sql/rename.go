package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// RenameRelations returns st with the relations it names renamed by
// rename, which gets each name as written (its schema, "" when
// unqualified, and its name) and returns the name to bind instead, or ok
// false to keep it; a name a WITH query of the statement defines is not
// passed. st itself is left as it is: it may be bound again. A session
// uses it to bind its temporary tables' names to the engine's.
func RenameRelations(st *Stmt, rename func(schema, name string) (string, bool, error)) (*Stmt, error) {
	if st.Node == nil {
		return st, nil
	}
	ctes := map[string]bool{}
	walk(st.Node.ProtoReflect(), func(m protoreflect.Message) {
		if c, ok := m.Interface().(*pg_query.CommonTableExpr); ok {
			ctes[c.Ctename] = true
		}
	})
	out := *st
	out.Node = proto.Clone(st.Node).(*pg_query.Node)
	// The relation a CREATE makes keeps its name.
	var made *pg_query.RangeVar
	switch n := out.Node; {
	case n.GetCreateStmt() != nil:
		made = n.GetCreateStmt().Relation
	case n.GetCreateTableAsStmt() != nil:
		made = n.GetCreateTableAsStmt().GetInto().GetRel()
	case n.GetViewStmt() != nil:
		made = n.GetViewStmt().View
	case n.GetCreateSeqStmt() != nil:
		made = n.GetCreateSeqStmt().Sequence
	}
	var err error
	walk(out.Node.ProtoReflect(), func(m protoreflect.Message) {
		rv, ok := m.Interface().(*pg_query.RangeVar)
		if !ok || err != nil || rv == made || rv.Schemaname == "" && ctes[rv.Relname] {
			return
		}
		if n, ok, e := rename(rv.Schemaname, rv.Relname); e != nil {
			err = e
		} else if ok {
			rv.Schemaname, rv.Relname = "", n
		}
	})
	// A column written pg_temp.table.column is the column of the
	// renamed relation, which the binder matches by its new name.
	walk(out.Node.ProtoReflect(), func(m protoreflect.Message) {
		cr, ok := m.Interface().(*pg_query.ColumnRef)
		if !ok || err != nil || len(cr.Fields) != 3 {
			return
		}
		sc, rel := cr.Fields[0].GetString_(), cr.Fields[1].GetString_()
		if sc == nil || rel == nil {
			return
		}
		if n, ok, e := rename(sc.Sval, rel.Sval); e != nil {
			err = e
		} else if ok {
			cr.Fields = append([]*pg_query.Node{pg_query.MakeStrNode(n)}, cr.Fields[2:]...)
		}
	})
	// DROP and COMMENT ON name their relations as lists of names.
	var lists []*pg_query.Node
	if d := out.Node.GetDropStmt(); d != nil && (d.RemoveType == pg_query.ObjectType_OBJECT_TABLE || d.RemoveType == pg_query.ObjectType_OBJECT_VIEW ||
		d.RemoveType == pg_query.ObjectType_OBJECT_SEQUENCE || d.RemoveType == pg_query.ObjectType_OBJECT_INDEX) {
		lists = d.Objects
	}
	col := 0
	if d := out.Node.GetDropStmt(); d != nil && d.RemoveType == pg_query.ObjectType_OBJECT_POLICY {
		lists, col = d.Objects, 1 // table, policy
	}
	if c := out.Node.GetCommentStmt(); c != nil && c.Object != nil {
		lists = []*pg_query.Node{c.Object}
		if c.Objtype == pg_query.ObjectType_OBJECT_COLUMN {
			col = 1
		}
	}
	for _, l := range lists {
		items := l.GetList().GetItems()
		if len(items) < 1+col || err != nil {
			continue
		}
		name := items[len(items)-1-col].GetString_()
		schema := ""
		if len(items) > 1+col {
			schema = items[len(items)-2-col].GetString_().GetSval()
		}
		if n, ok, e := rename(schema, name.GetSval()); e != nil {
			err = e
		} else if ok {
			name.Sval = n
			l.GetList().Items = items[len(items)-1-col:]
		}
	}
	if err != nil {
		return nil, err
	}
	if rs := out.Node.GetRenameStmt(); rs != nil && rs.RenameType == pg_query.ObjectType_OBJECT_TABLE && rs.Relation != nil && TempKey(rs.Relation.Relname) {
		// RENAME TO of a temporary table keeps it in its session's
		// temporary schema, as PostgreSQL's stays in pg_temp.
		rs.Newname = rs.Relation.Relname[:strings.IndexByte(rs.Relation.Relname, '.')+1] + rs.Newname
	}
	return &out, nil
}

// TempKey reports whether name is the engine's key of a session's
// temporary object ("pg_temp_3.t"), which no statement may write.
func TempKey(name string) bool {
	return strings.HasPrefix(name, "pg_temp_") && strings.Contains(name, ".")
}

// walk calls fn with m and every message within it.
func walk(m protoreflect.Message, fn func(protoreflect.Message)) {
	fn(m)
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				walk(l.Get(i).Message(), fn)
			}
		case !fd.IsMap() && fd.Message() != nil:
			walk(v.Message(), fn)
		}
		return true
	})
}
