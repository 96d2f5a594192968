package engine

// What clients that introspect the catalog (psql's \d) read of
// partitions: the partitions as relations of their own, each with its
// parent, and a partitioned table's key as pg_get_partkeydef prints it.

// Partitions lists the partitions, by name, as Relations lists tables:
// each a table (RelTable), marked visible when the session's search path
// finds it unqualified.
func (s *Session) Partitions() []RelationInfo {
	e := s.e
	e.mu.RLock()
	defer e.mu.RUnlock()
	path := s.searchPath()
	var out []RelationInfo
	for _, n := range sortedKeys(e.parts) {
		if isTemp(n) {
			continue // as the session's temporary tables
		}
		r := e.relationInfo(n, RelTable)
		for _, p := range path {
			if k := schemaKey(p, r.Rel); e.userRelation(k) || e.parts[k] != nil {
				r.Visible = k == r.Name
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// PartitionInfo says of the relation named whether it is partitioned
// (PARTITION BY), its key then as pg_get_partkeydef prints it (RANGE (a)),
// and whether it is a partition.
func (s *Session) PartitionInfo(name string) (partitioned bool, keyDef string, partition bool) {
	e := s.e
	e.mu.RLock()
	defer e.mu.RUnlock()
	_, key, _ := e.partitionsOf(name)
	if key != nil {
		keyDef = partitionKeyDef(key)
	}
	return key != nil, keyDef, e.parts[name] != nil
}

// describePartition describes a partition: its root's columns with its
// own NOT NULL, its checks (its root's and its own), and whether its root
// has foreign keys, which are the partition's too.
func (e *Engine) describePartition(p *partition) RelationDetail {
	d := RelationDetail{Kind: RelTable, Checks: len(p.root.def.Checks) + len(p.def.Checks), ForeignKeys: p.root.fkeyed}
	for i, c := range p.root.def.Cols {
		notNull := c.NotNull || i < len(p.def.Cols) && p.def.Cols[i].NotNull
		d.Columns = append(d.Columns, ColumnDetail{Name: c.Name, Type: c.Type, NotNull: notNull, Generated: c.GeneratedSQL})
	}
	return d
}
