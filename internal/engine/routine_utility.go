package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plpgsql"
	"github.com/deltaview/deltaview/internal/sql"
)

// runUtility runs a utility statement of PL/pgSQL code that is neither
// a query, a data change nor a catalog change, as PostgreSQL runs it in
// a function: inside the code's transaction, undone with it (SET, RESET,
// SHOW, TRUNCATE, LOCK, NOTIFY, ANALYZE, EXPLAIN), or refused with
// PostgreSQL's error where PostgreSQL refuses it (VACUUM, COPY to or from
// the client, transaction control). ok is false for a statement it does
// not know, which the caller refuses. dynamic says that the statement is
// an EXECUTE's.
func (rt *plRuntime) runUtility(b sql.Bound, rec *recorder, dynamic bool) (res *plpgsql.Result, ok bool, err error) {
	s, e := rt.s, rt.s.e
	var r Result
	switch b := b.(type) {
	case *sql.Set:
		if !sessionStmt(b) {
			return nil, false, nil
		}
		// The code runs in a transaction: SET LOCAL and SET TRANSACTION
		// give no WARNING there.
		r, err = s.execSessionSet(b)
		r.Notices, r.NoticeLevels = nil, nil
	case *sql.Show:
		if showColumns(b.Name) != nil {
			r, err = s.showSetting(b.Name)
		} else {
			r, err = e.show(b)
		}
	case *sql.Truncate:
		r, err = e.truncate(b, e.atomically)
	case *sql.LockTable:
		err = s.lockTables(b)
	case *sql.Notify:
		r, err = s.execNotify(b)
	case *sql.Maintenance:
		if b.NoBlock {
			return nil, true, pgerr.New(pgerr.ActiveTransaction, "%s cannot be executed from a function", b.Tag)
		}
		r, err = s.execMaintenance(b)
	case *sql.Explain:
		r, err = s.explainPlan(b)
	case *sql.ExplainAnalyze:
		r, err = s.explainAnalyze(b, rec)
	case *sql.Copy:
		if b.File != "" {
			return nil, false, nil
		}
		return nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot COPY to/from client in PL/pgSQL")
	case *sql.CopyTo:
		if b.File != "" {
			return nil, false, nil
		}
		return nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot COPY to/from client in PL/pgSQL")
	case *sql.Tx:
		if dynamic {
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "EXECUTE of transaction commands is not implemented")
		}
		return nil, true, pgerr.New(pgerr.FeatureNotSupported, "unsupported transaction command in PL/pgSQL")
	default:
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	for i, msg := range r.Notices {
		level := "NOTICE"
		if l, ok := r.NoticeLevels[i]; ok {
			level = l
		}
		e.noticeAt(level, msg)
	}
	return &plpgsql.Result{Cols: r.Columns, Rows: r.Rows}, true, nil
}
