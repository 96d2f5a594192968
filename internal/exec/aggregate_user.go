package exec

import (
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// userAggregate folds a group's inputs, in order, through a user-defined
// aggregate's transition function and applies its final function, as
// PostgreSQL's advance_transition_function and finalize_aggregate do: a
// strict transition function skips inputs with a NULL argument, takes
// the first input as the state when there is no initial state, and
// leaves a NULL state NULL.
func userAggregate(u *plan.UserAgg, ins []aggInput) (value.Value, error) {
	state := u.Init
	noState := u.Init.IsNull()
	row := make(value.Row, 1+u.NArgs)
	for _, in := range ins {
		row[0] = state
		switch {
		case u.NArgs == 1:
			row[1] = in.arg
		case u.NArgs > 1:
			copy(row[1:], in.arg.Fields())
		}
		if u.TransStrict {
			if hasNull(row[1:]) {
				continue
			}
			if noState {
				// The first input is the state: PostgreSQL requires then
				// that the first argument's type be the state's.
				state, noState = row[1], false
				continue
			}
			if state.IsNull() {
				continue
			}
		}
		next, err := u.Trans.Eval(row)
		if err != nil {
			return value.Null, err
		}
		state, noState = next, false
	}
	if u.Final == nil {
		return state, nil
	}
	if u.FinalStrict && state.IsNull() {
		return value.Null, nil
	}
	return u.Final.Eval(value.Row{state})
}

func hasNull(vs []value.Value) bool {
	for _, v := range vs {
		if v.IsNull() {
			return true
		}
	}
	return false
}
