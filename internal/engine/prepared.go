package engine

import (
	"slices"
	"sync"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// Prepared is a statement parsed and bound once, with parameters $1…$n,
// that sessions run with new values. Each running session uses a binding
// of its own (the parameters' values live in the bound plan), taken from
// a free list; a binding is bound again, to the same text, when the
// catalog has changed since it was bound.
type Prepared struct {
	stmt      *sql.Stmt
	txControl bool
	mu        sync.Mutex
	types     []value.Type // of the last binding
	// domains are the last binding's parameters declared of a domain
	// (CheckArgs).
	domains []expr.ParamSlot
	// regs are, by parameter, the reg* types of the last binding's
	// parameters cast to one (expr.ParamSlot's Reg); nil when none is.
	regs    []value.Kind
	cols    []plan.Column
	hasRows bool // the statement returns a result set: cols describe it
	free    []*binding
	// preparedAt and executions are a PREPARE's time (in PostgreSQL's
	// microseconds) and its EXECUTEs, which pg_prepared_statements shows.
	preparedAt, executions int64
}

// binding is one binding of a prepared statement.
type binding struct {
	bound  sql.Bound
	params sql.Params
	rec    *recorder
	gen    uint64
	// ns is the temporary tables' namespace of the session it was bound
	// for, "" when it was bound without temporary tables (temp.go).
	ns string
}

// Prepare binds s, deducing its parameters' types from their uses.
func (e *Engine) Prepare(s *sql.Stmt) (*Prepared, error) { return e.prepare(s, nil) }

// Prepare binds s as Engine.Prepare does, for a caller that holds only
// the session; its temporary tables are bound in it.
func (s *Session) Prepare(st *sql.Stmt) (*Prepared, error) { return s.e.prepare(st, s) }

func (e *Engine) prepare(st *sql.Stmt, s *Session) (*Prepared, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	p := &Prepared{stmt: st}
	bd, err := e.bindPrepared(p, s)
	if err != nil {
		return nil, err
	}
	_, p.txControl = bd.bound.(*sql.Tx)
	p.free = append(p.free, bd)
	return p, nil
}

// bindPrepared binds p's statement for the session s (nil for none:
// no temporary tables); the caller holds the engine's lock.
func (e *Engine) bindPrepared(p *Prepared, s *Session) (*binding, error) {
	rec := &recorder{cat: e, seen: map[string]bool{}, text: p.stmt.SQL}
	st := p.stmt
	ns := ""
	if s != nil {
		rec.rowSec, rec.rowSecOff = s.rowSecurity(), s.rowSecOff()
		rec.session = s // its TimeZone reads the statement's literals
		st = sql.AliasTempSchema(st, s.ownTempSchema())
		if rn := s.tempNames(st); rn != nil {
			var err error
			if st, err = sql.RenameRelations(st, rn); err != nil {
				return nil, err
			}
		}
		if s.tempNS != "" || sql.MentionsTemp(st.SQL) {
			// Its temporary functions, types and children (temp.go).
			var err error
			if st, err = sql.RenameTempObjects(st, s.tempObjects()); err != nil {
				return nil, err
			}
			rec.temps, ns = s, s.tempNS+s.tempPathNS()
		}
		var err error
		if st, err = s.qualify(st); err != nil {
			return nil, err
		}
		ns += s.schemaNS()
		rec.names = &nameScope{e: e, path: s.searchPath(), user: s.usageUser(), temp: s.ownTempSchema(), tempAt: s.tempAt()}
	}
	b, ps, err := sql.BindPrepared(rec, st)
	if err != nil {
		return nil, err
	}
	if rec.temps != nil {
		if err := rec.temps.refuseTempUses(b, rec); err != nil {
			return nil, err
		}
	}
	types := make([]value.Type, len(ps))
	var domains []expr.ParamSlot
	var regs []value.Kind
	for i, s := range ps {
		types[i] = s.T
		if s.Reg != value.Unknown {
			if regs == nil {
				regs = make([]value.Kind, len(ps))
			}
			regs[i] = s.Reg
		}
		if s.Domain != nil {
			domains = append(domains, expr.ParamSlot{N: s.N, T: s.T, Domain: s.Domain})
		}
	}
	cols, hasRows := resultColumns(b)
	p.mu.Lock()
	p.types, p.domains, p.regs = types, domains, regs
	p.cols, p.hasRows = cols, hasRows
	p.mu.Unlock()
	return &binding{bound: b, params: ps, rec: rec, gen: e.catalogGen, ns: ns}, nil
}

// ParamTypes returns the types of the parameters $1…$n.
func (p *Prepared) ParamTypes() []value.Type {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.types)
}

// Columns returns the columns of the statement's result set, and whether
// it returns one, as of its last binding.
func (p *Prepared) Columns() ([]plan.Column, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cols, p.hasRows
}

// CurrentColumns returns p's result columns as the catalog binds it now,
// binding it again if the catalog changed since: for a caller that told a
// client of the columns and must not run a statement whose columns
// changed.
func (s *Session) CurrentColumns(p *Prepared) ([]plan.Column, bool, error) {
	e := s.e
	e.mu.RLock()
	bd := p.take()
	if bd == nil || bd.gen != e.catalogGen || bd.ns != s.bindNS() || !s.sameBindSecurity(bd.rec) {
		nb, err := e.bindPrepared(p, s)
		if err != nil {
			e.mu.RUnlock()
			p.give(bd)
			return nil, false, err
		}
		bd = nb
	}
	e.mu.RUnlock()
	p.give(bd)
	cols, hasRows := p.Columns()
	return cols, hasRows, nil
}

