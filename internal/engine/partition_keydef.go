package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// partitionKeyDefs are pg_get_partkeydef's texts, by the oid of each
// partitioned table (a root, or a partition partitioned in turn): the
// strategy and the key's elements as PostgreSQL prints them (RANGE (a),
// LIST (lower(b))). Other relations have none: the function is NULL
// there, as in PostgreSQL.
func (o *catalogObjects) partitionKeyDefs() map[uint32]string {
	out := map[uint32]string{}
	for _, r := range o.rels {
		if r.partBy != nil {
			out[r.oid] = partitionKeyDef(r.partBy)
		}
	}
	return out
}

// partitionKeyDef is a key as PARTITION BY names it.
func partitionKeyDef(key *expr.PartitionKey) string {
	strategy := map[byte]string{expr.PartitionRange: "RANGE", expr.PartitionList: "LIST", expr.PartitionHash: "HASH"}[key.Strategy]
	return strategy + " (" + strings.Join(key.SQL, ", ") + ")"
}
