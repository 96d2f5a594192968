package sql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Which types have a default operator class under btree and hash, the
// access methods of keys, indexes and partition keys.

// HasDefaultOpclass reports whether PostgreSQL 15 has a default operator
// class of the btree, hash or brin access method for t (pg_opclass's rows,
// with arrays, enums, ranges, multiranges and composites taking the
// polymorphic classes, and the reg* types oid's). The kinds listed are
// the ones pg_opclass has no such row for.
func HasDefaultOpclass(method string, t value.Type) bool {
	k := t.Kind
	if method == "brin" {
		return brinDefault(k)
	}
	if k.IsArray() {
		return true // array_ops, whatever the element
	}
	switch {
	case k.IsGeometric():
		return false
	case k == value.JSON, k == value.JSONPath, k == value.XML, k.IsSnapshot(), k == value.RefCursor, k == value.Void, k == value.Cstring, k.IsValueless():
		return false
	}
	switch method {
	case "btree":
		return k != value.Xid && k != value.Cid && k != value.ACLItem
	case "hash":
		return !k.IsBits() && k != value.TSVector && k != value.TSQuery && k != value.Money
	}
	return true
}

// noDefaultOpclass is the error of an index key of type t under method
// without a default operator class.
func noDefaultOpclass(method string, t value.Type) error {
	return pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method %q", t.Kind, method).
		WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
}

// partitionKeyClass refuses a partition key of a type without a default
// operator class of the strategy's access method (hash for hash
// partitioning, else btree), with PostgreSQL's hint for partition keys.
func partitionKeyClass(method string, t value.Type) error {
	if HasDefaultOpclass(method, t) {
		return nil
	}
	return pgerr.New(pgerr.UndefinedObject, "data type %s has no default operator class for access method %q", t.Kind, method).
		WithHint("You must specify a %s operator class or define a default %s operator class for the data type.", method, method)
}

// brinDefault reports whether k has a default brin class: the minmax and
// inclusion classes of the scalar types, ranges and box.
func brinDefault(k value.Kind) bool {
	switch k {
	case value.Bytea, value.InternalChar, value.Name, value.Int2, value.Int4, value.Int8, value.Text, value.Varchar,
		value.Oid, value.Tid, value.Float4, value.Float8, value.MacAddr, value.MacAddr8, value.Inet, value.Cidr,
		value.Char, value.Time, value.Date, value.Timestamp, value.TimestampTZ, value.Interval, value.TimeTZ,
		value.Bit, value.Varbit, value.Numeric, value.UUID, value.PgLSN, value.Box:
		return true
	}
	return k.IsReg() || k.IsRange()
}
