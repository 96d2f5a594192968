package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// NewArrayAssign returns arr with the element at subs (one subscript per
// dimension, or with slice a slice of them) replaced by v, as PostgreSQL's
// UPDATE … SET a[i] = v computes the column's new value. A NULL arr is an
// empty array; a one-dimensional array grows to take a subscript outside
// its bounds, NULLs filling the gap; an array of more dimensions does not
// (2202E). A NULL subscript is 22004. With slice, v is an array whose
// elements, in order, replace the slice's (2202E when it has too few); a
// subscript without a colon among slices is 1:i, an omitted bound the
// array's own, and a NULL v leaves the array as it is.
func NewArrayAssign(arr Expr, subs []Subscript, slice bool, v Expr) Expr {
	t := arr.Type()
	args, at := appendSubscripts([]Expr{arr, v}, subs)
	print := func(args []Expr) string {
		s := "array_assign(" + args[0].String()
		for i, p := range at {
			s += ", ["
			if p.lo > 0 {
				s += args[p.lo].String()
			}
			if subs[i].Slice {
				s += ":"
				if p.hi > 0 {
					s += args[p.hi].String()
				}
			}
			s += "]"
		}
		return s + ", " + args[1].String() + ")"
	}
	k := t.Kind
	eval := func(a []value.Value) (value.Value, error) {
		src := a[0]
		if src.IsNull() {
			src = value.NewArray(k, nil)
		}
		// Subscripts as bounds: lo and hi, set[i] when given.
		n := len(subs)
		lo, hi := make([]int64, n), make([]int64, n)
		hasLo, hasHi := make([]bool, n), make([]bool, n)
		for i, p := range at {
			if !slice {
				x := a[p.lo]
				if x.IsNull() {
					return value.Null, pgerr.New("22004", "array subscript in assignment must not be null")
				}
				lo[i], hi[i], hasLo[i], hasHi[i] = x.Int(), x.Int(), true, true
				continue
			}
			if !subs[i].Slice {
				lo[i], hasLo[i] = 1, true
				p.hi = p.lo
			} else if p.lo > 0 {
				if a[p.lo].IsNull() {
					return value.Null, pgerr.New("22004", "array subscript in assignment must not be null")
				}
				lo[i], hasLo[i] = a[p.lo].Int(), true
			}
			if p.hi > 0 {
				if a[p.hi].IsNull() {
					return value.Null, pgerr.New("22004", "array subscript in assignment must not be null")
				}
				hi[i], hasHi[i] = a[p.hi].Int(), true
			}
		}
		if !slice {
			return assignElement(k, src, lo, a[1])
		}
		if a[1].IsNull() {
			return src, nil
		}
		return assignSlice(k, src, lo, hi, hasLo, hasHi, a[1].Elems())
	}
	return &Func{Def: &FuncDef{Name: "array_assign", Eval: eval, Print: print}, Args: args, T: t}
}

var errArraySize = pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", maxArraySize)

// assignElement sets the element of arr (an array of kind k) at idx.
func assignElement(k value.Kind, arr value.Value, idx []int64, v value.Value) (value.Value, error) {
	dims := arr.Dims()
	if len(dims) == 0 {
		nd := make([]value.Dim, len(idx))
		for i, x := range idx {
			nd[i] = value.Dim{Len: 1, Lower: int(x)}
		}
		return value.NewArrayDims(k, []value.Value{v}, nd), nil
	}
	if len(dims) != len(idx) {
		return value.Null, pgerr.New(value.ArraySubscriptError, "wrong number of array subscripts")
	}
	elems := arr.Elems()
	if len(dims) == 1 {
		d := dims[0]
		first, last := min(int64(d.Lower), idx[0]), max(int64(d.Lower+d.Len-1), idx[0])
		if last-first+1 > maxArraySize {
			return value.Null, errArraySize
		}
		out := make([]value.Value, last-first+1)
		copy(out[int64(d.Lower)-first:], elems)
		out[idx[0]-first] = v
		return value.NewArrayDims(k, out, []value.Dim{{Len: len(out), Lower: int(first)}}), nil
	}
	off := int64(0)
	for i, d := range dims {
		j := idx[i] - int64(d.Lower)
		if j < 0 || j >= int64(d.Len) {
			return value.Null, pgerr.New(value.ArraySubscriptError, "array subscript out of range")
		}
		off = off*int64(d.Len) + j
	}
	out := append([]value.Value(nil), elems...)
	out[off] = v
	return value.NewArrayDims(k, out, dims), nil
}

