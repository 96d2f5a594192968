package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// A table's DEFAULT and CHECK expressions, and a domain's CHECK, may call
// user functions (SQL and PL/pgSQL). PostgreSQL binds such a call to the
// function's oid and reads the body at each call, so that CREATE OR
// REPLACE changes what the default computes from then on. Here the call
// is bound to the function's signature, never inlined: the engine runs
// the function as it is when the row is written (a SQL function as the
// PL/pgSQL code of its statements), for the session that writes the row.

// TableRoutineCatalog is a Catalog that runs the user functions a table's
// definition calls: TableRoutines runs them for the session writing.
type TableRoutineCatalog interface {
	TableRoutines() expr.Routines
}

// TableCodeMark ends the RoutineSig of a function called in a table's
// definition: the engine runs the function as it is at the call, a SQL
// one as its code form (TableCodeForm).
const TableCodeMark = "\x00code"

// tableDefCall binds a call of user function c in a table's or a domain's
// definition to a call the engine runs by the function's signature.
func (b *binder) tableDefCall(s *scope, c *userCall, loc int32) (expr.Expr, error) {
	fn := c.fn
	rc, ok := b.cat.(TableRoutineCatalog)
	switch {
	case !ok || rc.TableRoutines() == nil:
		return nil, b.refuse(loc, "function %s() in a table's definition is not supported here", fn.Name)
	case fn.Trigger:
		return nil, ErrTriggerCall()
	case fn.Generic != nil:
		return nil, b.refuse(loc, "polymorphic function %s() in a table's definition is not supported", fn.Name).
			WithHint("declare the function with actual types")
	case fn.Set:
		return nil, b.refuse(loc, "set-returning function %s() in a table's definition is not supported", fn.Name)
	case fn.AnyRecord || len(fn.Cols) > 1 || fn.outRecord() || fn.RowFields() != nil:
		return nil, b.refuse(loc, "function %s() returning a record in a table's definition is not supported", fn.Name)
	case fn.Language != LangPLpgSQL && fn.code == nil:
		return nil, b.refuse(loc, "SQL function %s() in a table's definition is not supported", fn.Name).
			WithHint("write the expression itself")
	}
	args, err := b.routineArgs(s, c)
	if err != nil {
		return nil, err
	}
	// Marked so, whatever its language: CREATE OR REPLACE may change it.
	sig := fn.Signature() + TableCodeMark
	t := value.TextType
	if len(fn.Cols) == 1 {
		t = fn.Cols[0].Type
	}
	call := checkedResult(&expr.RoutineCall{Name: fn.Name, Sig: sig, Args: args, T: t, Strict: fn.Strict,
		C: &expr.StmtClock{Routines: rc.TableRoutines()}, Immutable: fn.Volatility == "immutable"}, fn)
	if len(fn.Cols) == 0 {
		if fn.Language != LangPLpgSQL {
			// A SQL function returning void gives NULL, a PL/pgSQL one
			// the empty value (routineCall).
			return &expr.NullIf{L: call, R: &expr.Const{V: value.NewText(value.Text, ""), T: value.TextType}}, nil
		}
	}
	return call, nil
}

// userCallInTableDef resolves and binds a call of a user function of a
// table's definition; ok is false when none of fns takes the arguments.
func (b *binder) userCallInTableDef(s *scope, fns []*Function, f *pg_query.FuncCall) (expr.Expr, bool, error) {
	c, ok, err := b.resolveCall(s, fns, f.Args, f.Location, f.FuncVariadic)
	if !ok && err == nil && (f.FuncVariadic || namedCall(f.Args)) {
		return nil, true, b.noVariadicMatch(s, name0(fns), f)
	}
	if !ok || err != nil {
		return nil, ok || err != nil, err
	}
	e, err := b.tableDefCall(s, c, f.Location)
	return e, true, err
}

func name0(fns []*Function) string { return fns[0].Name }

// stripTableCalls replaces the user function calls of e bound by
// tableDefCall, with keep true for those it may keep, by NULLs of their
// types, so that what is left can be judged by its built-in functions
// alone (a CHECK refuses volatile built-in ones here).
func stripTableCalls(e expr.Expr, keep func(*expr.RoutineCall) bool) expr.Expr {
	return expr.Rewrite(e, func(n expr.Expr) expr.Expr {
		if rc, ok := n.(*expr.RoutineCall); ok && keep(rc) {
			return &expr.Const{V: value.Null, T: rc.T}
		}
		return n
	})
}

// anyTableCall keeps every call (stripTableCalls): PostgreSQL lets a
// CHECK call a user function whatever its marking.
func anyTableCall(*expr.RoutineCall) bool { return true }

// immutableTableCall keeps the calls of IMMUTABLE functions, which a
// generated column may make.
func immutableTableCall(rc *expr.RoutineCall) bool { return rc.Immutable }

// TableCodeForm is the function a table's definition runs for a call of f
// marked TableCodeMark: f itself when it runs as code already, else the
// PL/pgSQL function its statements make; nil when it cannot run so.
func (f *Function) TableCodeForm() *Function {
	if f.Language == LangPLpgSQL {
		return f
	}
	return f.codeInstance()
}
