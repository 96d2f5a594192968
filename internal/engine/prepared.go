package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Prepared is a statement parsed and bound once, with parameters $1…$n,
// that ExecPrepared runs with new values. It is bound again, to the same
// text, when the catalog has changed since it was bound.
type Prepared struct {
	stmt   *sql.Stmt
	bound  sql.Bound
	params sql.Params
	rec    *recorder
	gen    uint64
}

// Prepare binds s, deducing its parameters' types from their uses.
func (e *Engine) Prepare(s *sql.Stmt) (*Prepared, error) {
	p := &Prepared{stmt: s}
	if err := e.bindPrepared(p); err != nil {
		return nil, err
	}
	return p, nil
}

func (e *Engine) bindPrepared(p *Prepared) error {
	rec := &recorder{cat: e, seen: map[string]bool{}}
	b, ps, err := sql.BindPrepared(rec, p.stmt)
	if err != nil {
		return err
	}
	p.bound, p.params, p.rec, p.gen = b, ps, rec, e.catalogGen
	return nil
}

// ParamTypes returns the types of the parameters $1…$n.
func (p *Prepared) ParamTypes() []value.Type {
	out := make([]value.Type, len(p.params))
	for i, s := range p.params {
		out[i] = s.T
	}
	return out
}

// TxControl reports whether the statement is BEGIN, COMMIT or ROLLBACK.
func (p *Prepared) TxControl() bool {
	_, ok := p.bound.(*sql.Tx)
	return ok
}

// ExecPrepared runs p with args as $1…$n. Each argument is converted to
// its parameter's type as an assignment would convert it, and a text
// argument is read as that type's input, as PostgreSQL reads parameters
// sent as text.
func (e *Engine) ExecPrepared(p *Prepared, args []value.Value) ([]Result, error) {
	if e.tx != nil && e.tx.failed {
		return e.inFailedTx(p.bound)
	}
	if p.gen != e.catalogGen {
		if err := e.bindPrepared(p); err != nil {
			return nil, e.fail(err)
		}
	}
	if len(args) != len(p.params) {
		return nil, e.fail(pgerr.New(pgerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement requires %d", len(args), len(p.params)))
	}
	defer func() {
		for _, s := range p.params {
			s.V, s.Set = value.Null, false
		}
	}()
	for i, s := range p.params {
		v, err := paramValue(s, args[i])
		if err != nil {
			return nil, e.fail(err)
		}
		s.V, s.Set = v, true
	}
	return e.run(p.bound, p.stmt, p.rec)
}

// paramValue converts v to s's type, as assignValue does, refusing the
// pairs of types no cast joins implicitly or by assignment.
func paramValue(s *expr.ParamSlot, v value.Value) (value.Value, error) {
	from, to := v.Kind(), s.T.Kind
	if v.IsNull() || from.IsString() || to.IsString() || from == to || value.CanCast(from, to, false) ||
		(from.IsNumeric() && to.IsNumeric()) || (from.IsDateTime() && to.IsDateTime()) {
		return assignValue(v, s.T)
	}
	return value.Null, pgerr.New(pgerr.DatatypeMismatch, "parameter $%d is of type %s, but the argument is of type %s", s.N, s.T, from)
}

// ExecPreparedInTx runs p inside a transaction the typed API opened. A
// failure undoes the statement alone and leaves the transaction open, as a
// typed change's failure does.
func (e *Engine) ExecPreparedInTx(p *Prepared, args []value.Value) ([]Result, error) {
	res, err := e.ExecPrepared(p, args)
	if err != nil && e.tx != nil {
		e.tx.failed = false
	}
	return res, err
}
