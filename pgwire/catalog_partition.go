package pgwire

import (
	"regexp"

	"github.com/deltaview/deltaview/internal/engine"
)

// psql's \d of a partitioned table or a partition: the partitions are
// relations psql looks up by name, a partitioned table's relkind is 'p'
// and a partition's relispartition true; psql then reads the partition
// key (pg_get_partkeydef), the partitions' bounds and parents (pg_inherits
// and pg_class.relpartbound, which the catalogs answer as they are), and
// the foreign keys of the table and its ancestors.
var (
	psqlPartKeyDef = regexp.MustCompile(`(?s)^SELECT pg_catalog\.pg_get_partkeydef\('(\d+)'::pg_catalog\.oid\);?\s*$`)
	psqlPartFKeys  = regexp.MustCompile(`(?s)^SELECT conrelid = '(\d+)'::pg_catalog\.regclass AS sametable,.*\bFROM pg_catalog\.pg_constraint,\s+pg_catalog\.pg_partition_ancestors\('\d+'\).*ORDER BY sametable DESC, conname;?\s*$`)
)

// psqlRelationList is the tables and views psql looks up by name, the
// partitions with them.
func (c *conn) psqlRelationList() []engine.RelationInfo {
	return append(c.sess.Relations(), c.sess.Partitions()...)
}

// psqlRelKind is the relkind of r as psql's lists of relations read it,
// and its name there: 'p', "partitioned table", for a partitioned table.
func psqlRelKind(sess *engine.Session, r engine.RelationInfo) (byte, string) {
	if r.Kind == engine.RelTable {
		if partitioned, _, _ := sess.PartitionInfo(r.Name); partitioned {
			return 'p', "partitioned table"
		}
	}
	return r.Kind, relKindNames[r.Kind]
}

// psqlPartitionInfo sets relkind, relispartition and amname in row, psql's
// relation information of the relation named.
func psqlPartitionInfo(sess *engine.Session, name string, row []*string) {
	partitioned, _, partition := sess.PartitionInfo(name)
	if partitioned {
		row[1], row[14] = s("p"), nil // no access method: it stores no rows
	}
	row[8] = tf(partition)
}

// psqlPartitions answers psql's queries of partition keys and of the
// foreign keys of a partitioned table's ancestors, if q is one.
func (c *conn) psqlPartitions(q string) (engine.Result, bool) {
	if m := psqlPartKeyDef.FindStringSubmatch(q); m != nil {
		var rows [][]*string
		if name, ok := c.relByOID(m[1]); ok {
			if partitioned, def, _ := c.sess.PartitionInfo(name); partitioned {
				rows = append(rows, []*string{s(def)})
			} else {
				rows = append(rows, []*string{nil})
			}
		}
		return textResult([]string{"pg_get_partkeydef"}, rows), true
	}
	if m := psqlPartFKeys.FindStringSubmatch(q); m != nil {
		// pg_partition_ancestors(oid): the relation and the parents
		// pg_inherits gives, up to the root.
		return textResult([]string{"sametable", "conname", "condef", "ontable"}, c.nativeRows(`WITH RECURSIVE a(r) AS (
			SELECT `+m[1]+`::pg_catalog.oid UNION SELECT i.inhparent FROM pg_catalog.pg_inherits i, pg_catalog.pg_class k, a
			WHERE i.inhrelid = a.r AND k.oid = a.r AND k.relispartition)
			SELECT conrelid = `+m[1]+` AS sametable, conname, pg_catalog.pg_get_constraintdef(oid, true) AS condef,
			conrelid::pg_catalog.regclass AS ontable FROM pg_catalog.pg_constraint, a
			WHERE conrelid = a.r AND contype = 'f' AND conparentid = 0 ORDER BY sametable DESC, conname`)), true
	}
	return engine.Result{}, false
}
