package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
)

// frameOffsetArg returns a window frame's offset n with its bare
// subqueries, `(SELECT 1)`, replaced by their expressions, which are their
// values, as PostgreSQL evaluates them once. Any other subquery there is
// refused (0A000): PostgreSQL runs it once per scan of the window, which
// the window operators here do not.
func (b *binder) frameOffsetArg(n *pg_query.Node) (*pg_query.Node, error) {
	if n == nil {
		return n, nil
	}
	n = proto.Clone(n).(*pg_query.Node)
	if loc := inlineConstSubqueries(n); loc >= 0 {
		return nil, b.refuse(loc, "a subquery in a window frame offset is not supported").
			WithHint("write the offset as a constant")
	}
	return n, nil
}
