package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// WHERE CURRENT OF a cursor over a partitioned table or a partition. The
// rows of the partitions live in their root, under the root's ctids; a
// cursor's row is in a leaf partition (its tableoid). The statement on a
// partitioned table or a partition accepts the row whose ctid is the
// cursor's and whose partition is the cursor's row's. A cursor that
// stands on a row of another partition of the same root finds none, as
// PostgreSQL's cursor over the root does (a cursor over another partition
// alone is PostgreSQL's 24000 there, none here); one over a table outside
// the root's partitions is 24000.

// currentOfPartitions returns the test of whether an oid is a leaf
// partition of the root of rel's partition tree, and sets the expression
// of the partition of a target row; nil when rel is no partitioned table
// or partition.
func (b *binder) currentOfPartitions(rel *Relation) (func(uint32) bool, error) {
	root := rel
	switch {
	case rel.Partition != nil:
		r, ok := b.cat.Relation(rel.Partition.Root)
		if !ok {
			return nil, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", rel.Partition.Root)
		}
		root = r
	case rel.Def == nil || rel.Def.PartitionBy == nil:
		return nil, nil
	}
	sc := b.sysCatalog()
	if root.TableOID == nil || sc == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE CURRENT OF partitioned table %q is not supported", root.Name)
	}
	b.currentOf.part = root.TableOID
	cat, name := b.cat, root.Name
	known := map[uint32]bool{} // when the statement runs: by the cursor's row's table
	return func(oid uint32) bool {
		if in, ok := known[oid]; ok {
			return in
		}
		in := false
		for key, o := range sc.OIDs[value.RegClass] {
			if o != oid {
				continue
			}
			if r, ok := cat.Relation(strings.TrimPrefix(key, "public.")); ok && r.Partition != nil && r.Partition.Root == name && !r.Partition.Partitioned {
				in = true
			}
			break
		}
		known[oid] = in
		return in
	}, nil
}
