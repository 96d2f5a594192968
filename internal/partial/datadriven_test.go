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
				want := h.eval(v.spec)
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
	name   string
	spec   partial.Spec
	c      *partial.Circuit
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
		spec, err := h.parseView(name, d.Input)
		if err != nil {
			return "", err
		}
		c, err := partial.Build(spec)
		if err != nil {
			return "", err
		}
		v := &view{name: name, spec: spec, c: c, target: delta.NewTarget(c.Schema())}
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

// columns returns the output column names and types of spec.
func (h *harness) columns(spec partial.Spec) ([]string, []value.Type) {
	switch s := spec.(type) {
	case partial.SourceSpec:
		return s.Rel.Columns, h.rels[s.Rel.Name].Types
	case partial.FilterSpec:
		return h.columns(s.In)
	case partial.JoinSpec:
		n, ty := h.columns(s.Left)
		r := h.rels[s.Right.Name]
		n, ty = slices.Clone(n), slices.Clone(ty)
		for _, c := range s.RightCols {
			n, ty = append(n, r.S.Columns[c]), append(ty, r.Types[c])
		}
		return n, ty
	case partial.ProjectSpec:
		var ty []value.Type
		for _, e := range s.Exprs {
			ty = append(ty, e.Type())
		}
		return s.Names, ty
	}
	return nil, nil
}

func (h *harness) parseView(name, input string) (partial.Spec, error) {
	var spec partial.Spec
	for _, line := range strings.Split(strings.TrimSpace(input), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			return nil, fmt.Errorf("bad line %q", line)
		}
		var names []string
		var types []value.Type
		if spec != nil {
			names, types = h.columns(spec)
		}
		colOf := func(n string) (*expr.Col, error) {
			i := slices.Index(names, n)
			if i < 0 {
				return nil, fmt.Errorf("no column %s", n)
			}
			return &expr.Col{Idx: i, T: types[i], Name: n}, nil
		}
		switch f[0] {
		case "source":
			spec = partial.SourceSpec{Rel: h.rels[f[1]].S}
		case "filter":
			c, err := colOf(f[1])
			if err != nil {
				return nil, err
			}
			if f[2] == "is" {
				spec = partial.FilterSpec{In: spec, Pred: &expr.IsNull{E: c, Not: f[3] == "not"}}
				continue
			}
			v, err := value.Parse(f[3], c.T)
			if err != nil {
				return nil, err
			}
			op := map[string]expr.CmpOp{"=": expr.EQ, "<>": expr.NE, "<": expr.LT, "<=": expr.LE, ">": expr.GT, ">=": expr.GE}[f[2]]
			spec = partial.FilterSpec{In: spec, Pred: &expr.Cmp{Op: op, L: c, R: &expr.Const{V: v, T: c.T}}}
		case "join":
			r := h.rels[f[1]]
			c, err := colOf(f[3])
			if err != nil {
				return nil, err
			}
			var rc []int
			for i := range r.S.Columns {
				if !r.S.IsKey(i) {
					rc = append(rc, i)
				}
			}
			spec = partial.JoinSpec{Left: spec, Right: r.S, FK: []int{c.Idx}, RightCols: rc, KeepLeft: len(f) > 4 && f[4] == "keep-left"}
		case "project":
			var ex []expr.Expr
			for _, n := range f[1:] {
				c, err := colOf(n)
				if err != nil {
					return nil, err
				}
				ex = append(ex, c)
			}
			spec = partial.ProjectSpec{In: spec, Name: name, Names: f[1:], Exprs: ex}
		default:
			return nil, fmt.Errorf("unknown operator %s", f[0])
		}
	}
	return spec, nil
}

// eval evaluates spec from scratch over the base relations' states and
// prints the rows sorted by key: the oracle.
func (h *harness) eval(spec partial.Spec) string {
	rows, s := h.evalRows(spec)
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

func (h *harness) evalRows(spec partial.Spec) ([]value.Row, *delta.Schema) {
	switch s := spec.(type) {
	case partial.SourceSpec:
		return h.rels[s.Rel.Name].state.Rows(), s.Rel
	case partial.FilterSpec:
		rows, sc := h.evalRows(s.In)
		var out []value.Row
		for _, r := range rows {
			if v, err := s.Pred.Eval(r); err == nil && !v.IsNull() && v.Bool() {
				out = append(out, r)
			}
		}
		return out, sc
	case partial.JoinSpec:
		rows, sc := h.evalRows(s.Left)
		right := h.rels[s.Right.Name].state
		var out []value.Row
		for _, r := range rows {
			k := make(value.Row, len(s.FK))
			for i, c := range s.FK {
				k[i] = r[c]
			}
			if d, ok := right.Get(k); ok {
				o := slices.Clone(r)
				for _, c := range s.RightCols {
					o = append(o, d[c])
				}
				out = append(out, o)
			}
		}
		return out, sc
	case partial.ProjectSpec:
		rows, _ := h.evalRows(s.In)
		var out []value.Row
		for _, r := range rows {
			o := make(value.Row, len(s.Exprs))
			for i, e := range s.Exprs {
				o[i], _ = e.Eval(r)
			}
			out = append(out, o)
		}
		c, _ := partial.Build(spec)
		return out, c.Schema()
	}
	return nil, nil
}
