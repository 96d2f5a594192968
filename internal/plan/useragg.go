package plan

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// UserAgg is a user-defined aggregate (CREATE AGGREGATE) as a call runs
// it: a fold of the group's inputs, in their order, through the
// transition function, then the final function of the last state.
type UserAgg struct {
	// Sig is the aggregate's signature, name(argument types).
	Sig string
	// NArgs is the number of the aggregate's arguments: Arg of the call
	// is the one argument, or a record of them when there are several
	// (none: Arg is nil).
	NArgs int
	// Trans computes the next state over the row (state, arguments…).
	Trans expr.Expr
	// TransStrict is a strict transition function: an input with a NULL
	// argument is skipped and, without an initial state, the first input
	// becomes the state, as PostgreSQL does.
	TransStrict bool
	// Final computes the result over the row (state); nil when the
	// result is the state. FinalStrict makes a NULL state's result NULL
	// without calling it.
	Final       expr.Expr
	FinalStrict bool
	// Init is the initial state (INITCOND), NULL when there is none.
	Init value.Value
	// Result is the aggregate's result type.
	Result value.Type
}
