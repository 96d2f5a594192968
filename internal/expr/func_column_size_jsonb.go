package expr

import "github.com/deltaview/deltaview/internal/value"

// jsonbDatumSize is the size of a jsonb datum as PostgreSQL lays it out:
// a 4-byte varlena header, then the root container (a scalar is wrapped
// in a one-element array): a 4-byte count, a 4-byte entry per element
// (two per pair of an object: keys, then values), then the keys' bytes
// and the elements' data: a string's bytes, a numeric datum aligned to 4
// bytes, a nested container aligned to 4 bytes, nothing for a boolean or
// null. It keeps no state.
func jsonbDatumSize(n *value.JSONNode) int {
	size := 4
	if n.Type != value.JSONArray && n.Type != value.JSONObject {
		size = jsonbContainerSize(size, &value.JSONNode{Type: value.JSONArray, Elems: []value.JSONNode{*n}})
		return size
	}
	return jsonbContainerSize(size, n)
}

// jsonbContainerSize is at, the offset in the datum where a container
// starts, plus the container; at is aligned to 4 first.
func jsonbContainerSize(at int, n *value.JSONNode) int {
	at = (at + 3) &^ 3
	at += 4 + 4*len(n.Elems)
	if n.Type == value.JSONObject {
		at += 4 * len(n.Keys)
		for _, k := range n.Keys {
			at += len(k)
		}
	}
	for i := range n.Elems {
		at = jsonbValueSize(at, &n.Elems[i])
	}
	return at
}

// jsonbValueSize is at plus the data of one element.
func jsonbValueSize(at int, n *value.JSONNode) int {
	switch n.Type {
	case value.JSONString:
		return at + len(n.Str)
	case value.JSONNumber:
		return (at+3)&^3 + 4 + numericSize(n.Num.Decimal())
	case value.JSONArray, value.JSONObject:
		return jsonbContainerSize(at, n)
	}
	return at
}