// assignSlice sets the slice lo:hi of arr (an array of kind k), bounds
// not given (has false) taken from arr, to the first elements of src.
func assignSlice(k value.Kind, arr value.Value, lo, hi []int64, hasLo, hasHi []bool, src []value.Value) (value.Value, error) {
	dims := arr.Dims()
	if len(dims) == 0 {
		count := int64(1)
		nd := make([]value.Dim, len(lo))
		for i := range lo {
			if !hasLo[i] || !hasHi[i] {
				return value.Null, pgerr.New(value.ArraySubscriptError, "array slice subscript must provide both boundaries").
					WithDetail("When assigning to a slice of an empty array value, slice boundaries must be fully specified.")
			}
			l := hi[i] - lo[i] + 1
			if l <= 0 || count*l > maxArraySize {
				return value.Null, errArraySize
			}
			count *= l
			nd[i] = value.Dim{Len: int(l), Lower: int(lo[i])}
		}
		if int64(len(src)) < count {
			return value.Null, pgerr.New(value.ArraySubscriptError, "source array too small")
		}
		return value.NewArrayDims(k, append([]value.Value(nil), src[:count]...), nd), nil
	}
	if len(lo) > len(dims) {
		return value.Null, pgerr.New(value.ArraySubscriptError, "wrong number of array subscripts")
	}
	// Complete the bounds: a dimension without a subscript, or a bound
	// omitted, is the array's own.
	full := func(i int) (int64, int64) { return int64(dims[i].Lower), int64(dims[i].Lower + dims[i].Len - 1) }
	l, h := make([]int64, len(dims)), make([]int64, len(dims))
	for i := range dims {
		l[i], h[i] = full(i)
		if i < len(lo) {
			if hasLo[i] {
				l[i] = lo[i]
			}
			if hasHi[i] {
				h[i] = hi[i]
			}
		}
		if l[i] > h[i] {
			return value.Null, pgerr.New(value.ArraySubscriptError, "upper bound cannot be less than lower bound")
		}
	}
	elems := arr.Elems()
	if len(dims) == 1 {
		first, last := min(int64(dims[0].Lower), l[0]), max(int64(dims[0].Lower+dims[0].Len-1), h[0])
		if last-first+1 > maxArraySize {
			return value.Null, errArraySize
		}
		if int64(len(src)) < h[0]-l[0]+1 {
			return value.Null, pgerr.New(value.ArraySubscriptError, "source array too small")
		}
		out := make([]value.Value, last-first+1)
		copy(out[int64(dims[0].Lower)-first:], elems)
		copy(out[l[0]-first:], src[:h[0]-l[0]+1])
		return value.NewArrayDims(k, out, []value.Dim{{Len: len(out), Lower: int(first)}}), nil
	}
	count := int64(1)
	for i := range dims {
		fl, fh := full(i)
		if l[i] < fl || h[i] > fh {
			return value.Null, pgerr.New(value.ArraySubscriptError, "array subscript out of range")
		}
		count *= h[i] - l[i] + 1
	}
	if int64(len(src)) < count {
		return value.Null, pgerr.New(value.ArraySubscriptError, "source array too small")
	}
	out := append([]value.Value(nil), elems...)
	// Walk the slice's positions in row-major order.
	idx := append([]int64(nil), l...)
	for n := 0; ; n++ {
		off := int64(0)
		for i, d := range dims {
			off = off*int64(d.Len) + idx[i] - int64(d.Lower)
		}
		out[off] = src[n]
		j := len(dims) - 1
		for ; j >= 0 && idx[j] == h[j]; j-- {
			idx[j] = l[j]
		}
		if j < 0 {
			break
		}
		idx[j]++
	}
	return value.NewArrayDims(k, out, dims), nil
}

// NewJSONBAssign returns j with the value at path (text subscripts, an
// integer one already its text) replaced by v, as PostgreSQL's UPDATE …
// SET j['a'][0] = v computes the column's new value: a NULL v is JSON
// null; a NULL j is an empty array when the first subscript is an integer
// (asArray), else an empty object. A missing key is added; an array index
// past the end pads the array with nulls; containers missing on the way
// are created, an array where the next subscript is an integer. A path
// through a scalar is 22023, a NULL subscript 22004, a text subscript of
// an array that is no integer 22P02, a negative index before the first
// element 22023.
func NewJSONBAssign(j Expr, path []Expr, asArray bool, v Expr) Expr {
	args := append([]Expr{j, v}, path...)
	print := func(args []Expr) string {
		s := "jsonb_assign(" + args[0].String()
		for _, p := range args[2:] {
			s += ", [" + p.String() + "]"
		}
		return s + ", " + args[1].String() + ")"
	}
	eval := func(a []value.Value) (value.Value, error) {
		keys := make([]string, len(path))
		for i, p := range a[2:] {
			if p.IsNull() {
				return value.Null, pgerr.New("22004", "jsonb subscript in assignment must not be null")
			}
			keys[i] = p.Str()
		}
		root := a[0].JSONB()
		if a[0].IsNull() {
			root = &value.JSONNode{Type: value.JSONObject}
			if asArray {
				root = &value.JSONNode{Type: value.JSONArray}
			}
		}
		repl := &value.JSONNode{Type: value.JSONNull}
		if !a[1].IsNull() {
			repl = a[1].JSONB()
		}
		out, err := jsonbAssign(root, keys, 0, repl)
		if err != nil {
			return value.Null, err
		}
		return value.NewJSONB(out), nil
	}
	return &Func{Def: &FuncDef{Name: "jsonb_assign", Eval: eval, Print: print}, Args: args, T: value.JSONBType}
}

