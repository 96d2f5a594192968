package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Read-only transactions (BEGIN READ ONLY, SET TRANSACTION READ ONLY,
// default_transaction_read_only): the session keeps no state of its own,
// the transaction's value of transaction_read_only says it. Every statement
// passes readOnlyCheck where it is dispatched (Session.do, and plRuntime.Run
// for the statements of PL/pgSQL code), before its privileges are checked,
// as PostgreSQL checks before it runs anything. As in PostgreSQL, data
// changes of temporary tables stay allowed; catalog changes are refused
// even of temporary objects, and LOCK, ANALYZE, VACUUM, CLUSTER, REINDEX,
// LISTEN, NOTIFY, SET and transaction control run as in any transaction.

// readOnly reports whether the session's transaction is read-only.
func (s *Session) readOnly() bool {
	if s.gucs.vals == nil && s.gucs.local == nil {
		return false // every setting at its default
	}
	v, _ := s.setting("transaction_read_only")
	return v == "on"
}

// errReadOnly is PostgreSQL's refusal of what, a command tag, in a
// read-only transaction.
func errReadOnly(what string) error {
	return pgerr.New("25006", "cannot execute %s in a read-only transaction", what)
}

// readOnlyCheck refuses b when the session's transaction is read-only and
// b writes: 25006, naming the command as PostgreSQL names it.
func (s *Session) readOnlyCheck(b sql.Bound, rec *recorder) error {
	if b == nil || !s.readOnly() {
		return nil
	}
	if what := writeName(b, rec); what != "" {
		return errReadOnly(what)
	}
	return nil
}

// writeName is the name PostgreSQL's read-only refusal gives b, "" for a
// statement a read-only transaction runs.
func writeName(b sql.Bound, rec *recorder) string {
	switch b := b.(type) {
	case *sql.Tx, *sql.Set, *sql.Show, *sql.Listen, *sql.Notify, *sql.LockTable, *sql.SetConstraints,
		*sql.Maintenance, *sql.Cluster, *sql.Reindex, *sql.Explain, *sql.Schema, *sql.Subscribe,
		*sql.Do, *sql.Call:
		// DO and CALL run; their code's statements are checked one by one.
		return ""
	case *sql.Select:
		if locks(b) && rec != nil && permanentIn(rec.direct) {
			return "SELECT " + b.Lock.Strength
		}
		return ""
	case *sql.CopyTo:
		return writeName(b.Query, rec)
	case *sql.ExplainAnalyze:
		if b.DML != nil {
			return writeName(b.DML, rec)
		}
		return ""
	case *sql.Insert:
		return permanentTarget("INSERT", b.Table)
	case *sql.Update:
		return permanentTarget("UPDATE", b.Table)
	case *sql.Delete:
		return permanentTarget("DELETE", b.Table)
	case *sql.Merge:
		return permanentTarget("MERGE", b.Table)
	case *sql.Copy:
		return permanentTarget("COPY FROM", b.Table)
	case *sql.RuleDML:
		return permanentTarget(sql.RuleEventName(b.Event), b.Table)
	case *sql.RuleThrough:
		if writeName(b.DML, rec) == "" {
			return ""
		}
		return sql.RuleEventName(b.Event)
	case *sql.WithModify:
		// PostgreSQL names the statement that holds the WITH.
		for _, it := range b.Items {
			if writeName(it.Stmt, nil) != "" {
				return mainName(b.Main)
			}
		}
		return writeName(b.Main, rec)
	case *sql.Truncate:
		return "TRUNCATE TABLE" // even of temporary tables, as PostgreSQL
	case *sql.Refresh:
		return "REFRESH MATERIALIZED VIEW"
	}
	// Any other statement changes the catalog.
	if rec != nil {
		if what := commandName(rec.text); what != "" {
			return what
		}
	}
	return "this command"
}

// mainName is the command tag of the main statement of a WITH.
func mainName(b sql.Bound) string {
	switch b.(type) {
	case *sql.Insert:
		return "INSERT"
	case *sql.Update:
		return "UPDATE"
	case *sql.Delete:
		return "DELETE"
	case *sql.Merge:
		return "MERGE"
	}
	return "SELECT"
}

// permanentTarget is what when table is a permanent relation, "" for a
// temporary one.
func permanentTarget(what, table string) string {
	if isTemp(table) {
		return ""
	}
	return what
}

// permanentIn reports whether one of the relations is permanent.
func permanentIn(names []string) bool {
	for _, n := range names {
		if !isTemp(n) {
			return true
		}
	}
	return false
}

// commandName is the command tag of the statement text (as a recorder
// keeps it, after the search path it ran under), "" when it has none.
func commandName(text string) string {
	if text == "" {
		return ""
	}
	if parts, err := sql.Split(text); err == nil && len(parts) > 1 {
		text = parts[len(parts)-1]
	}
	st, err := sql.Parse(text)
	if err != nil || st == nil || st.Node == nil {
		return ""
	}
	return sql.CommandTag(st.Node)
}

// checkReadWrite refuses to make the transaction read-write once it is
// read-only and has run a query, or inside a savepoint, as PostgreSQL
// does (25001).
func (s *Session) checkReadWrite() error {
	if !s.block || !s.readOnly() {
		return nil
	}
	if len(s.savepoints) > 0 {
		return pgerr.New(pgerr.ActiveTransaction, "cannot set transaction read-write mode inside a read-only transaction")
	}
	if s.snapped {
		return pgerr.New(pgerr.ActiveTransaction, "transaction read-write mode must be set before any query")
	}
	return nil
}
