package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
)

// System columns in RETURNING (INSERT, UPDATE and DELETE of a table):
// the RETURNING list reads the row's ctid, xmin, cmin, xmax, cmax and
// tableoid after the row and the FROM or USING row, which the engine
// appends to each row it returns (ReturnSystem); a partitioned table's
// tableoid is the partition that holds the row written. A RETURNING list
// with a subquery does not see them (42703).

// ReturnSystem is set on a data change whose RETURNING list reads the
// table's system columns: the table's oid, and the width of the row
// RETURNING reads before them. Part, for a partitioned table, is the oid
// of the partition that holds a row, over the row written (the first
// columns of the row RETURNING reads); OID is then the table's own.
type ReturnSystem struct {
	OID   uint32
	Width int
	Part  expr.Expr
	// Routed says an INSERT into a partitioned table reads a row's
	// transaction columns (xmin, cmin, xmax, cmax), which PostgreSQL
	// cannot give a row it routed to a partition: each row returned is
	// 0A000.
	Routed bool
}

// markRouted sets Routed when rs is a partitioned table's, the
// statement names no leaf partition, and the RETURNING expressions read
// xmin, cmin, xmax or cmax.
func (rs *ReturnSystem) markRouted(exprs []expr.Expr, leaf bool) {
	if rs == nil || rs.Part == nil || leaf {
		return
	}
	for _, e := range exprs {
		for _, c := range expr.Columns(e) {
			if c > rs.Width && c < rs.Width+plan.RowSystemColumns {
				rs.Routed = true
			}
		}
	}
}

// returningSystemColumns adds the system columns of table rel to sc, the
// scope of its RETURNING list, when the statement names one; nil when it
// does not, or when the list holds a subquery.
func (b *binder) returningSystemColumns(rel *Relation, alias string, sc *scope, list []*pg_query.Node) (*scope, *ReturnSystem) {
	if len(list) == 0 || anySubLink(list...) {
		return sc, nil
	}
	oid, ok := b.systemColumnsOf(rel)
	if !ok {
		return sc, nil
	}
	out := &scope{cols: append([]scopeCol{}, sc.cols...)}
	for _, c := range sc.cols {
		if c.system && c.qual == alias {
			// The scope has them already (a FROM or USING item's
			// are its own: the table's come after them).
			return sc, nil
		}
	}
	rs := &ReturnSystem{OID: oid, Width: len(sc.cols), Part: rel.TableOID}
	for i := range plan.SystemColumns {
		out.cols = append(out.cols, systemScopeCol(alias, rel.Name, i))
	}
	out.star = sc.starCols()
	return out, rs
}

// leafTarget reports whether the data change names a partition that has
// no partitions of its own (its rows are written there, not routed).
func (b *binder) leafTarget() bool {
	if b.partTarget == nil || b.partTarget.None {
		return false
	}
	r, ok := b.cat.Relation(b.partTarget.Name)
	return ok && r.Partition != nil && !r.Partition.Partitioned
}
