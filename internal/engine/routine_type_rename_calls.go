package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// The calls of routines that a type's rename keys anew (ALTER TYPE …
// RENAME TO | SET SCHEMA, ALTER DOMAIN … RENAME TO): PostgreSQL's calls
// hold the routine's oid and follow it; here a bound call holds the
// routine's signature, which prints the type's name. The defaults,
// generated columns and checks of tables and domains keep their texts
// (which name the routine alone, or the type written again by the
// rename) and their bound calls take the new signatures; the views keep
// their texts too, the record of what they call takes the new
// signatures, and the materialized views among them, whose plans hold
// the calls, are bound and built again once the rename is done.

// rekeyRoutineCalls gives the calls of the routines keyed anew (old
// signature → new) their new signatures, in the definitions of tables
// and domains and in the views' records. Each table and domain changed
// gets a new definition, so that a ROLLBACK restores the one it had.
func (e *Engine) rekeyRoutineCalls(moves map[string]string) {
	if len(moves) == 0 {
		return
	}
	calls := func(x expr.Expr) bool {
		return x != nil && slices.ContainsFunc(sortedKeys(moves), func(sig string) bool { return callsSig(x, sig) })
	}
	for _, name := range sortedKeys(e.tables) {
		t := e.tables[name]
		if !slices.ContainsFunc(t.def.Checks, func(ch sql.Check) bool { return calls(ch.Expr) }) &&
			!slices.ContainsFunc(t.def.Cols, func(c sql.ColumnDef) bool { return calls(c.Default) || calls(c.Generated) }) {
			continue
		}
		d := *t.def
		d.Checks, d.Cols = slices.Clone(d.Checks), slices.Clone(d.Cols)
		for i := range d.Checks {
			d.Checks[i].Expr = rekeyedCalls(d.Checks[i].Expr, moves)
		}
		for i := range d.Cols {
			d.Cols[i].Default = rekeyedCalls(d.Cols[i].Default, moves)
			d.Cols[i].Generated = rekeyedCalls(d.Cols[i].Generated, moves)
		}
		t.def = &d
	}
	for _, name := range sortedKeys(e.domains.byName) {
		dom := e.domains.byName[name]
		def := *dom.Def()
		if !calls(def.Default) && !slices.ContainsFunc(def.Checks, func(ch expr.DomainConstraint) bool { return calls(ch.Expr) }) {
			continue
		}
		def.Checks = slices.Clone(def.Checks)
		for i := range def.Checks {
			def.Checks[i].Expr = rekeyedCalls(def.Checks[i].Expr, moves)
		}
		def.Default = rekeyedCalls(def.Default, moves)
		dom.Set(def)
	}
	for v, sigs := range e.funcDeps {
		if !slices.ContainsFunc(sigs, func(s string) bool { return moves[s] != "" }) {
			continue
		}
		sigs = slices.Clone(sigs)
		for i, s := range sigs {
			if n := moves[s]; n != "" {
				sigs[i] = n
			}
		}
		slices.Sort(sigs)
		e.funcDeps[v] = slices.Compact(sigs)
	}
}

// rekeyedCalls is x with its calls of the routines moves keys anew
// calling them by their new signatures; x itself is left as it is.
func rekeyedCalls(x expr.Expr, moves map[string]string) expr.Expr {
	if x == nil {
		return nil
	}
	return expr.Rewrite(x, func(c expr.Expr) expr.Expr {
		rc, ok := c.(*expr.RoutineCall)
		if !ok {
			return c
		}
		fsig, inst := sql.SplitRoutineSig(rc.Sig)
		newSig := moves[fsig]
		if newSig == "" {
			return c
		}
		n := *rc
		n.Sig = newSig
		if inst != "" {
			n.Sig += "\x00" + inst
		}
		return &n
	})
}

// routineCallerViews are the materialized views that call the routines
// rs, or read a view that does, in the order they were created: their
// plans are bound again once the routines are keyed anew.
func (e *Engine) routineCallerViews(rs []routineTypeRename) []string {
	var names []string
	for _, r := range rs {
		names = append(names, e.callers(r.sig)...)
	}
	if len(names) == 0 {
		return nil
	}
	return e.viewsOver(names)
}

// refuseCallersWatched refuses (0A000) a rename whose rebuild of the
// views names could not reach who watches one: a sink, which a rebuild
// does not feed, or a subscriber inside a transaction block.
func (e *Engine) refuseCallersWatched(key string, names []string) error {
	switch view, sink := e.watchedView(names); {
	case sink:
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s: materialized view %s, which calls a routine whose signature names it, feeds a sink", key, view).
			WithHint("drop the sink, rename the type, and create the sink again")
	case view != "":
		return pgerr.New(pgerr.FeatureNotSupported, "cannot rename type %s inside a transaction block: materialized view %s, which calls a routine whose signature names it, has subscribers", key, view).
			WithHint("run the ALTER TYPE outside BEGIN … COMMIT")
	}
	return nil
}
