package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// IndexForAlteredTable rewrites text, a CREATE INDEX statement on the
// table named old, for the table as an ALTER TABLE leaves it: named
// schema.name, its columns renamed as renamed says (old name to new) in
// the index's elements, INCLUDE list and predicate.
func IndexForAlteredTable(text, old, schema, name string, renamed map[string]string) (string, error) {
	tree, err := parseTree(text)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetIndexStmt() == nil {
		return "", pgerr.New(pgerr.Internal, "cannot read the statement of an index: %q", text)
	}
	is := tree.Stmts[0].Stmt.GetIndexStmt()
	is.Relation.Schemaname, is.Relation.Relname = schema, name
	walkNodes(tree.Stmts[0].Stmt.ProtoReflect(), func(n *pg_query.Node) {
		if el := n.GetIndexElem(); el != nil && el.Name != "" {
			if to, ok := renamed[el.Name]; ok {
				el.Name = to
			}
			return
		}
		cr := n.GetColumnRef()
		if cr == nil {
			return
		}
		fs := cr.Fields
		if last := fs[len(fs)-1].GetString_(); last != nil {
			if to, ok := renamed[last.Sval]; ok {
				last.Sval = to
			}
		}
		if len(fs) >= 2 {
			if q := fs[len(fs)-2].GetString_(); q != nil && q.Sval == old {
				q.Sval = name
				if len(fs) == 3 {
					fs[0].GetString_().Sval = schema
				}
			}
		}
	})
	out, err := pg_query.Deparse(&pg_query.ParseResult{Version: treeVersion(), Stmts: tree.Stmts})
	if err != nil {
		return "", pgerr.New(pgerr.Internal, "cannot write the statement of an index: %v", err)
	}
	return out, nil
}
