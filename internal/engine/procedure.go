package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Procedures (CREATE PROCEDURE) live with the functions, under their
// signatures, which count every parameter, OUT ones too; only CALL sees
// them. A procedure runs as PL/pgSQL code does (routine.go). Called by
// CALL outside a transaction block, as DO is, it may COMMIT and ROLLBACK:
// each commit ends the transaction so far, its view deltas emitted, and
// starts the next (procTx); called anywhere else, in a block, from a
// function or under a CALL in a block, COMMIT is 2D000, as in PostgreSQL.

// routinesOf returns the procedures (proc) or the functions among fns;
// fns itself when it holds no procedure, so a call's lookup allocates
// nothing.
func routinesOf(fns []*sql.Function, proc bool) []*sql.Function {
	mixed := false
	for _, f := range fns {
		if f.Procedure {
			mixed = true
			break
		}
	}
	if !mixed && !proc {
		return fns
	}
	var out []*sql.Function
	for _, f := range fns {
		if f.Procedure == proc {
			out = append(out, f)
		}
	}
	return out
}

// routineKind is "procedure" or "function"; with article, "a procedure".
func routineKind(f *sql.Function, proc bool) string {
	if f != nil {
		proc = f.Procedure
	}
	switch {
	case proc && f != nil:
		return "a procedure"
	case proc:
		return "procedure"
	case f != nil:
		return "a function"
	}
	return "function"
}

// Procedures implements sql.ProcedureCatalog.
func (e *Engine) Procedures(name string) []*sql.Function { return routinesOf(e.funcs[name], true) }

// Procedures implements sql.ProcedureCatalog.
func (r *recorder) Procedures(name string) []*sql.Function {
	if pc, ok := r.cat.(sql.ProcedureCatalog); ok {
		return pc.Procedures(name)
	}
	return nil
}

// procTx is the transaction control of a CALL or DO run outside a
// transaction block, shared by the procedures it calls in turn. subtx
// counts the blocks with an EXCEPTION clause running.
type procTx struct {
	subtx int
}

// EndTransaction implements plpgsql.TxRuntime.
func (rt *plRuntime) EndTransaction(rollback, chain bool) error {
	e := rt.s.e
	if rt.tx == nil || e.tx != nil && e.tx.explicit && !rt.s.promoted {
		return pgerr.New(plpgsql.CodeInvalidTransactionTermination, "invalid transaction termination")
	}
	if rt.tx.subtx > 0 {
		what := "commit"
		if rollback {
			what = "roll back"
		}
		return pgerr.New(plpgsql.CodeInvalidTransactionTermination, "cannot %s while a subtransaction is active", what)
	}
	// The transaction's settings end with it: SET LOCAL's, and a SET's
	// undone by ROLLBACK.
	if rt.s.promoted {
		err := rt.s.endPromotedPart(rollback)
		rt.s.endSettings(!rollback && err == nil)
		return err
	}
	if rollback {
		e.rollback()
	} else if err := e.commit(); err != nil {
		return err
	}
	rt.s.endNotify(!rollback)
	rt.s.endSettings(!rollback)
	e.begin()
	return nil
}

// Subtransaction implements plpgsql.TxRuntime.
func (rt *plRuntime) Subtransaction(delta int) {
	if rt.tx != nil {
		rt.tx.subtx += delta
	}
}

// controlled runs a CALL or DO whose code may end its transaction: each
// part it commits stays committed when a later one fails, which is rolled
// back alone. Inside a transaction block it runs as any statement does,
// its code refusing transaction control.
func (s *Session) controlled(fn func(tx *procTx) (Result, error)) (Result, error) {
	e := s.e
	if s.block || e.tx != nil && e.tx.explicit {
		return e.autocommit(func() (Result, error) { return fn(nil) })
	}
	e.begin()
	res, err := fn(&procTx{})
	if s.promoted {
		return res, err // the statement's end ends the block (endPromoted)
	}
	if err == nil && e.fkeys != nil {
		err = e.enforceForeignKeys(0)
	}
	if err == nil && e.deferKeys {
		err = e.checkKeys(0, nil)
	}
	if err != nil {
		e.rollback()
		return Result{}, err
	}
	if err := e.commit(); err != nil {
		return Result{}, err
	}
	return res, nil
}

// execCall runs CALL as a statement.
func (s *Session) execCall(c *sql.Call) (Result, error) {
	return s.controlled(func(tx *procTx) (Result, error) { return s.callProcedure(c, tx) })
}

// callProcedure runs a procedure; tx is the transaction control it may
// use, nil for none. The result is the row of its INOUT and OUT
// parameters, none when it has none.
func (s *Session) callProcedure(c *sql.Call, tx *procTx) (Result, error) {
	f := c.Proc
	var args []value.Value
	for i, a := range c.Args {
		if i < len(f.ArgModes) && f.ArgModes[i] == 'o' {
			continue // not evaluated, as PostgreSQL does not
		}
		v, err := a.Eval(nil)
		if err != nil {
			return Result{}, err
		}
		args = append(args, v)
	}
	if s.routineDepth >= maxRoutineDepth {
		return Result{}, pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("PL/pgSQL calls nest at most %d deep", maxRoutineDepth)
	}
	pf, err := s.e.compiled(f)
	if err != nil {
		return Result{}, err
	}
	s.routineDepth++
	defer func() { s.routineDepth-- }()
	if f.SecDef || len(f.Config) > 0 {
		// As PostgreSQL: such a procedure may not COMMIT or ROLLBACK.
		tx = nil
	}
	defer s.enterRoutine(f)()
	_, rows, err := pf.Call(&plRuntime{s: s, tx: tx, top: true}, args)
	if err != nil {
		return Result{}, err
	}
	res := Result{Tag: "CALL"}
	if len(f.Cols) > 0 && len(rows) > 0 {
		res.Columns, res.Rows, res.HasRows = f.Cols, rows[:1], true
	}
	return res, nil
}

// outArgs are, per output column of a procedure, the call's argument
// for it (plpgsql.Result.OutArgs).
func outArgs(c *sql.Call) []int {
	var out []int
	for i, m := range c.Proc.ArgModes {
		if m == 'o' || m == 'b' {
			out = append(out, c.ArgOf[i])
		}
	}
	return out
}
