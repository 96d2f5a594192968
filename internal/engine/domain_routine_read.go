package engine

import "github.com/deltaview/deltaview/internal/expr"

// A domain's CHECK or DEFAULT may call a user function (sql.tableDefCall),
// which runs in the session of the statement that checks a value
// (tableRoutines: Engine.firer), as PostgreSQL runs it in its backend,
// with that statement's snapshot. A statement that reads only, and names
// such a domain (SELECT 5::d, a cast in a query), is run as the reads
// that call PL/pgSQL functions are (callsRoutine): under the engine's
// exclusive lock, with the session as the one running the functions.

// namesRoutineDomain reports whether the statement rec records names a
// domain whose checks or default, or its parents', call a user function.
func (e *Engine) namesRoutineDomain(rec *recorder) bool {
	for _, name := range rec.domains {
		d, ok := e.domains.byName[name]
		for ; ok && d != nil; d = d.Def().Parent {
			if domainCallsRoutine(d.Def()) {
				return true
			}
		}
	}
	return false
}

// domainCallsRoutine reports whether def's checks or default call a user
// function.
func domainCallsRoutine(def *expr.DomainDef) bool {
	if def.Default != nil && callsTableRoutine(def.Default) {
		return true
	}
	for _, ch := range def.Checks {
		if callsTableRoutine(ch.Expr) {
			return true
		}
	}
	return false
}
