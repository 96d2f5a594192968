package plpgsql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
)

// Transaction control and CALL in PL/pgSQL code. They keep no state of
// their own: subtx, on the call, counts the blocks with an EXCEPTION
// clause running, inside which COMMIT and ROLLBACK are refused as
// PostgreSQL refuses them while a subtransaction is active.

// TxRuntime is a Runtime that may end the transaction under the code:
// that of a procedure called by CALL, or of DO, outside a transaction
// block. A Runtime without it refuses COMMIT and ROLLBACK (2D000).
type TxRuntime interface {
	// EndTransaction commits (or rolls back) the changes made so far and
	// starts a new transaction; chain is AND CHAIN.
	EndTransaction(rollback, chain bool) error
	// Subtransaction is told when a block with an EXCEPTION clause
	// begins (+1) and ends (-1), nested calls' too.
	Subtransaction(delta int)
}

type (
	// txEnd is COMMIT or ROLLBACK [AND CHAIN].
	txEnd struct{ rollback, chain bool }
	// callStmt is CALL proc(args): the INOUT and OUT parameters' values
	// are assigned to the variables given as their arguments.
	callStmt struct{ e *pexpr }
)

func (*txEnd) isStmt()    {}
func (*callStmt) isStmt() {}

func (c *call) endTransaction(s *txEnd) error {
	tr, ok := c.rt.(TxRuntime)
	if !ok {
		return pgerr.New(CodeInvalidTransactionTermination, "invalid transaction termination")
	}
	if c.subtx > 0 {
		what := "commit"
		if s.rollback {
			what = "roll back"
		}
		return pgerr.New(CodeInvalidTransactionTermination, "cannot %s while a subtransaction is active", what)
	}
	if err := tr.EndTransaction(s.rollback, s.chain); err != nil {
		return err
	}
	c.cursors.closeUnpinned()
	return nil
}

// CodeInvalidTransactionTermination is 2D000.
const CodeInvalidTransactionTermination = "2D000"

// enterSubtx and leaveSubtx count a block with an EXCEPTION clause.
func (c *call) enterSubtx() {
	c.subtx++
	if tr, ok := c.rt.(TxRuntime); ok {
		tr.Subtransaction(1)
	}
}

func (c *call) leaveSubtx() {
	c.subtx--
	if tr, ok := c.rt.(TxRuntime); ok {
		tr.Subtransaction(-1)
	}
}

// callProc runs CALL: Result.OutArgs says which argument of the call each
// output column is for; each must be a variable, which takes its value.
func (c *call) callProc(s *callStmt) error {
	res, err := c.run(s.e)
	if err != nil {
		return err
	}
	if len(res.Rows) == 0 || len(res.OutArgs) == 0 {
		return nil
	}
	p := s.e.prep
	cs := p.st.Node.GetCallStmt()
	if cs == nil || cs.Funccall == nil {
		return nil
	}
	args := cs.Funccall.Args
	row := res.Rows[0]
	for k, ai := range res.OutArgs {
		if k >= len(row) {
			break
		}
		name := res.Cols[k].Name
		if ai < 0 || ai >= len(args) {
			return pgerr.New(pgerr.SyntaxError, "procedure parameter %q is an output parameter but corresponding argument is not writable", name)
		}
		a := args[ai]
		if na := a.GetNamedArgExpr(); na != nil {
			a = na.Arg
		}
		pr := a.GetParamRef()
		if pr == nil || int(pr.Number) < 1 || int(pr.Number) > len(p.refs) || p.refs[pr.Number-1].field != "" {
			return pgerr.New(pgerr.SyntaxError, "procedure parameter %q is an output parameter but corresponding argument is not writable", name)
		}
		r := p.refs[pr.Number-1]
		v := c.fr.find(r.label, r.name)
		if v == nil {
			return pgerr.New(pgerr.Internal, "variable %q not found", r.name)
		}
		val := row[k]
		if !v.isRec && !val.IsNull() {
			if val, err = c.rt.Assign(val, v.t); err != nil {
				return err
			}
		}
		if err := c.setVar(v, val, false); err != nil {
			return err
		}
	}
	return nil
}
