package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// callClause finds where the call at loc stands in the statement as
// written, for PostgreSQL's "… are not allowed in WHERE" errors: the
// clause of its own query level (WHERE, HAVING, GROUP BY, JOIN
// conditions, LIMIT, OFFSET, RETURNING, VALUES, an UPDATE's SET, MERGE
// WHEN conditions), "aggregate" inside an aggregate's
// arguments, or "" when none of these holds (a select list, or the call
// was not found).
func (b *binder) callClause(loc int32) string {
	return b.callClauseAt(loc, 0)
}

// callClauseAt is callClause for a call that belongs to the query depth
// levels out from where it is written (an aggregate of an enclosing
// query's columns): the clause that query's subquery stands in.
func (b *binder) callClauseAt(loc int32, depth int) string {
	r, err := pg_query.Parse(b.stmt.SQL)
	if err != nil || len(r.Stmts) != 1 {
		return ""
	}
	where, found := "", false
	// levels holds the clause of each query level around the walk, the
	// innermost last.
	var walk func(m protoreflect.Message, levels []string)
	walk = func(m protoreflect.Message, levels []string) {
		if found {
			return
		}
		ctx := levels[len(levels)-1]
		if n, ok := m.Interface().(*pg_query.Node); ok {
			if f := n.GetFuncCall(); f != nil {
				if f.Location == loc {
					if i := len(levels) - 1 - depth; i >= 0 {
						where = levels[i]
					}
					found = true
					return
				}
				if aggCall(n) != nil && f.Over == nil {
					ctx = "aggregate"
				}
			}
			m = n.ProtoReflect()
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.Kind() != protoreflect.MessageKind || fd.IsMap() {
				return true
			}
			c, outer := ctx, levels[:len(levels)-1]
			switch fd.Name() {
			case "subselect", "subquery", "ctequery":
				// A query level of its own.
				c, outer = "", levels
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
			case "returning_list":
				c = "RETURNING"
			case "values_lists", "values":
				c = "VALUES"
			case "condition":
				c = "MERGE WHEN conditions"
			case "join_condition":
				c = "JOIN conditions"
			case "target_list":
				// An UPDATE's SET (also ON CONFLICT's and MERGE's); a
				// SELECT's list stays the select list.
				switch m.Interface().(type) {
				case *pg_query.UpdateStmt, *pg_query.OnConflictClause, *pg_query.MergeWhenClause:
					c = "UPDATE"
				}
			}
			inner := append(outer[:len(outer):len(outer)], c)
			if fd.IsList() {
				for i := 0; i < v.List().Len(); i++ {
					walk(v.List().Get(i).Message(), inner)
				}
			} else {
				walk(v.Message(), inner)
			}
			return !found
		})
	}
	walk(r.Stmts[0].Stmt.ProtoReflect(), []string{""})
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
	return b.misplacedAggregateAt(loc, 0)
}

// misplacedAggregateAt is misplacedAggregate for an aggregate of the
// query depth levels out, named by the clause its subquery stands in.
func (b *binder) misplacedAggregateAt(loc int32, depth int) *pgerr.Error {
	switch c := b.callClauseAt(loc, depth); c {
	case "WHERE", "GROUP BY", "JOIN conditions", "LIMIT", "OFFSET", "RETURNING", "VALUES", "UPDATE", "MERGE WHEN conditions":
		return b.stmt.errf(loc, pgerr.GroupingError, "aggregate functions are not allowed in %s", c)
	}
	return b.stmt.errf(loc, pgerr.GroupingError, "aggregate functions are not allowed here")
}
