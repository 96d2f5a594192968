package compile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/partial"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
)

// Partial compiles the plan of a view over keyed tables into a partial
// circuit (internal/partial), when the view qualifies: select-project-join
// along key/foreign-key paths, keeping the root table's key, landing in a
// keyed target. It flattens the plan into one root relation, a chain of
// inner joins each on a dimension's whole primary key, the predicates
// (split into conjuncts) and the output expressions, and lays them out as
// docs/partial-deltas.md §3.4 says: predicates on the root's columns
// directly over the root when its changes are complete, other predicates
// above the topmost join, which then keeps its left rows, as does a join
// whose foreign key may be NULL (a view with a predicate, no join and a
// root whose changes may leave columns unknown is normalised); each join carries only the dimension's columns
// the view reads. A plan that does not qualify gives a *NotPartial saying
// why (the caller normalises the view, or refuses it with 0A000).
func Partial(name string, p plan.Node, tables KeyedTables) (*partial.Circuit, error) {
	return (&planner{tables: tables}).compile(name, p)
}

// PartialKey returns the key a partial circuit of the plan has: its root
// table's, projected. It takes plans Partial normalises because of where
// a predicate would have to go, since the key does not depend on it.
func PartialKey(name string, p plan.Node, tables KeyedTables) (*delta.Schema, error) {
	c, err := (&planner{tables: tables, keyOnly: true}).compile(name, p)
	if err != nil {
		return nil, err
	}
	return c.Schema(), nil
}

func (pl *planner) compile(name string, p plan.Node) (*partial.Circuit, error) {
	f, err := pl.flatten(p)
	if err != nil {
		return nil, err
	}
	c, err := pl.build(name, p, f)
	if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.FeatureNotSupported {
		// The operators' own conditions (a projection that drops the key).
		return nil, refuseSPJ("%s", strings.TrimPrefix(pe.Message, "deltaview: "))
	}
	return c, err
}

// KeyedTables describes the stored tables a plan reads to the partial
// planner.
type KeyedTables interface {
	// KeyedTable returns table rel's schema, keyed by its primary key,
	// and which of its columns are NOT NULL; ok is false when rel is not
	// a table, err set when it has no primary key.
	KeyedTable(rel string) (s *delta.Schema, notNull []bool, ok bool, err error)
	// CompleteRows reports whether every change of table rel carries
	// every column of its new row: no change leaves a column unknown.
	CompleteRows(rel string) bool
}

// NotPartial says why a plan is not maintained by partial propagation.
type NotPartial struct{ Why string }

func (n *NotPartial) Error() string { return n.Why }

func refuseSPJ(format string, args ...any) *NotPartial {
	return &NotPartial{Why: fmt.Sprintf(format, args...)}
}

// flatRel is one base relation of a flattened plan; its column j has the
// global id base+j.
type flatRel struct {
	s       *delta.Schema
	notNull []bool
	base    int
}

type flatJoin struct {
	fk  []int // global ids, in the dimension's key order
	dim int   // index into rels
}

// flat is a select-project-join plan over global column ids.
type flat struct {
	rels  []int // indexes into planner.rels, root first
	out   []expr.Expr
	preds []expr.Expr
	joins []flatJoin
}

type planner struct {
	tables  KeyedTables
	keyOnly bool // PartialKey: the circuit is not run
	rels    []flatRel
	next    int
}

