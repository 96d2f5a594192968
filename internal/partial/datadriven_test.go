package partial_test

import (
	"errors"
	"fmt"
	"github.com/deltaview/deltaview/internal/delta/deltatest"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/partial"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// TestDataDriven runs testdata/*.txt:
//
//	relation name=R key=a      columns "name:type …"
//	view name=V                one operator a line, bottom up:
//	                             source R
//	                             filter <col> <op> <literal> | filter <col> is [not] null
//	                             join R on <fk col> [keep-left]
//	                             project <col> …
//	                           prints the circuit
//	step                       "<relation> <change>" lines, one transaction;
//	                           prints every view's explicit delta and rows
//
// After every step each view's rows (its delta applied with MERGE
// semantics) must equal the view evaluated from scratch over the base
// relations, which are kept by applying each change to a MERGE target: a
// disagreement fails the test instead of reaching the expected output.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := &harness{rels: map[string]*rel{}, views: map[string]*view{}}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			out, err := h.run(t, d)
			if err != nil {
				var pe *pgerr.Error
				if errors.As(err, &pe) {
					s := fmt.Sprintf("error %s: %s\n", pe.Code, pe.Message)
					if pe.Hint != "" {
						s += "hint: " + pe.Hint + "\n"
					}
					return s
				}
				return "error: " + err.Error() + "\n"
			}
			for _, v := range h.views {
				want := eval(v.c.Schema(), v.eval())
				if got := v.target.String(); got != want {
					t.Fatalf("%s: view %s is\n%s\nrecomputed:\n%s", d.Pos, v.c.Schema().Name, got, want)
				}
			}
			return out
		})
	})
}

type rel struct {
	S     *delta.Schema
	Types []value.Type
	state *delta.Target
}

type view struct {
	name string
	c    *partial.Circuit
	// eval evaluates the view from scratch over the base relations'
	// states: the oracle.
	eval   func() []value.Row
	target *delta.Target
}

type harness struct {
	rels  map[string]*rel
	views map[string]*view
	order []string
}

