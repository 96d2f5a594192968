package op

import (
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// userFold runs a user-defined aggregate over a group's elements, which
// orderedAcc keeps (every value with its multiplicity, ordered): it keeps
// no state of its own between steps, and a change costs a fold over the
// group's elements. A strict transition function skips elements with a
// NULL argument and, without an initial state, takes the first element
// as the state, as PostgreSQL does.
type userFold struct {
	u       *plan.UserAgg
	state   value.Value
	noState bool
	row     value.Row
}

func newUserFold(u *plan.UserAgg) *userFold {
	return &userFold{u: u, state: u.Init, noState: u.Init.IsNull(), row: make(value.Row, 1+u.NArgs)}
}

// step folds one element, its arguments in arg (a record of them when
// there are several).
func (f *userFold) step(arg value.Value) error {
	u, row := f.u, f.row
	row[0] = f.state
	switch {
	case u.NArgs == 1:
		row[1] = arg
	case u.NArgs > 1:
		copy(row[1:], arg.Fields())
	}
	if u.TransStrict {
		for _, v := range row[1:] {
			if v.IsNull() {
				return nil
			}
		}
		if f.noState {
			f.state, f.noState = row[1], false
			return nil
		}
		if f.state.IsNull() {
			return nil
		}
	}
	next, err := u.Trans.Eval(row)
	if err != nil {
		return err
	}
	f.state, f.noState = next, false
	return nil
}

// result applies the final function to the state.
func (f *userFold) result() (value.Value, error) {
	if f.u.Final == nil {
		return f.state, nil
	}
	if f.u.FinalStrict && f.state.IsNull() {
		return value.Null, nil
	}
	return f.u.Final.Eval(value.Row{f.state})
}
