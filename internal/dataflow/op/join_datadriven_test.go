package op

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
)

// TestJoinDataDriven runs jointestdata/*: circuits of joins, stepped with
// printed deltas. (They live apart from testdata/, whose walker knows only
// the stateless operators' commands.)
//
//	build
//	l = input
//	r = input
//	al = arrange l key=#0                 an Arrange owning a shared arrangement
//	j = join KIND l r key=#0/#0 [filter=#1<=#3] [project=#0,#3] [arity=2/2]
//	v = integrate j
//	----
//	<the circuit's spec>
//
// KIND is inner, left, right, full, semi, anti or notin; key=/ (or no key)
// is a cross join. A join over Arrange nodes reads their arrangements
// (shared) instead of keeping its own. step, show and stats as in
// testdata/; show also prints an Arrange's arrangement.
func TestJoinDataDriven(t *testing.T) {
	walkDataDriven(t, "jointestdata", func() func(*datadriven.TestData) (string, error) {
		h := &joinHarness{}
		return h.run
	})
}

type joinHarness struct {
	ddHarness
}

// parseJoinExpr reads #a<=#b, or the syntax of parseExpr.
func parseJoinExpr(s string) expr.Expr {
	if a, b, ok := strings.Cut(s, "<="); ok {
		ai, _ := strconv.Atoi(strings.TrimPrefix(a, "#"))
		bi, _ := strconv.Atoi(strings.TrimPrefix(b, "#"))
		return le{a: ai, b: bi}
	}
	return parseExpr(s)
}

func parseExprList(s string) []expr.Expr {
	var xs []expr.Expr
	for _, p := range strings.Split(s, ",") {
		if p != "" {
			xs = append(xs, parseJoinExpr(p))
		}
	}
	return xs
}

func (h *joinHarness) run(d *datadriven.TestData) (string, error) {
	switch d.Cmd {
	case "build":
		h.c = dataflow.NewCircuit()
		h.names = nil
		h.ids = map[string]dataflow.NodeID{}
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			f := strings.Fields(line)
			if len(f) < 3 || f[1] != "=" {
				return "", fmt.Errorf("bad node %q", line)
			}
			name, kind, args := f[0], f[2], f[3:]
			opts := map[string]string{}
			var pos []string
			for _, a := range args {
				if k, v, ok := strings.Cut(a, "="); ok {
					opts[k] = v
				} else {
					pos = append(pos, a)
				}
			}
			var id dataflow.NodeID
			switch kind {
			case "input":
				id = h.c.Input(name)
			case "arrange":
				in, err := h.node(pos[0])
				if err != nil {
					return "", err
				}
				a := dataflow.NewArrangement(dataflow.ArrangementSpec{Name: pos[0], Key: parseExprList(opts["key"])})
				id = h.c.Add(NewArrange(a), in)
			case "integrate":
				in, err := h.node(pos[0])
				if err != nil {
					return "", err
				}
				id = h.c.Add(NewIntegrate(), in)
			case "join":
				if len(pos) != 3 {
					return "", fmt.Errorf("%s: want join KIND LEFT RIGHT", line)
				}
				jk, ln, rn := pos[0], pos[1], pos[2]
				li, err := h.node(ln)
				if err != nil {
					return "", err
				}
				ri, err := h.node(rn)
				if err != nil {
					return "", err
				}
				lk, rk, _ := strings.Cut(opts["key"], "/")
				spec := JoinSpec{
					Left:  JoinSide{Name: ln, Arity: 2, Key: parseExprList(lk)},
					Right: JoinSide{Name: rn, Arity: 2, Key: parseExprList(rk)},
				}
				if a, ok := opts["arity"]; ok {
					la, ra, _ := strings.Cut(a, "/")
					spec.Left.Arity, _ = strconv.Atoi(la)
					spec.Right.Arity, _ = strconv.Atoi(ra)
				}
				if r, ok := h.c.Node(li).(*Arrange); ok {
					spec.Left.Index = r.Arrangement()
				}
				if r, ok := h.c.Node(ri).(*Arrange); ok {
					spec.Right.Index = r.Arrangement()
				}
				if s, ok := opts["filter"]; ok {
					spec.Residual = parseJoinExpr(s)
				}
				if s, ok := opts["project"]; ok {
					spec.Project = parseExprList(s)
				}
				var op dataflow.Operator
				switch jk {
				case "inner":
					op = NewInnerJoin(spec)
				case "left":
					op = NewOuterJoin(LeftOuter, spec)
				case "right":
					op = NewOuterJoin(RightOuter, spec)
				case "full":
					op = NewOuterJoin(FullOuter, spec)
				case "semi", "anti":
					op = NewSemiJoin(spec, jk == "anti")
				case "notin":
					op = NewNotInJoin(spec)
				default:
					return "", fmt.Errorf("unknown join %q", jk)
				}
				id = h.c.Add(op, li, ri)
			default:
				return "", fmt.Errorf("unknown operator %q", kind)
			}
			h.ids[name] = id
			h.names = append(h.names, name)
		}
		return h.c.String(), nil

	case "info":
		id, err := h.node(d.CmdArgs[0].Key)
		if err != nil {
			return "", err
		}
		op := h.c.Node(id)
		info, st := op.Info(), op.State()
		return fmt.Sprintf("kind: %s\ndetail: %s\nstate: %s\ncost: %s\nrows: %d\n", info.Kind, info.Detail, info.State, info.Cost, st.Rows), nil

	}
	return h.ddHarness.run(d)
}
