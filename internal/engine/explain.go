package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// explain prints a view's circuit: per operator its state and its work per
// change, and for an existing view the live figures.
func (e *Engine) explain(x *sql.Explain) (Result, error) {
	switch {
	case x.Utility:
		return explainUtility(x.Format), nil
	case x.TableAs != nil:
		return e.explainTableAs(x.TableAs, x.Format)
	case x.Query != nil:
		return explainQuery(x.Query, x.Format), nil
	}
	switch x.DML.(type) {
	case *sql.WithModify:
		return e.explainWith(x.DML.(*sql.WithModify), x.Format)
	case *sql.Insert, *sql.Merge:
		return e.explainChange(x.DML, x.Format), nil
	case nil:
	default:
		res, err := e.explainDML(x.DML)
		return linesDoc(x.Format, res), err
	}
	if x.View == nil {
		v, ok := e.views[x.Name]
		if !ok {
			return Result{}, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", x.Name)
		}
		return v.explain(e, x.Format)
	}
	pre, whole, err := e.explainStream(x.View)
	if err != nil {
		return Result{}, err
	}
	if whole {
		return linesDoc(x.Format, textPlan(pre)), nil
	}
	c, err := compile.CompileIndexed(x.View.Plan, e.indexable)
	if err != nil {
		return Result{}, err
	}
	if x.Format != "text" {
		var access []string
		if x.Select {
			access = e.accessLines(x.View.Plan)
		}
		return circuitDoc(x.Format, pre, c, access), nil
	}
	res := explainCircuit(pre, c, false, x.Format)
	if x.Select && x.Format == "text" {
		for _, l := range e.accessLines(x.View.Plan) {
			res.Rows = append(res.Rows, value.Row{value.NewText(value.Text, l)})
		}
	}
	return res, nil
}

// explainDML says how an UPDATE or DELETE finds its rows: through which
// index, or by reading every row.
func (e *Engine) explainDML(b sql.Bound) (Result, error) {
	verb, name, where, join := "", "", expr.Expr(nil), false
	var rows plan.Node
	switch d := b.(type) {
	case *sql.Update:
		verb, name, where, join, rows = "Update", d.Table, d.Where, d.From != nil, d.Rows
	case *sql.Delete:
		verb, name, where, join, rows = "Delete", d.Table, d.Where, d.Using != nil, d.Rows
	}
	if rows != nil {
		where, join = targetFilter(rows), false
	}
	if av := autoOf(b); av != nil {
		return e.explainAuto(verb, av, where)
	}
	if e.named[name] != nil { // a view's rows go to its INSTEAD OF triggers
		return textPlan([]string{verb + " on " + name + " (INSTEAD OF triggers, once per row)",
			"  -> the view's query, evaluated once for the statement"}), nil
	}
	t, ok := e.tables[name]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", name)
	}
	lines := []string{verb + " on " + name}
	var p *accessPath
	if !join {
		var err error
		e.lookupMu.Lock() // accessPath may build a key's ordered index
		p, err = t.accessPath(where)
		e.lookupMu.Unlock()
		if err != nil {
			return Result{}, err
		}
	}
	switch {
	case p != nil:
		lines = append(lines, "  -> "+p.describe(t))
	case join:
		lines = append(lines, "  -> Seq Scan on "+name+" joined with the rows of FROM or USING")
	default:
		lines = append(lines, "  -> Seq Scan on "+name)
	}
	if rows != nil {
		lines = append(lines, "  -> subqueries (and FROM or USING) joined to the rows found: once for the statement")
	}
	return textPlan(lines), nil
}