// resultColumns returns the columns of the result set b returns, and
// whether it returns one.
func resultColumns(b sql.Bound) ([]plan.Column, bool) {
	switch b := b.(type) {
	case *sql.Select:
		return withOrigins(b.Plan.Columns(), b.Origins), true
	case *sql.Insert:
		return withOrigins(b.RetCols, b.RetOrigins), len(b.Returning) > 0
	case *sql.Update:
		return withOrigins(b.RetCols, b.RetOrigins), len(b.Returning) > 0
	case *sql.Delete:
		return withOrigins(b.RetCols, b.RetOrigins), len(b.Returning) > 0
	case *sql.WithModify:
		return resultColumns(b.Main)
	case *sql.Call:
		return b.Proc.Cols, len(b.Proc.Cols) > 0
	case *sql.Explain:
		if b.Name != "" {
			return []plan.Column{{Name: "QUERY PLAN", Type: value.TextType}}, true // EXPLAIN MATERIALIZED VIEW v
		}
		return []plan.Column{{Name: "QUERY PLAN", Type: explainColumnType(b.Format)}}, true
	case *sql.ExplainAnalyze:
		return []plan.Column{{Name: "QUERY PLAN", Type: explainColumnType(b.Format)}}, true
	case *sql.Show:
		if cols := showColumns(b.Name); cols != nil {
			return cols, true
		}
		if st, ok := systemViews["deltaview_"+b.Name]; ok {
			return st.cols, true
		}
	}
	return nil, false
}

// TxControl reports whether the statement is BEGIN, COMMIT or ROLLBACK.
func (p *Prepared) TxControl() bool { return p.txControl }

func (p *Prepared) take() *binding {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.free); n > 0 {
		bd := p.free[n-1]
		p.free = p.free[:n-1]
		return bd
	}
	return nil
}

func (p *Prepared) give(bd *binding) {
	if bd == nil {
		return
	}
	for _, s := range bd.params {
		s.V, s.Set = value.Null, false
	}
	p.mu.Lock()
	p.free = append(p.free, bd)
	p.mu.Unlock()
}

// ExecPrepared runs p with args as $1…$n. Each argument is converted to
// its parameter's type as an assignment would convert it, and a text
// argument is read as that type's input, as PostgreSQL reads parameters
// sent as text.
func (s *Session) ExecPrepared(p *Prepared, args []value.Value) ([]Result, error) {
	bd := p.take()
	defer func() { p.give(bd) }()
	s.activityStart(p.stmt.SQL)
	defer s.activityEnd()
	return s.do(func() (sql.Bound, *recorder, error) {
		if bd == nil || bd.gen != s.e.catalogGen || bd.ns != s.bindNS() || !s.sameBindSecurity(bd.rec) {
			nb, err := s.e.bindPrepared(p, s)
			if err != nil {
				return nil, nil, err
			}
			bd = nb
		}
		if len(args) != len(bd.params) {
			return bd.bound, nil, pgerr.New(pgerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement requires %d", len(args), len(bd.params))
		}
		for i, ps := range bd.params {
			v, err := s.paramValue(ps, args[i])
			if err != nil {
				return bd.bound, nil, err
			}
			ps.V, ps.Set = v, true
		}
		return bd.bound, bd.rec, nil
	})
}

// paramValue converts v to p's type, as assignValue does, refusing the
// pairs of types no cast joins implicitly or by assignment. A date or
// timestamp sent as text reads in the session's DateStyle field order
// and TimeZone, as PostgreSQL's input functions read it.
func (s *Session) paramValue(p *expr.ParamSlot, v value.Value) (value.Value, error) {
	out, err := s.paramConvert(p, v)
	if err == nil && p.Domain != nil {
		err = p.Domain.Check(out) // declared of a domain: its checks, at the bind
	}
	return out, err
}

func (s *Session) paramConvert(p *expr.ParamSlot, v value.Value) (value.Value, error) {
	from, to := v.Kind(), p.T.Kind
	if from.IsString() && !v.IsNull() && value.DateInputKind(to) {
		if err := value.CheckText(v.Str()); err != nil {
			return value.Null, err
		}
		return value.ParseStyled(v.Str(), p.T, s.TextStyle(), s.TimeZone())
	}
	if from.IsString() && p.T.IsAnonymousRecord() {
		// An argument is read as a literal is: record's input function
		// cannot read an anonymous record.
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
	}
	if v.IsNull() || from.IsString() || to.IsString() || from == to || value.CanCast(from, to, false) ||
		(from.IsNumeric() && to.IsNumeric()) || (from.IsDateTime() && to.IsDateTime()) {
		return assignValue(v, p.T)
	}
	return value.Null, pgerr.New(pgerr.DatatypeMismatch, "parameter $%d is of type %s, but the argument is of type %s", p.N, p.T, from)
}

// ExecPreparedInTx runs p inside a transaction the typed API opened. A
// failure undoes the statement alone and leaves the transaction open, as a
// typed change's failure does.
func (s *Session) ExecPreparedInTx(p *Prepared, args []value.Value) ([]Result, error) {
	res, err := s.ExecPrepared(p, args)
	if err != nil {
		s.failed = false
	}
	return res, err
}
