package op

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestAggregateDataDriven runs aggtestdata/*: a GroupBy or TopK over rows
// (k bigint, v <type>), stepped with rows in text form.
//
//	groupby type=integer [global] [reserve=1]
//	sum avg var_pop min max count(*) count(distinct)
//	----
//	<Info>
//
//	topk type=integer limit=2 [offset=1] [desc] [nullsfirst] [partition] [reserve=1]
//	----
//	<Info>
//
//	step
//	+1 1 2.5       (weight, k, v in the type's text form, 'quoted' text, or NULL)
//	----
//	<the delta>
//
// The expected numbers were checked against PostgreSQL 15.
func TestAggregateDataDriven(t *testing.T) {
	walkDataDriven(t, "aggtestdata", func() func(*datadriven.TestData) (string, error) {
		var h aggHarness
		return h.run
	})
}

type aggHarness struct {
	typ  value.Type
	op   dataflow.Operator
	c    *dataflow.Circuit
	node dataflow.NodeID
	refl func() int64
}

func (h *aggHarness) run(d *datadriven.TestData) (string, error) {
	args := map[string]string{}
	for _, a := range d.CmdArgs {
		args[a.Key] = strings.Join(a.Vals, ",")
	}
	if t, ok := args["type"]; ok {
		typ, err := value.TypeFromName(t, nil)
		if err != nil {
			return "", err
		}
		h.typ = typ
	}
	reserve := 0
	if r, ok := args["reserve"]; ok {
		fmt.Sscan(r, &reserve)
	}
	k := tcol{i: 0, t: value.Int8Type}
	v := tcol{i: 1, t: h.typ}
	switch d.Cmd {
	case "groupby":
		var keys []expr.Expr
		if _, ok := args["global"]; !ok {
			keys = []expr.Expr{k}
		}
		idx := dataflow.NewArrangement(dataflow.ArrangementSpec{Key: keys, Sort: []dataflow.SortKey{{Expr: v}}})
		var aggs []Aggregate
		owned := false
		for _, name := range strings.Fields(d.Input) {
			a := Aggregate{Arg: v, Reserve: reserve}
			switch name {
			case "count(*)":
				a.Func, a.Arg = plan.AggCountStar, nil
			case "count(distinct)":
				a.Func, a.Distinct = plan.AggCount, true
			case "string_agg":
				a.Func, a.Sep = plan.AggStringAgg, constText{s: ","}
			default:
				f, ok := plan.LookupAgg(name)
				if !ok {
					return "", fmt.Errorf("unknown aggregate %q", name)
				}
				a.Func = f
			}
			if (a.Func == plan.AggMin || a.Func == plan.AggMax) && !value.IntOrdered(h.typ.Kind) {
				a.Index, a.OwnIndex = idx, !owned
				owned = true
			}
			aggs = append(aggs, a)
		}
		g, err := NewGroupBy(keys, aggs)
		if err != nil {
			return fmt.Sprintf("error: %s (%s)\n", err, pgerr.Code(err)), nil
		}
		h.op, h.refl = g, g.Refills
		h.c = dataflow.NewCircuit()
		h.node = h.c.Add(g, h.c.Input("t"))
		info := g.Info()
		out := fmt.Sprintf("%s %s\nstate: %s\ncost: %s\n", info.Kind, info.Detail, info.State, info.Cost)
		if init := g.Initial(); len(init) > 0 {
			out += "initial:\n" + indent(init.String())
		}
		return out, nil

	case "topk":
		var part []expr.Expr
		if _, ok := args["partition"]; ok {
			part = []expr.Expr{k}
		}
		_, desc := args["desc"]
		_, nf := args["nullsfirst"]
		order := []dataflow.SortKey{{Expr: v, Desc: desc, NullsFirst: nf}}
		idx := dataflow.NewArrangement(dataflow.ArrangementSpec{Key: part, Sort: order})
		var limit, offset int64
		fmt.Sscan(args["limit"], &limit)
		fmt.Sscan(args["offset"], &offset)
		tk, err := NewTopK(TopKSpec{Partition: part, Order: order, Limit: limit, Offset: offset,
			Reserve: int64(reserve), Index: idx, OwnIndex: true})
		if err != nil {
			return "", err
		}
		h.op, h.refl = tk, tk.Refills
		h.c = dataflow.NewCircuit()
		h.node = h.c.Add(tk, h.c.Input("t"))
		info := tk.Info()
		return fmt.Sprintf("%s %s\nstate: %s\ncost: %s\n", info.Kind, info.Detail, info.State, info.Cost), nil

	case "step":
		var batch zset.ZSet
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			f := strings.SplitN(strings.TrimSpace(line), " ", 3)
			if len(f) == 2 {
				f = append(f, "")
			}
			if len(f) != 3 {
				return "", fmt.Errorf("bad line %q", line)
			}
			var w, key int64
			fmt.Sscan(strings.TrimPrefix(f[0], "+"), &w)
			fmt.Sscan(f[1], &key)
			val := value.Null
			if q := f[2]; len(q) >= 2 && q[0] == '\'' && q[len(q)-1] == '\'' {
				val = value.NewText(value.Text, q[1:len(q)-1])
			} else if f[2] != "NULL" {
				var err error
				if val, err = value.Parse(f[2], h.typ); err != nil {
					return "", err
				}
			}
			batch = append(batch, zset.Entry{Row: value.Row{value.NewInt(value.Int8, key), val}, W: w})
		}
		if err := h.c.Step(map[string]zset.ZSet{"t": zset.Consolidate(batch)}); err != nil {
			return fmt.Sprintf("error: %s (%s)\n", err, pgerr.Code(err)), nil
		}
		out := h.c.Output(h.node)
		if len(out) == 0 {
			return "no change\n", nil
		}
		return out.String(), nil

	case "show":
		return fmt.Sprintf("%srefills: %d\n", h.op, h.refl()), nil
	}
	return "", fmt.Errorf("unknown command %q", d.Cmd)
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString(" " + l)
		}
	}
	return b.String()
}