// accessLines says, for each filter applied directly to a table in an
// ad-hoc query's plan, through which index it finds its rows.
func (e *Engine) accessLines(n plan.Node) []string {
	e.lookupMu.Lock() // accessPath may build a key's ordered index
	defer e.lookupMu.Unlock()
	var out []string
	var walk func(plan.Node)
	walk = func(n plan.Node) {
		if f, ok := n.(*plan.Filter); ok {
			if in, ok := f.Input.(*plan.Filter); ok && isPartitionOf(in.Pred) {
				// A WHERE over a partition's constraint: one filter, as
				// exec.Run makes it.
				f = &plan.Filter{Input: in.Input, Pred: &expr.And{Args: []expr.Expr{in.Pred, f.Pred}}}
			}
			if sc, ok := f.Input.(*plan.Scan); ok {
				if t, ok := e.tables[sc.Relation]; ok {
					if p, err := t.accessPath(f.Pred); err == nil && p != nil {
						out = append(out, "ad hoc: "+p.describe(t))
					}
				}
			}
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
	return out
}

// explainCircuit prints a Z-set circuit, after the lines pre: per
// operator its state and its work per change, and for a live view the
// figures.
func explainCircuit(pre []string, c *compile.Compiled, live bool, format string) Result {
	type opJSON struct {
		ID      int    `json:"id"`
		Kind    string `json:"kind"`
		Detail  string `json:"detail,omitempty"`
		State   string `json:"state"`
		Cost    string `json:"cost"`
		Inputs  []int  `json:"inputs,omitempty"`
		Rows    *int64 `json:"rows,omitempty"`
		Bytes   *int64 `json:"bytes,omitempty"`
		Steps   *int64 `json:"steps,omitempty"`
		Refills *int64 `json:"refills,omitempty"`
		// Inner is the circuit a recursive query runs each round.
		Inner []opJSON `json:"inner,omitempty"`
	}
	innerOps := func(c *dataflow.Circuit) []opJSON {
		var out []opJSON
		for id := 0; id < c.Len(); id++ {
			info := c.Node(dataflow.NodeID(id)).Info()
			o := opJSON{ID: id, Kind: info.Kind, Detail: info.Detail, State: info.State, Cost: info.Cost}
			for _, in := range c.Inputs(dataflow.NodeID(id)) {
				o.Inputs = append(o.Inputs, int(in))
			}
			out = append(out, o)
		}
		return out
	}
	var ops []opJSON
	var lines []string
	circ := c.Circuit
	for id := circ.Len() - 1; id >= 0; id-- {
		n := circ.Node(dataflow.NodeID(id))
		info := n.Info()
		o := opJSON{ID: id, Kind: info.Kind, Detail: info.Detail, State: info.State, Cost: info.Cost}
		for _, in := range circ.Inputs(dataflow.NodeID(id)) {
			o.Inputs = append(o.Inputs, int(in))
		}
		line := fmt.Sprintf("%d %s", id, info.Kind)
		if info.Detail != "" {
			line += " " + info.Detail
		}
		line += fmt.Sprintf("  state: %s  cost: %s", info.State, info.Cost)
		if live {
			st, stats := n.State(), circ.Stats(dataflow.NodeID(id))
			o.Rows, o.Bytes, o.Steps = &st.Rows, &st.Bytes, &stats.Steps
			line += fmt.Sprintf("  rows=%d bytes=%d steps=%d", st.Rows, st.Bytes, stats.Steps)
			if _, ok := n.(interface{ Refills() int64 }); ok {
				r := nodeRefills(n)
				o.Refills = &r
				line += fmt.Sprintf(" refills=%d", r)
			}
		}
		if len(o.Inputs) > 0 {
			ins := make([]string, len(o.Inputs))
			for i, in := range o.Inputs {
				ins[i] = fmt.Sprint(in)
			}
			line += "  <- " + strings.Join(ins, ", ")
		}
		r, recursive := n.(interface{ Inner() *dataflow.Circuit })
		if recursive {
			o.Inner = innerOps(r.Inner())
		}
		ops = append(ops, o)
		lines = append(lines, line)
		if recursive {
			lines = append(lines, innerLines(r.Inner())...)
		}
	}
	col := []plan.Column{{Name: "QUERY PLAN", Type: value.TextType}}
	if format == "json" {
		slices.Reverse(ops)
		b, _ := json.MarshalIndent(map[string]any{"operators": ops}, "", "  ")
		return Result{Columns: col, Rows: []value.Row{{value.NewText(value.Text, string(b))}}, HasRows: true, Tag: "EXPLAIN"}
	}
	res := Result{Columns: col, HasRows: true, Tag: "EXPLAIN"}
	for _, l := range append(pre, lines...) {
		res.Rows = append(res.Rows, value.Row{value.NewText(value.Text, l)})
	}
	return res
}

// innerLines prints the circuit a recursive view runs in each round, under
// its operator, top first.
func innerLines(c *dataflow.Circuit) []string {
	var out []string
	for id := c.Len() - 1; id >= 0; id-- {
		info := c.Node(dataflow.NodeID(id)).Info()
		line := fmt.Sprintf("    inner %d %s", id, info.Kind)
		if info.Detail != "" {
			line += " " + info.Detail
		}
		if !c.IsSource(dataflow.NodeID(id)) {
			line += fmt.Sprintf("  state: %s  cost: %s", info.State, info.Cost)
			ins := make([]string, 0, 2)
			for _, in := range c.Inputs(dataflow.NodeID(id)) {
				ins = append(ins, fmt.Sprint(in))
			}
			line += "  <- " + strings.Join(ins, ", ")
		}
		out = append(out, line)
	}
	return out
}

func (e *Engine) show(s *sql.Show) (Result, error) {
	switch s.Name {
	case "views":
		st := systemViews["deltaview_views"]
		return Result{Columns: st.cols, Rows: st.rows(e), HasRows: true, Tag: "SHOW"}, nil
	case "tables":
		st := systemViews["deltaview_tables"]
		return Result{Columns: st.cols, Rows: st.rows(e), HasRows: true, Tag: "SHOW"}, nil
	}
	return Result{}, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", s.Name)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
