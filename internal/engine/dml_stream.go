package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// rowStream is the rows an INSERT writes, made one at a time where its
// source calls a user function: PostgreSQL makes each row of the source
// as the statement writes it, so that a volatile function (a column's
// default, an item of the select list) sees the rows written before it
// (funcsnapshot.go). The top of the source that makes one row from one,
// its projections and VALUES, is evaluated row by row as the statement
// writes; what is below it is run at once. A source that calls no user
// function is run at once whole, as its rows cannot tell.
type rowStream struct {
	input plan.Node
	// values are the rows of a VALUES at the top (below the steps); nil
	// when input makes the rows.
	values [][]expr.Expr
	// steps are the projections applied to each row, innermost first.
	steps [][]expr.Expr
}

// streamOf splits source into what runs at once and what is made per
// row: the chain of projections at its top, down to the last that calls a
// user function or to a VALUES below them that calls one.
func streamOf(source plan.Node) rowStream {
	var chain []*plan.Project
	n := source
	for p, ok := n.(*plan.Project); ok; p, ok = n.(*plan.Project) {
		chain = append(chain, p)
		n = p.Input
	}
	var s rowStream
	keep := 0 // the projections made per row: chain[:keep]
	if v, ok := n.(*plan.Values); ok && slices.ContainsFunc(v.Rows, anyRoutineCall) {
		s.values, keep = v.Rows, len(chain)
	} else {
		for i, p := range chain {
			if anyRoutineCall(p.Exprs) {
				keep = i + 1
			}
		}
		s.input = source
		if keep > 0 {
			s.input = chain[keep-1].Input
		}
	}
	for i := keep - 1; i >= 0; i-- {
		s.steps = append(s.steps, chain[i].Exprs)
	}
	return s
}

func anyRoutineCall(es []expr.Expr) bool { return slices.ContainsFunc(es, callsTableRoutine) }

// rows returns the rows to make the statement's rows from, one each.
func (s rowStream) rows(src exec.Source) ([]value.Row, error) {
	if s.values != nil {
		return make([]value.Row, len(s.values)), nil
	}
	return exec.Run(s.input, src)
}

// row makes the statement's i-th row, a new one, from in, the i-th of
// rows.
func (s rowStream) row(i int, in value.Row) (value.Row, error) {
	if s.values == nil && len(s.steps) == 0 {
		return slices.Clone(in), nil
	}
	if s.values != nil {
		var err error
		if in, err = evalRow(s.values[i], nil); err != nil {
			return nil, err
		}
	}
	for _, step := range s.steps {
		var err error
		if in, err = evalRow(step, in); err != nil {
			return nil, err
		}
	}
	return in, nil
}

func evalRow(es []expr.Expr, in value.Row) (value.Row, error) {
	out := make(value.Row, len(es))
	for i, e := range es {
		v, err := e.Eval(in)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
