package op

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestDataDriven runs testdata/*: build a circuit, step it, print deltas.
//
//	build
//	t = input
//	f = filter t #0>10      (expressions: #i, #i>c, #i!c fails when #i = c)
//	m = map f #1 #0
//	u = union f m
//	n = negate u
//	d = distinct m
//	v = integrate d
//	----
//	<the circuit's spec>
//
//	step
//	t +1 (1, 'a')
//	----
//	<each stepped node's output, or the error>
//
//	show v      (the state of a distinct or integrate)
//	stats       (per node counters)
func TestDataDriven(t *testing.T) {
	walkDataDriven(t, "testdata", func() func(*datadriven.TestData) (string, error) {
		var h ddHarness
		return h.run
	})
}

// walkDataDriven runs every test file under dir (not rapid's failure
// files) with a fresh harness from newRun per file; a harness error fails
// the test at its directive.
func walkDataDriven(t *testing.T, dir string, newRun func() func(*datadriven.TestData) (string, error)) {
	datadriven.Walk(t, dir, func(t *testing.T, path string) {
		if strings.Contains(path, "/rapid/") {
			t.Skip("rapid's failure file, not a test file")
		}
		run := newRun()
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			out, err := run(d)
			if err != nil {
				d.Fatalf(t, "%v", err)
			}
			return out
		})
	})
}

type ddHarness struct {
	c     *dataflow.Circuit
	names []string // by NodeID
	ids   map[string]dataflow.NodeID
}

func (h *ddHarness) node(name string) (dataflow.NodeID, error) {
	id, ok := h.ids[name]
	if !ok {
		return 0, fmt.Errorf("no node %q", name)
	}
	return id, nil
}

func (h *ddHarness) run(d *datadriven.TestData) (string, error) {
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
			var id dataflow.NodeID
			if kind == "input" {
				id = h.c.Input(name)
			} else {
				if len(args) == 0 {
					return "", fmt.Errorf("%s: no input", line)
				}
				var op dataflow.Operator
				in := []string{args[0]}
				switch kind {
				case "filter":
					op = NewFilter(parseExpr(args[1]))
				case "map":
					var xs []expr.Expr
					for _, a := range args[1:] {
						xs = append(xs, parseExpr(a))
					}
					op = NewMap(xs)
				case "union":
					op, in = NewUnion(len(args)), args
				case "negate":
					op = NewNegate()
				case "distinct":
					op = NewDistinct()
				case "integrate":
					op = NewIntegrate()
				default:
					return "", fmt.Errorf("unknown operator %q", kind)
				}
				var ins []dataflow.NodeID
				for _, a := range in {
					i, err := h.node(a)
					if err != nil {
						return "", err
					}
					ins = append(ins, i)
				}
				id = h.c.Add(op, ins...)
			}
			h.ids[name] = id
			h.names = append(h.names, name)
		}
		return h.c.String(), nil

	case "step":
		deltas := map[string]zset.ZSet{}
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			name, rest, _ := strings.Cut(line, " ")
			e, err := parseEntry(rest)
			if err != nil {
				return "", err
			}
			deltas[name] = append(deltas[name], e)
		}
		if err := h.c.Step(deltas); err != nil {
			return fmt.Sprintf("error: %s (%s)\n", err, pgerr.Code(err)), nil
		}
		var b strings.Builder
		for i, name := range h.names {
			id := dataflow.NodeID(i)
			if h.c.Node(id).Info().Kind == "Input" {
				continue
			}
			if out := h.c.Output(id); len(out) > 0 {
				fmt.Fprintf(&b, "%s:\n", name)
				for _, l := range strings.SplitAfter(out.String(), "\n") {
					if l != "" {
						b.WriteString(" " + l)
					}
				}
			}
		}
		if b.Len() == 0 {
			return "no change\n", nil
		}
		return b.String(), nil

	case "show":
		id, err := h.node(d.CmdArgs[0].Key)
		if err != nil {
			return "", err
		}
		op := h.c.Node(id)
		st := op.State()
		s := fmt.Sprint(op)
		if s == "" {
			s = "empty\n"
		}
		return fmt.Sprintf("%srows: %d\n", s, st.Rows), nil

	case "stats":
		var b strings.Builder
		for i, name := range h.names {
			s := h.c.Stats(dataflow.NodeID(i))
			fmt.Fprintf(&b, "%s: steps=%d in=%d out=%d\n", name, s.Steps, s.EntriesIn, s.EntriesOut)
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("unknown command %q", d.Cmd)
}
