package engine

// partitionParents are the partitions' parents by the partition's oid, as
// pg_partition_tree, pg_partition_ancestors and pg_partition_root read
// them; it keeps nothing, reading the partitions of o.
func (o *catalogObjects) partitionParents() map[uint32]uint32 {
	oids := map[string]uint32{}
	for _, r := range o.rels {
		if r.key != "" {
			oids[r.key] = r.oid
		}
	}
	out := map[uint32]uint32{}
	for _, r := range o.rels {
		if r.part == nil {
			continue
		}
		if parent, ok := oids[r.part.parent]; ok {
			out[r.oid] = parent
		}
	}
	return out
}
