// Package compile turns a logical plan into a dataflow circuit of
// incremental operators whose last node integrates the view's contents.
package compile

import (
	"fmt"
	"slices"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Compiled is a view's circuit.
type Compiled struct {
	Circuit *dataflow.Circuit
	// Output is the node that integrates the view; its batch in a step is
	// the view's delta.
	Output dataflow.NodeID
	View   *op.Integrate
	// Relations are the stored relations the circuit reads, each an input
	// of the same name.
	Relations []string
	// Consts are the inputs that hold constant relations (VALUES): their
	// rows are fed once, in the step that builds the view.
	Consts map[string]zset.ZSet
	// Order, when set, is the order the view's rows read back in: the
	// view ends with ORDER BY … LIMIT.
	Order func(a, b value.Row) int
	// Temporal lists the temporal filters: their clock is the input
	// named ClockInput, and they start at the time the engine gives them.
	Temporal []*op.Temporal
	// Shareable lists the join inputs that read a stored relation
	// directly (its rows, or some of its columns): their indexes can be
	// shared with every view that joins the same relation on the same key.
	Shareable []ShareSpot
	// Reserves lists the top-ks, MINs and MAXs over a stored relation's
	// rows: each refills from the relation's index by its partition (or
	// group) and order, one index per Key, which the engine keeps and
	// hands to the operator (op.IndexUser).
	Reserves []ReserveSpot
}

// ReserveSpot is a TopK that refills from a stored relation's index,
// arranged as Spec; two spots with the same Key need the same index.
type ReserveSpot struct {
	Node     dataflow.NodeID
	Slot     int // the GroupBy's aggregate; -1 for a TopK
	Relation string
	Key      string
	Spec     dataflow.ArrangementSpec
	// Filters are predicates over the relation's rows that every row the
	// operator reads passes (the filters the plan applies before any
	// projection): the index may hold only the rows for which each is
	// true, so that a change to a row that fails them costs the index
	// nothing. A row whose predicate fails to evaluate must be kept (the
	// operator's refill re-applies the filters and reports the error).
	// Key names the filters too; Unfiltered is the key of the index of
	// every row of the relation in the same order, which serves the spot
	// as well.
	Filters    []expr.Expr
	Unfiltered string
}

// ShareSpot is a join input whose index holds a stored relation's rows
// narrowed to Columns (all when nil), on a key. Two spots with the same
// Key index the same rows the same way.
type ShareSpot struct {
	Node     dataflow.NodeID // the join
	Side     int             // 0 left, 1 right
	Relation string
	Columns  []int
	Key      string
}

type compiler struct {
	c      *dataflow.Circuit
	inputs map[string]dataflow.NodeID
	out    *Compiled
	// indexed reports whether a relation can have indexes kept by its
	// owner for the reserves of the operators reading it; nil: none can.
	indexed func(rel string) bool
}

// Compile builds the circuit of a view's plan. Its top-ks and MIN/MAX
// refill from arrangements of their own. order, when set, is the view's
// ORDER BY without LIMIT, over its output columns: the order its rows
// read back in; the rows themselves are a set.
func Compile(p plan.Node, order ...plan.SortKey) (*Compiled, error) {
	return CompileIndexed(p, nil, order...)
}

// CompileIndexed is Compile where the top-ks and MIN/MAX reading the rows
// of a relation for which indexed is true refill from that relation's
// index instead (Compiled.Reserves), which the caller keeps and hands
// over.
func CompileIndexed(p plan.Node, indexed func(rel string) bool, order ...plan.SortKey) (*Compiled, error) {
	cp := &compiler{c: dataflow.NewCircuit(), inputs: map[string]dataflow.NodeID{}, out: &Compiled{Consts: map[string]zset.ZSet{}}, indexed: indexed}
	p = plan.PruneColumns.Apply(p)
	id, err := cp.node(p)
	if err != nil {
		return nil, err
	}
	if _, ok := p.(*plan.TopK); !ok {
		cp.out.Order = nil // the top-k is not the view's last step
	}
	if len(order) > 0 {
		cp.out.Order = op.RowOrder(sortKeys(order))
	}
	cp.out.View = op.NewIntegrate()
	cp.out.Output = cp.c.Add(cp.out.View, id)
	cp.out.Circuit = cp.c
	return cp.out, nil
}

func (cp *compiler) input(name string) dataflow.NodeID {
	if id, ok := cp.inputs[name]; ok {
		return id
	}
	id := cp.c.Input(name)
	cp.inputs[name] = id
	return id
}

func (cp *compiler) node(p plan.Node) (dataflow.NodeID, error) {
	switch n := p.(type) {
	case *plan.Scan:
		if _, ok := cp.inputs[n.Relation]; !ok {
			cp.out.Relations = append(cp.out.Relations, n.Relation)
		}
		return cp.input(n.Relation), nil
	case *plan.Filter:
		in, err := cp.node(n.Input)
		if err != nil {
			return 0, err
		}
		if expr.ReadsClock(n.Pred) {
			return cp.temporal(n, in)
		}
		return cp.c.Add(op.NewFilter(n.Pred), in), nil
	case *plan.Project:
		if j, ok := n.Input.(*plan.Join); ok && projects(j.Kind) && len(n.Exprs) > 0 {
			// The join computes the projection of each pair it
			// emits: one row per output change, not two. (A join's
			// nil projection means the whole pair, so a projection
			// to no columns stays a Map.)
			return cp.join(j, n.Exprs)
		}
		in, err := cp.node(n.Input)
		if err != nil {
			return 0, err
		}
		return cp.c.Add(op.NewMap(n.Exprs), in), nil
	case *plan.UnionAll:
		ids := make([]dataflow.NodeID, len(n.Inputs))
		for i, c := range n.Inputs {
			var err error
			if ids[i], err = cp.node(c); err != nil {
				return 0, err
			}
		}
		return cp.c.Add(op.NewUnion(len(ids)), ids...), nil
	case *plan.Distinct:
		in, err := cp.node(n.Input)
		if err != nil {
			return 0, err
		}
		return cp.c.Add(op.NewDistinct(), in), nil
	case *plan.Join:
		return cp.join(n, nil)
	case *plan.SetOp:
		l, err := cp.node(n.Left)
		if err != nil {
			return 0, err
		}
		r, err := cp.node(n.Right)
		if err != nil {
			return 0, err
		}
		kinds := map[plan.SetOpKind]op.SetOpKind{plan.Intersect: op.Intersect, plan.IntersectAll: op.IntersectAll, plan.Except: op.Except, plan.ExceptAll: op.ExceptAll}
		return cp.c.Add(op.NewSetOp(kinds[n.Kind]), l, r), nil
	case *plan.Aggregate:
		return cp.aggregate(n)
	case *plan.Recursive:
		return cp.recursive(n)
	case *plan.TopK:
		return cp.topK(n)
	case *plan.Window:
		in, err := cp.node(n.Input)
		if err != nil {
			return 0, err
		}
		if n.Bounded() {
			return cp.c.Add(op.NewRowNumber(n.Partition, sortKeys(n.Order)), in), nil
		}
		return cp.c.Add(op.NewWindow(n.Partition, sortKeys(n.Order), n.Func), in), nil
	case *plan.TableFunc:
		return cp.tableFunc(n)
	case *plan.Sort:
		// A view's rows are a set: an order inside it (what is left of
		// a decorrelated LIMIT over the outer query's columns, whose
		// row numbers already kept the right rows) changes none of them.
		return cp.node(n.Input)
	case *plan.GenerateSeries:
		if n.Input != nil {
			return 0, pgerr.New(pgerr.FeatureNotSupported, "generate_series over the rows of a FROM item cannot be maintained in a view").
				WithHint("store the series in a table and join it")
		}
		rows, err := series(n)
		if err != nil {
			return 0, err
		}
		return cp.constant(rows), nil
	case *plan.Values:
		rows := make(zset.ZSet, 0, len(n.Rows))
		for _, exprs := range n.Rows {
			r := make(value.Row, len(exprs))
			for j, e := range exprs {
				v, err := e.Eval(nil)
				if err != nil {
					return 0, err
				}
				r[j] = v
			}
			rows = append(rows, zset.Entry{Row: r, W: 1})
		}
		return cp.constant(zset.Consolidate(rows)), nil
	}
	return 0, pgerr.New(pgerr.FeatureNotSupported, "%T cannot be maintained incrementally", p)
}

// projects reports whether a join of kind k outputs its pairs, which it
// can project (semi-, anti- and NOT IN joins output their left rows).
func projects(k plan.JoinKind) bool {
	switch k {
	case plan.InnerJoin, plan.LeftJoin, plan.RightJoin, plan.FullJoin:
		return true
	}
	return false
}

// join compiles a join to the operator of its kind, with a private
// arrangement of each input on its join key, outputting project of each
// pair (nil: the pair).
func (cp *compiler) join(n *plan.Join, project []expr.Expr) (dataflow.NodeID, error) {
	if n.Residual != nil && expr.ReadsClock(n.Residual) {
		return 0, refuseClock("the condition compares the clock with columns of both sides of a join")
	}
	l, err := cp.node(n.Left)
	if err != nil {
		return 0, err
	}
	r, err := cp.node(n.Right)
	if err != nil {
		return 0, err
	}
	spec := op.JoinSpec{
		Left:     op.JoinSide{Name: sideName(n.Left), Arity: len(n.Left.Columns()), Columns: columnNames(n.Left), Key: n.LeftKeys},
		Right:    op.JoinSide{Name: sideName(n.Right), Arity: len(n.Right.Columns()), Columns: columnNames(n.Right), Key: n.RightKeys},
		Residual: n.Residual,
		Project:  project,
	}
	for side, in := range []plan.Node{n.Left, n.Right} {
		rel, cols, ok := storedRows(in)
		if !ok {
			continue
		}
		keys := n.LeftKeys
		if side == 1 {
			keys = n.RightKeys
		}
		dropNulls := !(n.Kind == plan.AntiNullJoin && side == 0) // NOT IN keeps NULL left keys
		key := fmt.Sprintf("%s|%v|%v|", rel, cols, dropNulls)
		for _, k := range keys {
			key += k.String() + "|"
		}
		cp.out.Shareable = append(cp.out.Shareable, ShareSpot{Node: dataflow.NodeID(cp.c.Len()), Side: side, Relation: rel, Columns: cols, Key: key})
	}
	var o dataflow.Operator
	switch n.Kind {
	case plan.InnerJoin:
		o = op.NewInnerJoin(spec)
	case plan.LeftJoin:
		o = op.NewOuterJoin(op.LeftOuter, spec)
	case plan.RightJoin:
		o = op.NewOuterJoin(op.RightOuter, spec)
	case plan.FullJoin:
		o = op.NewOuterJoin(op.FullOuter, spec)
	case plan.SemiJoin:
		o = op.NewSemiJoin(spec, false)
	case plan.AntiJoin:
		o = op.NewSemiJoin(spec, true)
	case plan.AntiNullJoin:
		o = op.NewNotInJoin(spec)
	default:
		return 0, pgerr.New(pgerr.Internal, "compile: join kind %v", n.Kind)
	}
	return cp.c.Add(o, l, r), nil
}

// sideName names a join input for EXPLAIN: the relation it scans, or the
// kind of node it is.
func sideName(n plan.Node) string {
	if rels := plan.Relations(n); len(rels) == 1 {
		return rels[0]
	}
	return fmt.Sprintf("%T", n)[len("*plan."):]
}

func columnNames(n plan.Node) []string {
	cols := n.Columns()
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// constant adds an input that holds rows fed once, in the step that builds
// the view.
func (cp *compiler) constant(rows zset.ZSet) dataflow.NodeID {
	name := fmt.Sprintf("$const%d", len(cp.out.Consts))
	cp.out.Consts[name] = rows
	return cp.input(name)
}

// aggregate compiles a grouping. A global aggregate (no GROUP BY) has a
// row before any input arrives; it enters the view through a constant
// input, and the grouping's first step retracts it.
func (cp *compiler) aggregate(n *plan.Aggregate) (dataflow.NodeID, error) {
	in, err := cp.node(n.Input)
	if err != nil {
		return 0, err
	}
	aggs, spots, err := cp.aggregateOps(n, columnNames(n.Input))
	if err != nil {
		return 0, err
	}
	g, err := op.NewGroupBy(n.GroupBy, aggs)
	if err != nil {
		return 0, err
	}
	id := cp.c.Add(g, in)
	for _, sp := range spots {
		sp.Node = id
		cp.out.Reserves = append(cp.out.Reserves, sp)
	}
	if initial := g.Initial(); len(initial) > 0 {
		id = cp.c.Add(op.NewUnion(2), id, cp.constant(initial))
	}
	return id, nil
}

// topK compiles ORDER BY … LIMIT (and DISTINCT ON) to a TopK that owns an
// arrangement of its input, by partition and sort keys, to refill from.
func (cp *compiler) topK(n *plan.TopK) (dataflow.NodeID, error) {
	in, err := cp.node(n.Input)
	if err != nil {
		return 0, err
	}
	order := sortKeys(n.Order)
	if spot, base, ok := cp.reserveSpot(n, order); ok {
		t, err := op.NewTopK(op.TopKSpec{Partition: n.Partition, Order: order, Limit: n.Limit, Offset: n.Offset,
			Index: dataflow.NewArrangement(spot.Spec), Base: base})
		if err != nil {
			return 0, err
		}
		cp.out.Order = t.Compare
		if m, isMap := cp.c.Node(in).(*op.Map); isMap && ReuseTopKInput {
			// The top-k keeps a bounded few of the projection's rows a
			// partition, copies of them, and drops the others; its
			// refills read the relation's index, not its input.
			m.ReuseRows()
			t.CopyKept()
		}
		spot.Node = cp.c.Add(t, in)
		cp.out.Reserves = append(cp.out.Reserves, spot)
		return spot.Node, nil
	}
	index := dataflow.NewArrangement(dataflow.ArrangementSpec{
		Name: "refill index of " + sideName(n.Input), Columns: columnNames(n.Input), Key: n.Partition, Sort: order,
	})
	t, err := op.NewTopK(op.TopKSpec{Partition: n.Partition, Order: order, Limit: n.Limit, Offset: n.Offset, Index: index, OwnIndex: true})
	if err != nil {
		return 0, err
	}
	cp.out.Order = t.Compare
	return cp.c.Add(t, in), nil
}

// ReuseTopKInput makes the projection under a top-k that refills from
// its relation's index reuse its rows from step to step, the top-k
// copying those it keeps (Map.ReuseRows, TopK.CopyKept). Tests turn it
// off to compare with a projection allocating each row.
var ReuseTopKInput = true

// reserveSpot reports whether a top-k's input is a stored relation's rows
// through filters and projections under which each partition and sort
// key is a column of the relation (see baseRows): the top-k can then
// refill from the relation's index by those columns.
func (cp *compiler) reserveSpot(n *plan.TopK, order []dataflow.SortKey) (ReserveSpot, *op.BaseRows, bool) {
	b, ok := cp.baseRows(n.Input)
	if !ok || (len(order) == 0 && b.rows.Projects()) {
		// Without an order, the rows of a partition are one tie that a
		// refill through a projection would read whole.
		return ReserveSpot{}, nil, false
	}
	spot, ok := b.spot(n.Partition, order)
	return spot, b.rows, ok
}

// base is a plan's input read as a stored relation's rows through filters
// and projections.
type base struct {
	scan *plan.Scan
	rows *op.BaseRows
}

// baseRows reports whether in is a stored relation's rows through filters
// and projections: an operator reading it can refill from the relation's
// index, re-applying them to the rows it reads. Volatile expressions,
// which would give other values when read again, rule it out.
func (cp *compiler) baseRows(in plan.Node) (base, bool) {
	var stages []op.BaseStage
	for {
		switch x := in.(type) {
		case *plan.Scan:
			if cp.indexed == nil || !cp.indexed(x.Relation) {
				return base{}, false
			}
			slices.Reverse(stages) // from the scan up
			return base{scan: x, rows: &op.BaseRows{Relation: x.Relation, Stages: stages}}, true
		case *plan.Filter:
			if x.Pred.Volatile() {
				return base{}, false
			}
			stages = append(stages, op.BaseStage{Filter: x.Pred})
			in = x.Input
		case *plan.Project:
			for _, e := range x.Exprs {
				if e.Volatile() {
					return base{}, false
				}
			}
			stages = append(stages, op.BaseStage{Project: x.Exprs})
			in = x.Input
		default:
			return base{}, false
		}
	}
}

// column returns the relation's column that a column of the input is.
func (b base) column(e expr.Expr) (*expr.Col, bool) {
	c, ok := e.(*expr.Col)
	for i := len(b.rows.Stages) - 1; ok && i >= 0; i-- {
		if p := b.rows.Stages[i].Project; p != nil {
			c, ok = p[c.Idx].(*expr.Col)
		}
	}
	return c, ok
}

// spot returns the index of the relation keyed and ordered by the
// relation's columns that key and order are, when they all are.
func (b base) spot(keys []expr.Expr, order []dataflow.SortKey) (ReserveSpot, bool) {
	rel := b.scan.Relation
	spec := dataflow.ArrangementSpec{Name: rel, Columns: columnNames(b.scan)}
	key := "reserve|" + rel + "|"
	for _, e := range keys {
		c, ok := b.column(e)
		if !ok {
			return ReserveSpot{}, false
		}
		spec.Key = append(spec.Key, c)
		key += fmt.Sprintf("%d,", c.Idx)
	}
	key += "|"
	for _, k := range order {
		c, ok := b.column(k.Expr)
		if !ok {
			return ReserveSpot{}, false
		}
		spec.Sort = append(spec.Sort, dataflow.SortKey{Expr: c, Desc: k.Desc, NullsFirst: k.NullsFirst})
		key += fmt.Sprintf("%d %v %v,", c.Idx, k.Desc, k.NullsFirst)
	}
	// The filters under the first projection read the relation's rows.
	unfiltered := key
	var filters []expr.Expr
	for _, st := range b.rows.Stages {
		if st.Project != nil {
			break
		}
		filters = append(filters, st.Filter)
		key += "|where " + expr.Key(st.Filter)
	}
	return ReserveSpot{Relation: rel, Key: key, Spec: spec, Slot: -1, Filters: filters, Unfiltered: unfiltered}, true
}

// storedRows reports whether n is a stored relation's rows, whole or
// narrowed to some columns, and which.
func storedRows(n plan.Node) (string, []int, bool) {
	switch n := n.(type) {
	case *plan.Scan:
		return n.Relation, nil, true
	case *plan.Project:
		scan, ok := n.Input.(*plan.Scan)
		if !ok {
			return "", nil, false
		}
		cols := make([]int, len(n.Exprs))
		for i, e := range n.Exprs {
			c, ok := e.(*expr.Col)
			if !ok {
				return "", nil, false
			}
			cols[i] = c.Idx
		}
		return scan.Relation, cols, true
	}
	return "", nil, false
}
