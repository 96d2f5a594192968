package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// Truncate is TRUNCATE [TABLE] t, … [RESTART IDENTITY | CONTINUE
// IDENTITY] [CASCADE | RESTRICT]: the deletion of every row of each
// table, in one statement. Tables lists each table once, in the order
// written.
type Truncate struct {
	Tables []string
	// RestartIdentity: RESTART IDENTITY.
	RestartIdentity bool
	// Cascade: CASCADE (no table here is referenced by a foreign key, so
	// it truncates no other table).
	Cascade bool
	// Partitions are, beside Tables, the constraint of each table named
	// that is a partition (Tables has its root), nil for a table.
	Partitions []*expr.PartitionOf
}

func (*Truncate) bound() {}

// bindTruncate resolves TRUNCATE's tables: each must be a table (a view or
// a materialized view is 42809, as in PostgreSQL).
func (b *binder) bindTruncate(ts *pg_query.TruncateStmt) (Bound, error) {
	tr := &Truncate{RestartIdentity: ts.RestartSeqs, Cascade: ts.Behavior == pg_query.DropBehavior_DROP_CASCADE}
	seen := map[string]bool{}
	for _, n := range ts.Relations {
		rv := n.GetRangeVar()
		if rv == nil {
			continue
		}
		rel, ok := b.cat.Relation(rv.Relname)
		if !ok {
			return nil, b.stmt.errf(rv.Location, pgerr.UndefinedTable, "relation %q does not exist", rv.Relname)
		}
		if rel.Kind != KindTable {
			return nil, b.stmt.errf(rv.Location, pgerr.WrongObjectType, "%q is not a table", rv.Relname)
		}
		if seen[rv.Relname] {
			continue
		}
		seen[rv.Relname] = true
		if rel.Partition != nil {
			tr.Tables = append(tr.Tables, rel.Partition.Root)
			tr.Partitions = append(tr.Partitions, rel.Partition.Filter)
			continue
		}
		tr.Tables = append(tr.Tables, rv.Relname)
		tr.Partitions = append(tr.Partitions, nil)
		if rv.Inh {
			for _, m := range rel.Inherit { // its descendants, as in PostgreSQL
				if !seen[m.Rel.Name] {
					seen[m.Rel.Name] = true
					tr.Tables = append(tr.Tables, m.Rel.Name)
					tr.Partitions = append(tr.Partitions, nil)
				}
			}
		}
	}
	return tr, nil
}
