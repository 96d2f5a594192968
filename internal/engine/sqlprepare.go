package engine

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// SQL-level prepared statements: PREPARE name [(types)] AS statement,
// EXECUTE name [(args)], DEALLOCATE [PREPARE] name | ALL. A session keeps
// them by name until DEALLOCATE, DISCARD ALL or its end; as in PostgreSQL
// they are not transactional. The statement is bound as Prepare binds it,
// its parameters taking the types their uses give.

// sqlPrepared returns the session's statements by name.
func (s *Session) sqlPrepared() map[string]*Prepared {
	if s.prepared == nil {
		s.prepared = map[string]*Prepared{}
	}
	return s.prepared
}

// execPrepareStmt runs PREPARE, EXECUTE or DEALLOCATE; ok is false for
// any other statement.
func (s *Session) execPrepareStmt(st *sql.Stmt) (res []Result, ok bool, err error) {
	n := st.Node
	switch {
	case n.GetPrepareStmt() != nil, n.GetExecuteStmt() != nil, n.GetDeallocateStmt() != nil:
	case n.GetExplainStmt().GetQuery().GetExecuteStmt() != nil:
		if s.closed {
			return nil, true, errClosed
		}
		res, err := s.explainExecute(st)
		if err != nil {
			return nil, true, s.fail(err)
		}
		return res, true, nil
	case isCreateAsExecute(n):
		if s.closed {
			return nil, true, errClosed
		}
		res, err := s.createAsExecute(st)
		if err != nil {
			return nil, true, s.fail(err)
		}
		return res, true, nil
	default:
		return nil, false, nil
	}
	if s.closed {
		return nil, true, errClosed
	}
	if s.failed && n.GetExecuteStmt() == nil {
		return nil, true, pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	fail := func(err error) ([]Result, bool, error) { return nil, true, s.fail(err) }
	switch {
	case n.GetPrepareStmt() != nil:
		ps := n.GetPrepareStmt()
		if _, dup := s.sqlPrepared()[ps.Name]; dup {
			return fail(pgerr.New(pgerr.DuplicatePrepared, "prepared statement %q already exists", ps.Name))
		}
		p, err := s.Prepare(&sql.Stmt{SQL: st.SQL, Node: ps.Query, Declared: ps.Argtypes})
		if err != nil {
			return fail(err)
		}
		p.preparedAt = expr.ClockMicros()
		s.sqlPrepared()[ps.Name] = p
		return []Result{{Tag: "PREPARE"}}, true, nil
	case n.GetDeallocateStmt() != nil:
		ds := n.GetDeallocateStmt()
		if ds.Isall {
			clear(s.sqlPrepared())
		} else if _, ok := s.sqlPrepared()[ds.Name]; !ok {
			return fail(pgerr.New(pgerr.UndefinedPrepared, "prepared statement %q does not exist", ds.Name))
		} else {
			delete(s.prepared, ds.Name)
		}
		tag := "DEALLOCATE"
		if ds.Isall {
			tag = "DEALLOCATE ALL"
		}
		return []Result{{Tag: tag}}, true, nil
	}
	es := n.GetExecuteStmt()
	if s.failed {
		return nil, true, pgerr.New(pgerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	p, args, err := s.executeArgs(st, es)
	if err != nil {
		return nil, true, err
	}
	p.executions++
	res, err = s.ExecPrepared(p, args)
	return res, true, err
}

// executeArgs finds EXECUTE's prepared statement and evaluates its
// arguments.
func (s *Session) executeArgs(st *sql.Stmt, es *pg_query.ExecuteStmt) (*Prepared, []value.Value, error) {
	p, ok := s.sqlPrepared()[es.Name]
	if !ok {
		return nil, nil, s.fail(pgerr.New(pgerr.UndefinedPrepared, "prepared statement %q does not exist", es.Name))
	}
	if want := len(p.ParamTypes()); want != len(es.Params) {
		return nil, nil, s.fail(pgerr.New(pgerr.SyntaxError, "wrong number of parameters for prepared statement %q", es.Name).
			WithDetail("Expected %d parameters but got %d.", want, len(es.Params)))
	}
	var args []value.Value
	if len(es.Params) > 0 {
		// The arguments are evaluated as a SELECT of them would be.
		targets := make([]*pg_query.Node, len(es.Params))
		for i, a := range es.Params {
			targets[i] = pg_query.MakeResTargetNodeWithVal(a, 0)
		}
		sel := &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: &pg_query.SelectStmt{TargetList: targets, Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT}}}
		rs, err := s.Exec(&sql.Stmt{SQL: st.SQL, Node: sel})
		if err != nil {
			return nil, nil, err
		}
		if len(rs) == 0 || len(rs[0].Rows) != 1 {
			return nil, nil, s.fail(pgerr.New(pgerr.Internal, "EXECUTE's arguments gave no row"))
		}
		args = rs[0].Rows[0]
	}
	return p, args, nil
}
