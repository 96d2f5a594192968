package engine

import (
	"slices"
	"strconv"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/sql"
)

// infoCheckConstraintRoutineUsage lists, for information_schema's
// check_constraint_routine_usage, the user functions each CHECK
// constraint of a table or a domain calls, as PostgreSQL lists the
// functions its constraints depend on (built-in ones are not listed).
// A constraint's bound expression calls them by signature.
func infoCheckConstraintRoutineUsage(o *catalogObjects, r *catRows) {
	add := func(schema, con string, x expr.Expr) {
		for _, sig := range calledSigs(x) {
			for _, p := range o.procs {
				if p.key != sig {
					continue
				}
				sc, name := o.e.splitObject(p.name)
				r.add("constraint_catalog", DatabaseName, "constraint_schema", schema, "constraint_name", con,
					"specific_catalog", DatabaseName, "specific_schema", sc, "specific_name", name+"_"+strconv.FormatUint(uint64(p.oid), 10))
			}
		}
	}
	for _, c := range o.cons {
		if c.kind != 'c' || c.rel == nil || c.rel.t == nil {
			continue
		}
		if i := slices.IndexFunc(c.rel.t.def.Checks, func(ch sql.Check) bool { return ch.Name == c.name }); i >= 0 {
			add(c.rel.schema, c.name, c.rel.t.def.Checks[i].Expr)
		}
	}
	for _, name := range sortedKeys(o.e.domains.byName) {
		if isTemp(name) {
			continue
		}
		sc, _ := o.e.splitObject(name)
		for _, ch := range o.e.domains.byName[name].Def().Checks {
			add(sc, ch.Name, ch.Expr)
		}
	}
}

// calledSigs lists the signatures of the user functions x calls, each
// once, in the order of their first call.
func calledSigs(x expr.Expr) []string {
	var out []string
	expr.Walk(x, func(n expr.Expr) bool {
		if rc, ok := n.(*expr.RoutineCall); ok {
			if sig, _ := sql.SplitRoutineSig(rc.Sig); !slices.Contains(out, sig) {
				out = append(out, sig)
			}
		}
		return true
	})
	return out
}
