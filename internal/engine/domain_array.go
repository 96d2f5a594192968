package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// The array type of a domain (d[], pg_type's _d) is an expr.Domain made
// from d (ArrayOf): columns, parameters, results and casts of d[] hold
// it as they hold d, so the checks, the catalogs and the dependents of
// d find it through it.

// arrayElemKey is the key of an array type's element type: _d's is d,
// a domain's array s._d's s.d, another type's array _s.t's s.t (the
// underscore before the whole key, as a temporary table's
// _pg_temp_1.tt).
func arrayElemKey(key string) string {
	if s, n, ok := strings.Cut(key, "."); ok && strings.HasPrefix(n, "_") {
		return s + "." + n[1:]
	}
	return strings.TrimPrefix(key, "_")
}

// ofDomain reports whether x, a column's, attribute's, parameter's or
// parent's domain, is d or d's array type: either names d.
func ofDomain(x, d *expr.Domain) bool {
	return x != nil && (x == d || x.Elem() == d)
}

// dependedName is the name of x, d or its array type, as PostgreSQL's
// DETAIL names the type a dependent object depends on: d, or d[].
func dependedName(x *expr.Domain) string {
	if el := x.Elem(); el != nil {
		return el.Name() + "[]"
	}
	return x.Name()
}

// refuseDomainInArrays refuses what ALTER DOMAIN checks against the
// values of d while a table's or a materialized view's column is of an
// array of d (or of a domain over d), as PostgreSQL 15 refuses it
// (0A000): it does not look into arrays.
func (e *Engine) refuseDomainInArrays(d *expr.Domain) error {
	var cols []string
	for _, t := range e.tables {
		for _, c := range t.def.Cols {
			if el := c.Domain.Elem(); el != nil && el.Over(d) {
				cols = append(cols, t.name+"."+c.Name)
			}
		}
	}
	for name, v := range e.views {
		m := v.meta()
		for i, x := range m.def.Domains {
			if el := x.Elem(); el != nil && el.Over(d) && i < len(m.cols) {
				cols = append(cols, name+"."+m.cols[i].Name)
			}
		}
	}
	if len(cols) == 0 {
		return nil
	}
	slices.Sort(cols)
	return pgerr.New(pgerr.FeatureNotSupported, "cannot alter type %q because column %q uses it", d.Name(), cols[0])
}
