package sql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Which types have a default operator class under btree and hash, the
// access methods of keys, indexes and partition keys.

// HasDefaultOpclass reports whether PostgreSQL 15 has a default operator
// class of the btree or hash access method for t (pg_opclass's rows,
// with arrays, enums, ranges, multiranges and composites taking the
// polymorphic classes, and the reg* types oid's). The kinds listed are
// the ones pg_opclass has no such row for.
func HasDefaultOpclass(method string, t value.Type) bool {
	k := t.Kind
	if k.IsArray() {
		return true // array_ops, whatever the element
	}
	switch {
	case k.IsGeometric():
		return false
	case k == value.JSON, k == value.JSONPath, k == value.XML, k.IsSnapshot(), k == value.RefCursor, k == value.Void, k.IsValueless():
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
