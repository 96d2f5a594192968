package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Routines runs the functions written in a procedural language (PL/pgSQL)
// for the session that runs a statement: Call returns a scalar
// function's result, CallSet the rows of a set-returning one (or the one
// row of a function of OUT parameters). sig is the function's signature,
// args its input arguments, already of its parameters' types.
type Routines interface {
	Call(sig string, args []value.Value) (value.Value, error)
	CallSet(sig string, args []value.Value) ([]value.Row, error)
}

// RoutineCall is a call of a procedural function in an expression. It
// runs the function through the statement's clock (StmtClock.Routines);
// a STRICT one gives NULL for a NULL argument without running.
type RoutineCall struct {
	Name, Sig string
	Args      []Expr
	T         value.Type
	Strict    bool
	C         *StmtClock
	// Immutable marks a call of a function declared IMMUTABLE, which a
	// generated column may make (a table's definition calls it by its
	// signature: sql.TableRoutineCatalog).
	Immutable bool
	// Result is the domain the function returns (RETURNS d), nil for
	// another type: the value it returns is checked against it, an
	// error taking ResultContext, as PostgreSQL casts the return value to
	// the function's return type. A STRICT call that does not run is
	// NULL unchecked, as there.
	Result        *Domain
	ResultContext string
}

var _ Expr = (*RoutineCall)(nil)

func (c *RoutineCall) Type() value.Type { return c.T }
func (c *RoutineCall) Volatile() bool   { return true }
func (*RoutineCall) expr()              {}
func (c *RoutineCall) String() string   { return c.Name + "(" + list(c.Args) + ")" }

// Eval implements Expr.
func (c *RoutineCall) Eval(row value.Row) (value.Value, error) {
	rs, rerr := routinesOf(c.C, c.Name)
	strict := c.Strict
	if st, ok := rs.(RoutineStrictness); ok && rerr == nil {
		if now, found := st.RoutineStrict(c.Sig); found {
			strict = now
		}
	}
	args, null, err := routineArgs(c.Args, row, strict)
	if err != nil || null {
		return value.Null, err
	}
	if rerr != nil {
		return value.Null, rerr
	}
	v, err := rs.Call(c.Sig, args)
	if err != nil || c.Result == nil {
		return v, err
	}
	if err := c.Result.Check(v); err != nil {
		return value.Null, pgerr.Wrap(err).WithContext(c.ResultContext)
	}
	return v, nil
}

// RoutineStrictness is Routines that tells whether a routine is STRICT
// now: a call bound before CREATE OR REPLACE changed it (a table's
// default or check, a plain view) follows the change, as PostgreSQL's
// calls do.
type RoutineStrictness interface {
	RoutineStrict(sig string) (strict, ok bool)
}

// RoutineSRF is the generator of a procedural function called in FROM.
func RoutineSRF(name, sig string, strict bool, c *StmtClock) func(args []value.Value, emit func(value.Row) error) error {
	return func(args []value.Value, emit func(value.Row) error) error {
		if strict {
			for _, a := range args {
				if a.IsNull() {
					return nil
				}
			}
		}
		rs, err := routinesOf(c, name)
		if err != nil {
			return err
		}
		rows, err := rs.CallSet(sig, args)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
}

func routineArgs(es []Expr, row value.Row, strict bool) ([]value.Value, bool, error) {
	args := make([]value.Value, len(es))
	for i, a := range es {
		v, err := a.Eval(row)
		if err != nil {
			return nil, false, err
		}
		if strict && v.IsNull() {
			return nil, true, nil
		}
		args[i] = v
	}
	return args, false, nil
}

func routinesOf(c *StmtClock, name string) (Routines, error) {
	if c == nil || c.Routines == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "%s() is supported only in statements a session runs", strings.ToLower(name))
	}
	return c.Routines, nil
}