// build lays out the flattened plan f of p as a circuit.
func (pl *planner) build(name string, p plan.Node, f *flat) (*partial.Circuit, error) {
	root := pl.rels[f.rels[0]]
	// Which columns of each relation the view reads.
	need := map[int]bool{}
	mark := func(es ...expr.Expr) {
		for _, x := range es {
			for _, c := range expr.Columns(x) {
				need[c] = true
			}
		}
	}
	mark(f.out...)
	mark(f.preds...)
	for _, j := range f.joins {
		for _, c := range j.fk {
			need[c] = true
		}
	}
	// Layout of the chain's columns: the root's, then each dimension's
	// carried columns, in join order.
	pos := map[int]int{}
	for j := range root.s.Columns {
		pos[root.base+j] = j
	}
	width := root.s.Arity()
	// A predicate on the root's columns alone goes directly over the root,
	// the others above the topmost join, which then keeps its left rows.
	// But when the root's changes may leave columns unknown (a minimal row
	// image, an unchanged large value), a row that such a change brings
	// into the view cannot be built from it (docs/partial-deltas.md, §3.4,
	// 3): then every predicate goes above the topmost join, whose kept
	// left rows complete it, and without a join the view is normalised.
	isRoot := func(c int) bool { return c >= root.base && c < root.base+root.s.Arity() }
	complete := pl.keyOnly || pl.tables.CompleteRows(root.s.Name)
	if len(f.preds) > 0 && len(f.joins) == 0 && !complete {
		return nil, refuseSPJ("a predicate on %s, which does not declare complete_rows, needs its rows: its changes may leave columns unknown", root.s.Name)
	}
	var rootPreds, dimPreds []expr.Expr
	for _, x := range f.preds {
		onRoot := complete
		for _, c := range expr.Columns(x) {
			onRoot = onRoot && isRoot(c)
		}
		if onRoot {
			rootPreds = append(rootPreds, x)
		} else {
			dimPreds = append(dimPreds, x)
		}
	}
	remap := func(x expr.Expr) expr.Expr {
		return expr.Rewrite(x, func(n expr.Expr) expr.Expr {
			if c, ok := n.(*expr.Col); ok {
				return &expr.Col{Idx: pos[c.Idx], T: c.T, Name: c.Name}
			}
			return n
		})
	}
	c := partial.NewCircuit()
	at := c.Source(root.s)
	filter := func(preds []expr.Expr) error {
		op, err := partial.NewFilter(c.NodeSchema(at), remap(and(preds)))
		if err == nil {
			at = c.Add(op, at)
		}
		return err
	}
	if len(rootPreds) > 0 {
		if err := filter(rootPreds); err != nil {
			return nil, err
		}
	}
	for i, j := range f.joins {
		d := pl.rels[j.dim]
		fk := make([]int, len(j.fk))
		keepLeft := i == len(f.joins)-1 && len(dimPreds) > 0
		for k, c := range j.fk {
			p, ok := pos[c]
			if !ok {
				return nil, refuseSPJ("the join with %s reads a column that is not yet joined", d.s.Name)
			}
			fk[k] = p
			if !pl.notNull(c) {
				keepLeft = true // a NULL reference: the view row may appear later
			}
		}
		var rcols []int
		for col := range d.s.Columns {
			if need[d.base+col] {
				pos[d.base+col] = width + len(rcols)
				rcols = append(rcols, col)
			}
		}
		width += len(rcols)
		left := c.NodeSchema(at)
		op, err := partial.NewJoin(left.Name+"⋈"+d.s.Name, left, d.s, fk, rcols, keepLeft)
		if err != nil {
			return nil, err
		}
		at = c.Add(op, at, c.Source(d.s))
	}
	if len(dimPreds) > 0 {
		if err := filter(dimPreds); err != nil {
			return nil, err
		}
	}
	exprs := make([]expr.Expr, len(f.out))
	for i, x := range f.out {
		exprs[i] = remap(x)
	}
	names := make([]string, len(p.Columns()))
	for i, c := range p.Columns() {
		names[i] = c.Name
	}
	op, err := partial.NewProject(c.NodeSchema(at), name, names, exprs)
	if err != nil {
		return nil, err
	}
	c.Add(op, at)
	return c, nil
}

func and(es []expr.Expr) expr.Expr {
	if len(es) == 1 {
		return es[0]
	}
	return &expr.And{Args: es}
}

// notNull reports whether the column with global id c is declared NOT NULL.
func (pl *planner) notNull(c int) bool {
	for _, r := range pl.rels {
		if c >= r.base && c < r.base+r.s.Arity() {
			return r.notNull[c-r.base]
		}
	}
	return false
}

