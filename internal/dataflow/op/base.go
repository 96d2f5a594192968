package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// IndexUser is an operator whose reserves (a top-k's rows, MIN's and
// MAX's best values) refill from a stored relation's index shared by the
// views that need it: UseIndex hands it the index for its slot (a
// GroupBy's aggregate; a TopK has one).
type IndexUser interface {
	UseIndex(slot int, a *dataflow.Arrangement) error
}

var (
	_ IndexUser = (*TopK)(nil)
	_ IndexUser = (*GroupBy)(nil)
)

// BaseRows is the way from a stored relation's rows to an operator's input:
// filters and projections, applied in order, as the circuit applies them.
type BaseRows struct {
	Relation string
	Stages   []BaseStage
}

// BaseStage is a filter (Filter set) or a projection.
type BaseStage struct {
	Filter  expr.Expr
	Project []expr.Expr
}

// apply passes a row of the relation through the stages; ok is false
// when a filter drops it.
func (b *BaseRows) apply(row value.Row) (_ value.Row, ok bool, err error) {
	for _, s := range b.Stages {
		if s.Filter != nil {
			v, err := s.Filter.Eval(row)
			if err != nil || !isTrue(v) {
				return nil, false, err
			}
			continue
		}
		out := make(value.Row, len(s.Project))
		for i, x := range s.Project {
			if out[i], err = x.Eval(row); err != nil {
				return nil, false, err
			}
		}
		row = out
	}
	return row, true, nil
}

// filters reports whether a stage filters.
func (b *BaseRows) filters() bool {
	for _, s := range b.Stages {
		if s.Filter != nil {
			return true
		}
	}
	return false
}

// Projects reports whether a stage projects.
func (b *BaseRows) Projects() bool {
	for _, s := range b.Stages {
		if s.Project != nil {
			return true
		}
	}
	return false
}
