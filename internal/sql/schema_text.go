package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// ResolvedText writes a statement whose names QualifyNames resolved to
// keys back as SQL that names every object of a schema other than public
// qualified: the text reads the same objects under any search path. A
// view whose table moves to another schema is kept as this text, with
// the table's new key (alter_views.go).
func ResolvedText(st *Stmt, q Qualifier) (string, error) {
	node := proto.Clone(st.Node).(*pg_query.Node)
	split := func(key string) (string, string, bool) {
		s, n := q.SplitKey(key)
		return s, n, s != "public" && s+"."+n == key
	}
	names := func(list []*pg_query.Node) []*pg_query.Node {
		if len(list) != 1 || list[0].GetString_() == nil {
			return list
		}
		if s, n, ok := split(list[0].GetString_().Sval); ok {
			return []*pg_query.Node{pg_query.MakeStrNode(s), pg_query.MakeStrNode(n)}
		}
		return list
	}
	walk(node.ProtoReflect(), func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg_query.RangeVar:
			if x.Schemaname == "" {
				if s, n, ok := split(x.Relname); ok {
					x.Schemaname, x.Relname = s, n
				}
			}
		case *pg_query.ColumnRef:
			if len(x.Fields) >= 2 && x.Fields[0].GetString_() != nil {
				if s, n, ok := split(x.Fields[0].GetString_().Sval); ok {
					x.Fields = append([]*pg_query.Node{pg_query.MakeStrNode(s), pg_query.MakeStrNode(n)}, x.Fields[1:]...)
				}
			}
		case *pg_query.TypeName:
			x.Names = names(x.Names)
		case *pg_query.FuncCall:
			x.Funcname = names(x.Funcname)
		}
	})
	return pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: []*pg_query.RawStmt{{Stmt: node}}})
}