func (pl *planner) flatten(n plan.Node) (*flat, error) {
	switch n := n.(type) {
	case *plan.Scan:
		s, notNull, ok, err := pl.tables.KeyedTable(n.Relation)
		if !ok {
			return nil, refuseSPJ("it reads %s, which is not a table", n.Relation)
		}
		if err != nil {
			return nil, refuseSPJ("table %s has no primary key", n.Relation)
		}
		pl.rels = append(pl.rels, flatRel{s: s, notNull: notNull, base: pl.next})
		f := &flat{rels: []int{len(pl.rels) - 1}}
		for j, c := range n.Cols {
			f.out = append(f.out, &expr.Col{Idx: pl.next + j, T: c.Type, Name: c.Name})
		}
		pl.next += len(n.Cols)
		return f, nil
	case *plan.Filter:
		f, err := pl.flatten(n.Input)
		if err != nil {
			return nil, err
		}
		if n.Pred.Volatile() {
			return nil, refuseSPJ("a filter is volatile")
		}
		f.preds = append(f.preds, plan.Conjuncts(subst(n.Pred, f.out))...)
		return f, nil
	case *plan.Project:
		f, err := pl.flatten(n.Input)
		if err != nil {
			return nil, err
		}
		out := make([]expr.Expr, len(n.Exprs))
		for i, x := range n.Exprs {
			if x.Volatile() {
				return nil, refuseSPJ("column %s is volatile", n.Cols[i].Name)
			}
			out[i] = subst(x, f.out)
		}
		f.out = out
		return f, nil
	case *plan.Join:
		if n.Kind != plan.InnerJoin {
			return nil, refuseSPJ("it has a %s; partial propagation follows inner joins", n.Kind)
		}
		l, err := pl.flatten(n.Left)
		if err != nil {
			return nil, err
		}
		r, err := pl.flatten(n.Right)
		if err != nil {
			return nil, err
		}
		lk := make([]expr.Expr, len(n.LeftKeys))
		rk := make([]expr.Expr, len(n.RightKeys))
		for i := range n.LeftKeys {
			lk[i], rk[i] = subst(n.LeftKeys[i], l.out), subst(n.RightKeys[i], r.out)
		}
		f := &flat{out: append(slices.Clone(l.out), r.out...)}
		chain, dim := l, r
		fk, extra, ok := pl.fkJoin(lk, rk, r)
		if !ok {
			chain, dim = r, l
			if fk, extra, ok = pl.fkJoin(rk, lk, l); !ok {
				return nil, refuseSPJ("a join is not on the whole primary key of one side (a key/foreign-key path)")
			}
		}
		f.rels = append(slices.Clone(chain.rels), dim.rels...)
		f.joins = append(slices.Clone(chain.joins), flatJoin{fk: fk, dim: dim.rels[0]})
		f.preds = append(append(slices.Clone(l.preds), r.preds...), extra...)
		if n.Residual != nil {
			f.preds = append(f.preds, plan.Conjuncts(subst(n.Residual, f.out))...)
		}
		return f, nil
	}
	return nil, refuseSPJ("it has %s, which is not selection, projection or inner join", strings.SplitN(plan.String(n), " ", 2)[0])
}

// fkJoin matches a join's equalities with dim's primary key: dim must be
// one base relation whose every key column equals a column of the other
// side. It returns the referencing columns in key order and the
// equalities left over, as predicates.
func (pl *planner) fkJoin(from, to []expr.Expr, dim *flat) ([]int, []expr.Expr, bool) {
	if len(dim.rels) != 1 {
		return nil, nil, false
	}
	d := pl.rels[dim.rels[0]]
	fk := make([]int, len(d.s.Key))
	for i := range fk {
		fk[i] = -1
	}
	var extra []expr.Expr
	for i := range from {
		fc, ok1 := from[i].(*expr.Col)
		tc, ok2 := to[i].(*expr.Col)
		k := -1
		if ok1 && ok2 && tc.Idx >= d.base && tc.Idx < d.base+d.s.Arity() {
			k = slices.Index(d.s.Key, tc.Idx-d.base)
		}
		if k < 0 || fk[k] >= 0 {
			extra = append(extra, &expr.Cmp{Op: expr.EQ, L: from[i], R: to[i]})
			continue
		}
		fk[k] = fc.Idx
	}
	if slices.Contains(fk, -1) {
		return nil, nil, false
	}
	return fk, extra, true
}

// subst replaces each column reference #i of x by out[i].
func subst(x expr.Expr, out []expr.Expr) expr.Expr {
	return expr.Rewrite(x, func(n expr.Expr) expr.Expr {
		if c, ok := n.(*expr.Col); ok {
			return out[c.Idx]
		}
		return n
	})
}
