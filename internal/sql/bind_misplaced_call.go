package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// callClause finds where the call at loc stands in the statement as
// written, for PostgreSQL's "… are not allowed in WHERE" errors: the
// clause of its own query level (WHERE, HAVING, GROUP BY, JOIN
// conditions, LIMIT, OFFSET), "aggregate" inside an aggregate's
// arguments, or "" when none of these holds (a select list, or the call
// was not found).
func (b *binder) callClause(loc int32) string {
	r, err := pg_query.Parse(b.stmt.SQL)
	if err != nil || len(r.Stmts) != 1 {
		return ""
	}
	where, found := "", false
	var walk func(m protoreflect.Message, ctx string)
	walk = func(m protoreflect.Message, ctx string) {
		if found {
			return
		}
		if n, ok := m.Interface().(*pg_query.Node); ok {
			switch {
			case n.GetSelectStmt() != nil, n.GetSubLink() != nil:
				ctx = ""
			case n.GetFuncCall() != nil:
				if n.GetFuncCall().Location == loc {
					where, found = ctx, true
					return
				}
				if aggCall(n) != nil && n.GetFuncCall().Over == nil {
					ctx = "aggregate"
				}
			}
			m = n.ProtoReflect()
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.Kind() != protoreflect.MessageKind || fd.IsMap() {
				return true
			}
			c := ctx
			switch fd.Name() {
			case "where_clause":
				c = "WHERE"
			case "having_clause":
				c = "HAVING"
			case "group_clause":
				c = "GROUP BY"
			case "limit_count":
				c = "LIMIT"
			case "limit_offset":
				c = "OFFSET"
			case "quals":
				if _, ok := m.Interface().(*pg_query.JoinExpr); ok {
					c = "JOIN conditions"
				}
			case "over":
				c = ""
			}
			if fd.IsList() {
				for i := 0; i < v.List().Len(); i++ {
					walk(v.List().Get(i).Message(), c)
				}
			} else {
				walk(v.Message(), c)
			}
			return !found
		})
	}
	walk(r.Stmts[0].Stmt.ProtoReflect(), "")
	return where
}

// misplacedWindow is PostgreSQL's 42P20 error for a window function
// outside a select list and ORDER BY, named by the clause it stands in.
func (b *binder) misplacedWindow(loc int32) *pgerr.Error {
	switch c := b.callClause(loc); c {
	case "aggregate":
		return b.stmt.errf(loc, pgerr.GroupingError, "aggregate function calls cannot contain window function calls")
	case "":
		return b.stmt.errf(loc, "42P20", "window functions are only allowed in the select list")
	default:
		return b.stmt.errf(loc, "42P20", "window functions are not allowed in %s", c)
	}
}

// misplacedAggregate is PostgreSQL's 42803 error for an aggregate where
// none may stand, named by the clause it stands in.
func (b *binder) misplacedAggregate(loc int32) *pgerr.Error {
	switch c := b.callClause(loc); c {
	case "WHERE", "GROUP BY", "JOIN conditions", "LIMIT", "OFFSET":
		return b.stmt.errf(loc, pgerr.GroupingError, "aggregate functions are not allowed in %s", c)
	}
	return b.stmt.errf(loc, pgerr.GroupingError, "aggregate functions are not allowed here")
}
