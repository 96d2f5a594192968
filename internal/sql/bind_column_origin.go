package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
)

// Origin is the column of a table, view or materialized view (its key,
// and its position there) that a query's output column is taken from
// straight: a reference to the column, through subqueries, WITH queries
// and the merged columns of joins, as PostgreSQL's parser marks a target
// list's origins (markTargetListOrigins) for RowDescription. The zero
// Origin is none: an expression's, a set operation's, a function's. Col
// is the column's attnum less one: a system column's is negative.
type Origin struct {
	Rel string
	Col int
	// Domain is the domain of a column that is no table column's but
	// that PostgreSQL types as a domain (domain_kept.go); on a select
	// list's table column of an array type of a domain, that type
	// (markArrayDomains); nil otherwise.
	// Typed is set when that is known: a nil Domain is then the base
	// type's.
	Domain *expr.Domain
	Typed  bool
}

// source is the table column c is taken from.
func (c *scopeCol) source() Origin {
	switch {
	case c.outer:
		return Origin{}
	case c.system && c.origin != "":
		return Origin{Rel: c.origin, Col: c.originCol} // a negative attnum
	case c.origin != "" && c.originCol >= 0 && !c.system:
		return Origin{Rel: c.origin, Col: c.originCol}
	}
	return c.src
}

// markSources gives sc's columns the origins of the query's output
// columns they stand for (a subquery's, a WITH query's).
func (sc *scope) markSources(origins []Origin) {
	for i := range sc.cols {
		if i < len(origins) {
			sc.cols[i].src = origins[i]
		}
	}
}

// targetOrigin is the origin of the select-list item n bound to e over
// sc: a column reference's, which binds to the scope's column itself (or,
// in a grouped query, to the grouping key that is the column).
func (b *binder) targetOrigin(sc *scope, n *pg_query.Node, e expr.Expr) Origin {
	c, ok := e.(*expr.Col)
	if n.GetColumnRef() == nil || !ok || c.Idx < 0 {
		d, known := b.exprDomainKnown(sc, e)
		return Origin{Domain: d, Typed: known}
	}
	if as := b.agg; as != nil && sc == as.post {
		if c.Idx >= len(as.groups) {
			return Origin{}
		}
		if c, ok = as.groups[c.Idx].(*expr.Col); !ok {
			return Origin{}
		}
		sc = as.input
	}
	if c.Idx < len(sc.cols) {
		return sc.cols[c.Idx].source()
	}
	return Origin{}
}

// originsOf are the origins of the select list targets as bindTargets
// bound it.
func (b *binder) originsOf(targets []*pg_query.Node) []Origin {
	if len(targets) == 0 {
		return nil
	}
	return b.targetOrigins[targets[0]]
}

// hasOrigins reports whether any of origins names a column.
func hasOrigins(origins []Origin) bool {
	for _, o := range origins {
		if o.Rel != "" {
			return true
		}
	}
	return false
}

// markArrayDomains sets the Domain of the origins of a select list's
// columns, exprs over sc, that are a table's (or a view's) column of an
// array type of a domain: RowDescription sends that type's oid, where it
// sends a domain's base type's.
func (b *binder) markArrayDomains(sc *scope, exprs []expr.Expr, origins []Origin) {
	if len(exprs) != len(origins) {
		return
	}
	for i, o := range origins {
		if o.Rel == "" || o.Domain != nil {
			continue
		}
		if d, _ := b.exprDomainKnown(sc, exprs[i]); d.Elem() != nil {
			origins[i].Domain = d
		}
	}
}
