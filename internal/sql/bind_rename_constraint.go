package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// bindRenameConstraint binds ALTER TABLE t RENAME CONSTRAINT c TO d of a
// CHECK constraint: the table's definition with the constraint renamed,
// which a partitioned table's partitions have from it. PostgreSQL's
// errors: 42704 for a missing constraint, 42710 for a name taken, 42P16
// for a partition's or an inheritance child's inherited constraint and
// for ONLY of a partitioned table with partitions.
func (b *binder) bindRenameConstraint(rs *pg_query.RenameStmt) (Bound, error) {
	rel, ok := b.cat.Relation(rs.Relation.Relname)
	if ok && rel.Partition != nil && rel.Def != nil {
		if root := b.partitionRoot(rel); root != nil && slices.ContainsFunc(root.Checks, func(c Check) bool { return c.Name == rs.Subname }) || b.parentCheck(rel, rs.Subname) {
			return nil, pgerr.New(pgerr.InvalidTableDef, "cannot rename inherited constraint %q", rs.Subname)
		}
		return nil, b.refuse(rs.Relation.Location, "ALTER TABLE … RENAME CONSTRAINT of partition %q is not supported", rel.Name).
			WithHint("drop the constraint and add it again under its new name")
	}
	w, at, err := b.alterTarget(rs.Relation, rs.MissingOk)
	if w == nil || err != nil {
		return at, err
	}
	var target *pg_query.Constraint
	for _, c := range w.constraints() {
		if w.constraintName(c) == rs.Subname {
			target = c
		}
	}
	if target == nil {
		return nil, pgerr.New(pgerr.UndefinedObject, "constraint %q for table %q does not exist", rs.Subname, w.name)
	}
	for _, c := range w.constraints() {
		if w.constraintName(c) == rs.Newname {
			return nil, pgerr.New(pgerr.DuplicateObject, "constraint %q for relation %q already exists", rs.Newname, w.name)
		}
	}
	switch target.Contype {
	case pg_query.ConstrType_CONSTR_CHECK:
	case pg_query.ConstrType_CONSTR_PRIMARY, pg_query.ConstrType_CONSTR_UNIQUE:
		// Its index is renamed with it, as in PostgreSQL: another
		// relation of the new name stands in the way.
		if _, taken := b.cat.Relation(rs.Newname); taken {
			return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", rs.Newname)
		}
	default:
		return nil, b.refuse(rs.Relation.Location, "ALTER TABLE … RENAME CONSTRAINT of an exclusion or foreign key constraint is not supported").
			WithHint("drop the constraint and add it again under its new name")
	}
	if target.Contype == pg_query.ConstrType_CONSTR_CHECK && slices.Contains(w.old.InheritedChecks, rs.Subname) {
		return nil, pgerr.New(pgerr.InvalidTableDef, "cannot rename inherited constraint %q", rs.Subname)
	}
	if target.Contype == pg_query.ConstrType_CONSTR_CHECK && len(rel.Inherit) > 0 {
		return nil, b.refuse(rs.Relation.Location, "ALTER TABLE … RENAME CONSTRAINT of a table with inheritance children is not supported")
	}
	if !rs.Relation.Inh && w.old.PartitionBy != nil && target.Contype == pg_query.ConstrType_CONSTR_CHECK {
		at.OnlyPartitioned = func(string) error {
			return pgerr.New(pgerr.InvalidTableDef, "inherited constraint %q must be renamed in child tables too", rs.Subname)
		}
	}
	target.Conname = rs.Newname
	return b.alterDone(w, at)
}
