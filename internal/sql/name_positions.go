package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// positionedNames are the relation names of node whose lookup PostgreSQL
// makes in parse analysis, with the statement's text at hand: a schema
// without USAGE is reported at the name's position there, and without a
// position where a utility statement looks the name up (TRUNCATE, ALTER
// TABLE, CREATE INDEX, COPY's table, INHERITS, REFERENCES…).
func positionedNames(node *pg_query.Node) map[*pg_query.RangeVar]bool {
	out := map[*pg_query.RangeVar]bool{}
	mark := func(m proto.Message) {
		if m == nil || !m.ProtoReflect().IsValid() {
			return
		}
		walk(m.ProtoReflect(), func(m2 protoreflect.Message) {
			if rv, ok := m2.Interface().(*pg_query.RangeVar); ok {
				out[rv] = true
			}
		})
	}
	switch n := node; {
	case n.GetSelectStmt() != nil, n.GetInsertStmt() != nil, n.GetUpdateStmt() != nil, n.GetDeleteStmt() != nil,
		n.GetMergeStmt() != nil, n.GetExplainStmt() != nil, n.GetPrepareStmt() != nil, n.GetDeclareCursorStmt() != nil,
		n.GetViewStmt() != nil, n.GetCreateTableAsStmt() != nil:
		mark(n)
	case n.GetCopyStmt() != nil:
		mark(n.GetCopyStmt().GetQuery())
	case n.GetRuleStmt() != nil:
		for _, a := range n.GetRuleStmt().GetActions() {
			mark(a)
		}
	case n.GetCreateStmt() != nil:
		for _, e := range n.GetCreateStmt().GetTableElts() {
			mark(e.GetTableLikeClause())
		}
	}
	return out
}
