package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// jsonb_insert(target, path, new [, insert_after]) inserts new at path:
// before (or after) the array element the last path element names, at
// the array's start or end when the index is beyond it, or as a new key
// of an object (an existing key is 22023). Missing intermediate steps
// leave the document as it is, as in PostgreSQL.
func init() {
	ins := func(a []value.Value) (value.Value, error) {
		after := len(a) > 3 && a[3].Bool()
		return jsonbInsert(a[0].JSONB(), a[1].Elems(), a[2].JSONB(), after)
	}
	strict("jsonb_insert", kinds(jsonbT, textA, jsonbT), value.JSONBType, ins)
	strict("jsonb_insert", kinds(jsonbT, textA, jsonbT, value.Bool), value.JSONBType, ins)
}

func jsonbInsert(n *value.JSONNode, path []value.Value, ins *value.JSONNode, after bool) (value.Value, error) {
	if n.Type != value.JSONObject && n.Type != value.JSONArray {
		return value.Null, pgerr.New(pgerr.InvalidParameter, "cannot set path in scalar")
	}
	if len(path) == 0 {
		return value.NewJSONB(n), nil
	}
	out, err := insertPath(n, path, 0, ins, after)
	if err != nil {
		return value.Null, err
	}
	return value.NewJSONB(out), nil
}

func insertPath(n *value.JSONNode, path []value.Value, depth int, ins *value.JSONNode, after bool) (*value.JSONNode, error) {
	p := path[depth]
	if p.IsNull() {
		return nil, pgerr.New("22004", "path element at position %d is null", depth+1)
	}
	last := depth == len(path)-1
	switch n.Type {
	case value.JSONObject:
		key := p.Str()
		out := &value.JSONNode{Type: value.JSONObject, Keys: append([]string(nil), n.Keys...), Elems: append([]value.JSONNode(nil), n.Elems...)}
		for i, k := range n.Keys {
			if k != key {
				continue
			}
			if last {
				return nil, pgerr.New(pgerr.InvalidParameter, "cannot replace existing key").
					WithHint("Try using the function jsonb_set to replace key value.")
			}
			c, err := insertPath(&n.Elems[i], path, depth+1, ins, after)
			if err != nil {
				return nil, err
			}
			out.Elems[i] = *c
			return out, nil
		}
		if last {
			out.Keys = append(out.Keys, key)
			out.Elems = append(out.Elems, *ins)
			value.NormalizeJSONB(out)
		}
		return out, nil
	case value.JSONArray:
		i, err := pathIndex(p, depth+1)
		if err != nil {
			return nil, err
		}
		size := int64(len(n.Elems))
		if i < 0 {
			if -i > size {
				i = -1 << 40 // before the start
			} else {
				i += size
			}
		}
		out := &value.JSONNode{Type: value.JSONArray}
		switch {
		case last && (i < 0 || size == 0):
			out.Elems = append([]value.JSONNode{*ins}, n.Elems...)
			return out, nil
		case i >= size:
			out.Elems = append(out.Elems, n.Elems...)
			if last {
				out.Elems = append(out.Elems, *ins)
			}
			return out, nil
		case i < 0:
			out.Elems = append(out.Elems, n.Elems...)
			return out, nil
		}
		for j := range n.Elems {
			if int64(j) != i {
				out.Elems = append(out.Elems, n.Elems[j])
				continue
			}
			if !last {
				c, err := insertPath(&n.Elems[j], path, depth+1, ins, after)
				if err != nil {
					return nil, err
				}
				out.Elems = append(out.Elems, *c)
				continue
			}
			if after {
				out.Elems = append(out.Elems, n.Elems[j], *ins)
			} else {
				out.Elems = append(out.Elems, *ins, n.Elems[j])
			}
		}
		return out, nil
	}
	return n, nil
}
