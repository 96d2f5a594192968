package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/plan"
)

// System columns in RETURNING (INSERT, UPDATE and DELETE of a table):
// the RETURNING list reads the row's ctid, xmin, cmin, xmax, cmax and
// tableoid after the row and the FROM or USING row, which the engine
// appends to each row it returns (ReturnSystem). A RETURNING list with a
// subquery, and one of a partitioned table or a partition, does not see
// them (42703).

// ReturnSystem is set on a data change whose RETURNING list reads the
// table's system columns: the table's oid, and the width of the row
// RETURNING reads before them.
type ReturnSystem struct {
	OID   uint32
	Width int
}

// returningSystemColumns adds the system columns of table rel to sc, the
// scope of its RETURNING list, when the statement names one; nil when it
// does not, or when the list holds a subquery.
func (b *binder) returningSystemColumns(rel *Relation, alias string, sc *scope, list []*pg_query.Node) (*scope, *ReturnSystem) {
	if len(list) == 0 || anySubLink(list...) {
		return sc, nil
	}
	if rel.Partition != nil || rel.Def != nil && rel.Def.PartitionBy != nil {
		// A partitioned table's rows are in its partitions, whose oids
		// and places the engine does not give RETURNING.
		return sc, nil
	}
	oid, ok := b.systemColumnsOf(rel)
	if !ok {
		return sc, nil
	}
	out := &scope{cols: append([]scopeCol{}, sc.cols...)}
	for _, c := range sc.cols {
		if c.system {
			return sc, nil // the scope has them already
		}
	}
	rs := &ReturnSystem{OID: oid, Width: len(sc.cols)}
	for _, c := range plan.SystemColumns {
		out.cols = append(out.cols, scopeCol{qual: alias, name: c.Name, typ: c.Type, system: true})
	}
	out.star = sc.starCols()
	return out, rs
}
