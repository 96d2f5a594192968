package engine

import (
	"github.com/deltaview/deltaview/internal/value"
)

// pg_cast lists the casts between built-in types that the engine applies,
// with PostgreSQL 15's rows (oid, function, context, method), and the
// casts CREATE CAST made.

func pgCast(o *catalogObjects, r *catRows) {
	kinds := map[uint32]value.Kind{}
	for _, b := range value.BuiltinTypes {
		kinds[b.OID] = b.Kind
	}
	for _, c := range value.PGCasts {
		sk, ok1 := kinds[c.Source]
		tk, ok2 := kinds[c.Target]
		if !ok1 || !ok2 || !value.CanCast(sk, tk, true) {
			continue
		}
		r.add("oid", c.OID, "castsource", c.Source, "casttarget", c.Target, "castfunc", c.Func,
			"castcontext", c.Context, "castmethod", c.Method)
	}
	if len(o.e.casts) == 0 {
		return
	}
	procs := map[string]uint32{}
	for _, p := range o.procs {
		procs[p.signature()] = p.oid
	}
	typeOID := func(name string, t value.Type) uint32 {
		// A domain's cast (ignored, as PostgreSQL's) is from or to the
		// domain, not the type it is over.
		_, dom := o.e.domains.byName[name]
		if oid := o.e.typeOID(t, nil); oid != 0 && t.Kind != value.Unknown && !dom {
			return oid
		}
		for _, ct := range o.types {
			if ct.name == name {
				return ct.oid
			}
		}
		return 0
	}
	for _, c := range o.e.sortedCasts() {
		var fn uint32
		method := byte('i')
		switch {
		case c.Binary:
			method = 'b'
		case c.Func != nil:
			method = 'f'
			if fn = procs[c.FuncSig]; fn == 0 {
				fn = objectOID("function", c.FuncSig)
			}
		}
		r.add("oid", objectOID("cast", c.DepKey()), "castsource", typeOID(c.Source, c.SourceType),
			"casttarget", typeOID(c.Target, c.TargetType), "castfunc", fn, "castcontext", c.Context, "castmethod", method)
	}
}

func init() {
	const cols = `oid:oid,castsource:oid,casttarget:oid,castfunc:oid,castcontext:"char",castmethod:"char"`
	name := "pg_catalog.pg_cast"
	catalogColumns[name], catalogRowFuncs[name] = cols, pgCast
	catalogRelations[name] = catalogRelation{cols: catalogCols(cols), rows: pgCast}
	catalogRelOIDs["pg_cast"] = 2605
}
