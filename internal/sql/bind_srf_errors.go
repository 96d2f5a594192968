package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// srfHint is PostgreSQL's hint for a set-returning call where it is not
// allowed.
const srfHint = "You might be able to move the set-returning function into a LATERAL FROM item."

// srfCallError is the error for a set-returning call f that was not moved
// to FROM: PostgreSQL's, found from where the call stands in the
// statement as written (WHERE, HAVING, JOIN conditions, LIMIT, OFFSET,
// VALUES, CASE, COALESCE, an aggregate's or a window function's
// arguments), else a refusal.
func (b *binder) srfCallError(f *pg_query.FuncCall, name string) *pgerr.Error {
	refusal := b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "%s is only supported in FROM or in a select list", name)
	r, err := pg_query.Parse(b.stmt.SQL)
	if err != nil || len(r.Stmts) != 1 {
		return refusal
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
			case n.GetCaseExpr() != nil:
				ctx = "CASE"
			case n.GetCoalesceExpr() != nil:
				ctx = "COALESCE"
			case n.GetFuncCall() != nil:
				g := n.GetFuncCall()
				if g.Location == f.Location && isSRFCall(n) {
					where, found = ctx, true
					return
				}
				switch {
				case g.Over != nil:
					ctx = "window"
				case aggCall(n) != nil:
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
			case "limit_count":
				c = "LIMIT"
			case "limit_offset":
				c = "OFFSET"
			case "values_lists":
				c = "VALUES"
			case "quals":
				if _, ok := m.Interface().(*pg_query.JoinExpr); ok {
					c = "JOIN conditions"
				}
			case "over":
				c = "" // a window's PARTITION BY and ORDER BY
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
	switch where {
	case "aggregate":
		return b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "aggregate function calls cannot contain set-returning function calls").WithHint(srfHint)
	case "window":
		return b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "window function calls cannot contain set-returning function calls").WithHint(srfHint)
	case "CASE", "COALESCE":
		return b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", where).WithHint(srfHint)
	case "":
		return refusal
	}
	return b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "set-returning functions are not allowed in %s", where)
}
