package plan

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// AggCall is one aggregate function call of an Aggregate.
type AggCall struct {
	Name string    // the SQL name as written: count, sum, variance, …
	Func AggFunc   // the catalog's entry; AggCountStar for count(*)
	Star bool      // count(*)
	Arg  expr.Expr // over the input row; nil for count(*); y of corr(y, x); the WITHIN GROUP key
	Sep  expr.Expr // string_agg's separator
	X    expr.Expr // x of the two-argument aggregates (corr(y, x), …)
	// Exact sums the two-argument aggregates' pairs exactly, as a view
	// maintains them, where an ad-hoc query follows PostgreSQL's
	// accumulation in input order.
	Exact    bool
	Direct   expr.Expr // percentile_cont's and percentile_disc's fraction; a hypothetical-set aggregate's row (a RowCons); constant per group
	Distinct bool
	Filter   expr.Expr // FILTER (WHERE …), nil for none
	OrderBy  []SortKey // string_agg / array_agg (… ORDER BY …)
	Type     value.Type
	// User is a user-defined aggregate's fold (Func AggUser); its
	// arguments are Arg, a record of them when there are several.
	User *UserAgg
}

// Aggregate groups its input by the GroupBy expressions (none: one group,
// which exists even over an empty input) and outputs, per group, the group
// key's values followed by each aggregate's result.
type Aggregate struct {
	Input   Node
	GroupBy []expr.Expr
	Aggs    []AggCall
	Cols    []Column
}

func (n *Aggregate) Columns() []Column { return n.Cols }
func (n *Aggregate) Children() []Node  { return []Node{n.Input} }
func (*Aggregate) node()               {}

// String renders the call as SQL.
func (a *AggCall) String() string {
	if a.Star {
		return a.Name + "(*)"
	}
	var b strings.Builder
	b.WriteString(a.Name)
	b.WriteByte('(')
	if a.Func.Has(AggOrderedSet) {
		if a.Direct != nil {
			b.WriteString(a.Direct.String())
		}
		b.WriteString(") WITHIN GROUP (ORDER BY ")
		writeSortKeys(&b, a.OrderBy)
		b.WriteByte(')')
		if a.Filter != nil {
			b.WriteString(" FILTER (WHERE " + a.Filter.String() + ")")
		}
		return b.String()
	}
	if a.Distinct {
		b.WriteString("DISTINCT ")
	}
	b.WriteString(a.Arg.String())
	if a.Sep != nil {
		b.WriteString(", " + a.Sep.String())
	}
	if a.X != nil {
		b.WriteString(", " + a.X.String())
	}
	if len(a.OrderBy) > 0 {
		b.WriteString(" ORDER BY ")
		writeSortKeys(&b, a.OrderBy)
	}
	b.WriteByte(')')
	if a.Filter != nil {
		b.WriteString(" FILTER (WHERE " + a.Filter.String() + ")")
	}
	return b.String()
}

// writeSortKeys writes keys as an ORDER BY list.
func writeSortKeys(b *strings.Builder, keys []SortKey) {
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.Expr.String())
		if k.Desc {
			b.WriteString(" DESC")
		}
	}
}

func describeAggregate(n *Aggregate) string {
	var parts []string
	for _, g := range n.GroupBy {
		parts = append(parts, g.String())
	}
	s := "Aggregate"
	if len(parts) > 0 {
		s += " group=[" + strings.Join(parts, ", ") + "]"
	}
	parts = parts[:0]
	for i := range n.Aggs {
		parts = append(parts, n.Aggs[i].String())
	}
	return s + " " + strings.Join(parts, ", ")
}

// TopK keeps, per partition of its input (one partition when Partition is
// empty), the rows at positions Offset+1 … Offset+Limit of the order given
// by Order, ties broken by the whole row. It is a view's ORDER BY … LIMIT,
// and DISTINCT ON (Limit 1 per partition).
type TopK struct {
	Input         Node
	Partition     []expr.Expr
	Order         []SortKey
	Limit, Offset int64
}

func (n *TopK) Columns() []Column { return n.Input.Columns() }
func (n *TopK) Children() []Node  { return []Node{n.Input} }
func (*TopK) node()               {}

func describeTopK(n *TopK) string {
	var parts []string
	for _, k := range n.Order {
		s := k.Expr.String()
		if k.Desc {
			s += " DESC"
		}
		parts = append(parts, s)
	}
	s := "TopK order=[" + strings.Join(parts, ", ") + "]"
	if len(n.Partition) > 0 {
		parts = parts[:0]
		for _, p := range n.Partition {
			parts = append(parts, p.String())
		}
		s += " partition=[" + strings.Join(parts, ", ") + "]"
	}
	return s + fmt.Sprintf(" limit %d offset %d", n.Limit, n.Offset)
}

// Window appends to each input row the result of one window function over
// its partition in the given order (ties broken by the whole row). Several
// window functions of a query are a chain of Windows. A row_number() under
// an outer rn <= k is put over a TopK with the same partition and order,
// where each partition holds a bounded number of rows.
type Window struct {
	Input     Node
	Partition []expr.Expr
	Order     []SortKey
	Func      WinFunc
	Cols      []Column // the input's, then the function's result
	// Pos is the 0-based offset of the window function in the statement,
	// for refusing it; -1 when unknown.
	Pos int32
}

func (n *Window) Columns() []Column { return n.Cols }
func (n *Window) Children() []Node  { return []Node{n.Input} }
func (*Window) node()               {}

func describeWindow(n *Window) string {
	t := &TopK{Partition: n.Partition, Order: n.Order}
	s := "Window " + n.Func.String() + strings.TrimPrefix(strings.SplitN(describeTopK(t), " limit", 2)[0], "TopK")
	if n.Func.Kind.UsesFrame() && n.Func.Frame != DefaultFrame {
		s += " frame=[" + n.Func.Frame.String() + "]"
	}
	return s
}
