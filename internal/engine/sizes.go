package engine

import (
	"github.com/deltaview/deltaview/internal/expr"
)

// Relation sizes, as the size functions report them (pg_relation_size,
// pg_table_size, pg_indexes_size, pg_total_relation_size,
// pg_database_size): the bytes the engine accounts in memory, not pages
// on disk.
//
//   - A table's own bytes are its rows' (deltaview_tables counts the
//     same); its indexes' are those of its CREATE INDEX indexes, of the
//     hash indexes of its keys, of the prefix and ordered indexes lookups
//     built, and of the indexes top-ks refill from.
//   - A materialized view's own bytes are all the state it uses
//     (deltaview_views' figure), with the indexes ad-hoc reads built on
//     it; it has no indexes of its own. An unpopulated view holds none.
//   - An index's own bytes are its entries'.
//   - A plain view, a sequence and the system catalogs hold none.
//
// The database's size counts every table with its indexes and the state
// of every view once, shared or not.

// relSize returns what the relation of oid holds. The caller holds e.mu.
func (e *Engine) relSize(oid uint32) (expr.RelSize, bool) {
	for name, t := range e.tables {
		if RelationOID(name) == oid {
			return expr.RelSize{Main: t.bytes, Indexes: e.tableIndexBytes(t)}, true
		}
	}
	for name, v := range e.views {
		if RelationOID(name) == oid {
			st := v.state()
			b := st.Bytes
			if z, ok := v.(*zview); ok {
				b += z.lookupBytes()
			}
			return expr.RelSize{Main: b}, true
		}
	}
	for name := range e.unpopulated {
		if RelationOID(name) == oid {
			return expr.RelSize{}, true
		}
	}
	for _, t := range e.tables {
		for _, u := range t.uniques {
			if RelationOID(u.name) == oid {
				return expr.RelSize{Main: u.bytes()}, true
			}
		}
		for _, ix := range t.indexes {
			if RelationOID(ix.name) == oid {
				return expr.RelSize{Main: ix.ord.bytes()}, true
			}
		}
	}
	for name := range e.named {
		if RelationOID(name) == oid {
			return expr.RelSize{}, true
		}
	}
	for name := range e.seqs {
		if RelationOID(name) == oid {
			return expr.RelSize{}, true
		}
	}
	for name := range catalogRelations {
		schema, rel, _ := cutSchema(name)
		fixed, ok := catalogRelOIDs[rel]
		if !ok {
			fixed = objectOID(schema, rel)
		}
		if oid == fixed {
			return expr.RelSize{}, true
		}
	}
	return expr.RelSize{}, false
}

// tableIndexBytes is the bytes of t's indexes. The caller holds e.mu.
func (e *Engine) tableIndexBytes(t *table) int64 {
	n := t.indexBytes() + e.shared.reserveBytes()[t.name].Bytes
	for _, u := range t.uniques {
		if !u.madeByIndex(t) {
			n += u.bytes()
		}
	}
	for _, ix := range t.indexes {
		if ix.unique != nil {
			n += ix.unique.bytes()
		}
	}
	return n
}

// madeByIndex reports whether u is a CREATE UNIQUE INDEX's hash index.
func (u *uniqueIndex) madeByIndex(t *table) bool {
	for _, ix := range t.indexes {
		if ix.unique == u {
			return true
		}
	}
	return false
}

// bytes estimates the hash index's memory: an integer key's entry holds
// the key and a row reference (24 bytes); another key's, the encoded key
// and the row's id, with the map's overhead (48 bytes and the key).
func (u *uniqueIndex) bytes() int64 {
	if u.ints != nil {
		return 24 * int64(u.len())
	}
	var n int64
	for k := range u.m {
		n += 48 + int64(len(k))
	}
	return n
}

// databaseSize is the bytes of every table, with its indexes, and of the
// views' state, each piece once. The caller holds e.mu.
func (e *Engine) databaseSize() int64 {
	var n int64
	for _, t := range e.tables {
		if !t.temp {
			n += t.bytes + e.tableIndexBytes(t)
		}
	}
	return n + e.stateTotal().Bytes
}

func cutSchema(name string) (schema, rel string, ok bool) {
	for i := 0; i < len(name); i++ {
		if name[i] == '.' {
			return name[:i], name[i+1:], true
		}
	}
	return "", name, false
}
