package exec

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// limitCross returns in, the input of a LIMIT that needs its first need
// rows, with a cross join it reads through projections (an inner join
// without keys or condition) taking only the first need rows of each
// side: join pairs them left-major, so its first need rows come from
// those alone, and SELECT … FROM a, b, c LIMIT 1 over large tables
// materialises no product, as PostgreSQL's nested loop stops early.
// Otherwise in itself.
func limitCross(in plan.Node, need int64) plan.Node {
	switch n := in.(type) {
	case *plan.Join:
		if n.Kind != plan.InnerJoin || len(n.LeftKeys) > 0 || n.Residual != nil {
			return in
		}
		c := *n
		c.Left, c.Right = firstRows(n.Left, need), firstRows(n.Right, need)
		return &c
	case *plan.Project:
		if r := limitCross(n.Input, need); r != n.Input {
			c := *n
			c.Input = r
			return &c
		}
	}
	return in
}

// firstRows is the first need rows of in.
func firstRows(in plan.Node, need int64) plan.Node {
	return &plan.Limit{Input: in, Count: &expr.Const{V: value.NewInt(value.Int8, need), T: value.Type{Kind: value.Int8, Mod: -1}}}
}