func (h *harness) run(t *testing.T, d *datadriven.TestData) (string, error) {
	switch d.Cmd {
	case "relation":
		var name, key string
		d.ScanArgs(t, "name", &name)
		d.ScanArgs(t, "key", &key)
		var cols []string
		var types []value.Type
		for _, f := range strings.Fields(d.Input) {
			n, ty, _ := strings.Cut(f, ":")
			typ, err := value.TypeFromName(ty, nil)
			if err != nil {
				return "", err
			}
			cols, types = append(cols, n), append(types, typ)
		}
		s, err := delta.NewSchema(name, cols, []int{slices.Index(cols, key)})
		if err != nil {
			return "", err
		}
		h.rels[name] = &rel{S: s, Types: types, state: delta.NewTarget(s)}
		return "", nil
	case "view":
		var name string
		d.ScanArgs(t, "name", &name)
		c, ev, err := h.parseView(name, d.Input)
		if err != nil {
			return "", err
		}
		v := &view{name: name, c: c, eval: ev, target: delta.NewTarget(c.Schema())}
		// A view starts from its relations' current contents.
		load := map[string]delta.Batch{}
		for _, r := range c.Relations() {
			for _, row := range h.rels[r.Name].state.Rows() {
				load[r.Name] = append(load[r.Name], delta.Insert{Row: row})
			}
		}
		out, err := c.Step(load)
		if err != nil {
			return "", err
		}
		c.Commit()
		if err := v.target.Apply(out); err != nil {
			return "", err
		}
		h.views[name] = v
		h.order = append(h.order, name)
		return c.String(), nil
	case "step":
		tx := map[string]delta.Batch{}
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			name, change, _ := strings.Cut(strings.TrimSpace(line), " ")
			r := h.rels[name]
			if r == nil {
				return "", fmt.Errorf("no relation %s", name)
			}
			c, err := (&deltatest.Relation{S: r.S, Types: r.Types}).ParseChange(change)
			if err != nil {
				return "", err
			}
			tx[name] = append(tx[name], c)
		}
		var b strings.Builder
		outs := map[string]delta.Batch{}
		for _, n := range h.order {
			out, err := h.views[n].c.Step(tx)
			if err != nil {
				for _, m := range h.order {
					h.views[m].c.Abort()
				}
				return "", err
			}
			outs[n] = out
		}
		for name, bt := range tx {
			if err := h.rels[name].state.Apply(bt); err != nil {
				return "", err
			}
		}
		for _, n := range h.order {
			v := h.views[n]
			v.c.Commit()
			if err := v.target.Apply(outs[n]); err != nil {
				return "", fmt.Errorf("applying %s's delta: %w", n, err)
			}
			fmt.Fprintf(&b, "%s delta:\n%s%s:\n%s", n, indent(outs[n].String()), n, indent(v.target.String()))
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("unknown command %s", d.Cmd)
}

func indent(s string) string {
	if s == "" {
		return "  (empty)\n"
	}
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

// parseView builds a view's circuit from its lines, and the oracle that
// evaluates the same operators from scratch over the relations' states.
func (h *harness) parseView(name, input string) (*partial.Circuit, func() []value.Row, error) {
	c := partial.NewCircuit()
	at := -1
	var names []string
	var types []value.Type
	var rows func() []value.Row
	colOf := func(n string) (*expr.Col, error) {
		i := slices.Index(names, n)
		if i < 0 {
			return nil, fmt.Errorf("no column %s", n)
		}
		return &expr.Col{Idx: i, T: types[i], Name: n}, nil
	}
	add := func(op partial.Operator, err error, inputs ...int) error {
		if err == nil {
			at = c.Add(op, inputs...)
		}
		return err
	}
	for _, line := range strings.Split(strings.TrimSpace(input), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			return nil, nil, fmt.Errorf("bad line %q", line)
		}
		var err error
		switch f[0] {
		case "source":
			r := h.rels[f[1]]
			at = c.Source(r.S)
			names, types = slices.Clone(r.S.Columns), slices.Clone(r.Types)
			rows = r.state.Rows
		case "filter":
			var col *expr.Col
			if col, err = colOf(f[1]); err != nil {
				return nil, nil, err
			}
			var pred expr.Expr
			if f[2] == "is" {
				pred = &expr.IsNull{E: col, Not: f[3] == "not"}
			} else {
				v, err := value.Parse(f[3], col.T)
				if err != nil {
					return nil, nil, err
				}
				op := map[string]expr.CmpOp{"=": expr.EQ, "<>": expr.NE, "<": expr.LT, "<=": expr.LE, ">": expr.GT, ">=": expr.GE}[f[2]]
				pred = &expr.Cmp{Op: op, L: col, R: &expr.Const{V: v, T: col.T}}
			}
			op, e := partial.NewFilter(c.NodeSchema(at), pred)
			err = add(op, e, at)
			in := rows
			rows = func() []value.Row {
				var out []value.Row
				for _, r := range in() {
					if v, err := pred.Eval(r); err == nil && !v.IsNull() && v.Bool() {
						out = append(out, r)
					}
				}
				return out
			}
		case "join":
			r := h.rels[f[1]]
			col, err := colOf(f[3])
			if err != nil {
				return nil, nil, err
			}
			var rc []int
			for i := range r.S.Columns {
				if !r.S.IsKey(i) {
					rc = append(rc, i)
					names, types = append(names, r.S.Columns[i]), append(types, r.Types[i])
				}
			}
			left := c.NodeSchema(at)
			op, e := partial.NewJoin(left.Name+"⋈"+r.S.Name, left, r.S, []int{col.Idx}, rc, len(f) > 4 && f[4] == "keep-left")
			err = add(op, e, at, c.Source(r.S))
			in := rows
			rows = func() []value.Row {
				var out []value.Row
				for _, l := range in() {
					if d, ok := r.state.Get(value.Row{l[col.Idx]}); ok {
						o := slices.Clone(l)
						for _, c := range rc {
							o = append(o, d[c])
						}
						out = append(out, o)
					}
				}
				return out
			}
		case "project":
			var ex []expr.Expr
			var ty []value.Type
			for _, n := range f[1:] {
				col, err := colOf(n)
				if err != nil {
					return nil, nil, err
				}
				ex, ty = append(ex, col), append(ty, col.T)
			}
			op, e := partial.NewProject(c.NodeSchema(at), name, f[1:], ex)
			err = add(op, e, at)
			names, types = f[1:], ty
			in := rows
			rows = func() []value.Row {
				var out []value.Row
				for _, r := range in() {
					o := make(value.Row, len(ex))
					for i, e := range ex {
						o[i], _ = e.Eval(r)
					}
					out = append(out, o)
				}
				return out
			}
		default:
			return nil, nil, fmt.Errorf("unknown operator %s", f[0])
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return c, rows, nil
}

// eval prints the rows of a view evaluated from scratch, sorted by key.
func eval(s *delta.Schema, rows []value.Row) string {
	t := delta.NewTarget(s)
	var b delta.Batch
	for _, r := range rows {
		b = append(b, delta.Insert{Row: r})
	}
	if err := t.Apply(b); err != nil {
		return "oracle: " + err.Error()
	}
	return t.String()
}
