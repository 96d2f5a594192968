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

// Count returns how many of a relation's rows (each of weight one; scan
// calls yield with each until it returns false) pass the stages. Each
// stage is evaluated on each row as the circuit's filters and projections
// evaluate it, so that a row on which one fails fails here with the same
// error, except trailing projections of columns alone, which cannot fail.
func (b *BaseRows) Count(scan func(yield func(value.Row) bool)) (n int64, err error) {
	pass, _ := b.Counter()
	scan(func(row value.Row) bool {
		ok, perr := pass(row)
		if perr != nil {
			err = perr
			return false
		}
		if ok {
			n++
		}
		return true
	})
	return n, err
}

// Counter returns Count's test of one row: whether it passes the stages,
// or the error a stage meets. split reports whether the test may run on
// two goroutines at once: every stage it evaluates is a filter comparing
// a column with an integer constant (expr.ColConstOf), which reads the
// row alone, where a projection reuses a row of its own.
func (b *BaseRows) Counter() (pass func(row value.Row) (bool, error), split bool) {
	stages := b.Stages
	for len(stages) > 0 && stages[len(stages)-1].Filter == nil && columnsOnly(stages[len(stages)-1].Project) {
		stages = stages[:len(stages)-1]
	}
	filters := make([]expr.ColConst, len(stages))
	fast := make([]bool, len(stages))
	scratch := make([]value.Row, len(stages)) // a projection's row, reused
	split = true
	for i, s := range stages {
		if s.Filter != nil {
			filters[i], fast[i] = expr.ColConstOf(s.Filter)
		} else {
			scratch[i] = make(value.Row, len(s.Project))
		}
		split = split && fast[i]
	}
	pass = func(row value.Row) (bool, error) {
		for i, s := range stages {
			if s.Filter == nil {
				out := scratch[i]
				for j, x := range s.Project {
					v, err := x.Eval(row)
					if err != nil {
						return false, err
					}
					out[j] = v
				}
				row = out
				continue
			}
			if fast[i] {
				if pass, ok := filters[i].Test(row); ok {
					if !pass {
						return false, nil
					}
					continue
				}
			}
			v, err := s.Filter.Eval(row)
			if err != nil {
				return false, err
			}
			if !isTrue(v) {
				return false, nil
			}
		}
		return true, nil
	}
	return pass, split
}

// columnsOnly reports whether every expression of a projection is a
// column of its input.
func columnsOnly(exprs []expr.Expr) bool {
	for _, x := range exprs {
		if _, ok := x.(*expr.Col); !ok {
			return false
		}
	}
	return true
}