var errJSONBScalarPath = pgerr.New(pgerr.InvalidParameter, "cannot replace existing key").
	WithDetail("The path assumes key is a composite object, but it is a scalar value.")

// jsonbAssign returns n with path[depth:] set to repl.
func jsonbAssign(n *value.JSONNode, path []string, depth int, repl *value.JSONNode) (*value.JSONNode, error) {
	last := depth == len(path)-1
	set := func(old *value.JSONNode) (value.JSONNode, error) {
		if last {
			return *repl, nil
		}
		if old == nil {
			c, err := jsonbCreatePath(path, depth+1, repl)
			if err != nil {
				return value.JSONNode{}, err
			}
			return *c, nil
		}
		if old.Type != value.JSONObject && old.Type != value.JSONArray {
			return value.JSONNode{}, errJSONBScalarPath
		}
		c, err := jsonbAssign(old, path, depth+1, repl)
		if err != nil {
			return value.JSONNode{}, err
		}
		return *c, nil
	}
	switch n.Type {
	case value.JSONObject:
		key := path[depth]
		out := &value.JSONNode{Type: value.JSONObject, Keys: append([]string(nil), n.Keys...), Elems: append([]value.JSONNode(nil), n.Elems...)}
		for i := range n.Keys {
			if n.Keys[i] == key {
				e, err := set(&n.Elems[i])
				if err != nil {
					return nil, err
				}
				out.Elems[i] = e
				return out, nil
			}
		}
		e, err := set(nil)
		if err != nil {
			return nil, err
		}
		out.Keys = append(out.Keys, key)
		out.Elems = append(out.Elems, e)
		value.NormalizeJSONB(out)
		return out, nil
	case value.JSONArray:
		i, err := pathIndex(value.NewText(value.Text, path[depth]), depth+1)
		if err != nil {
			return nil, err
		}
		at := i
		if at < 0 {
			at += int64(len(n.Elems))
		}
		if at < 0 {
			return nil, pgerr.New(pgerr.InvalidParameter, "path element at position %d is out of range: %d", depth+1, i)
		}
		out := &value.JSONNode{Type: value.JSONArray, Elems: append([]value.JSONNode(nil), n.Elems...)}
		if at < int64(len(n.Elems)) {
			e, err := set(&n.Elems[at])
			if err != nil {
				return nil, err
			}
			out.Elems[at] = e
			return out, nil
		}
		if at > maxJSONBElems {
			return nil, errJSONBSize
		}
		for int64(len(out.Elems)) < at {
			out.Elems = append(out.Elems, value.JSONNode{Type: value.JSONNull})
		}
		e, err := set(nil)
		if err != nil {
			return nil, err
		}
		out.Elems = append(out.Elems, e)
		return out, nil
	}
	return nil, errJSONBScalarPath
}

// jsonbCreatePath builds the containers that path[depth:] walks into,
// none of which exists, with repl at its end: an array (padded with
// nulls up to the index) where a subscript is an integer, else an object.
func jsonbCreatePath(path []string, depth int, repl *value.JSONNode) (*value.JSONNode, error) {
	if depth == len(path) {
		return repl, nil
	}
	inner, err := jsonbCreatePath(path, depth+1, repl)
	if err != nil {
		return nil, err
	}
	if i, err := pathIndex(value.NewText(value.Text, path[depth]), depth+1); err == nil {
		if i > maxJSONBElems {
			return nil, errJSONBSize
		}
		out := &value.JSONNode{Type: value.JSONArray, Elems: make([]value.JSONNode, 0, max(i, 0)+1)}
		for j := int64(0); j < i; j++ {
			out.Elems = append(out.Elems, value.JSONNode{Type: value.JSONNull})
		}
		out.Elems = append(out.Elems, *inner)
		return out, nil
	}
	return &value.JSONNode{Type: value.JSONObject, Keys: []string{path[depth]}, Elems: []value.JSONNode{*inner}}, nil
}

// maxJSONBElems bounds the elements of an array that an assignment pads:
// PostgreSQL's jsonb holds at most 268435455 bytes of them, four per null.
const maxJSONBElems = 268435455 / 4

var errJSONBSize = pgerr.New(pgerr.ProgramLimitExceeded, "total size of jsonb array elements exceeds the maximum of 268435455 bytes")
