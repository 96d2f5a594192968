package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Arrays of several dimensions and lower bounds other than 1: the
// constructor of arrays from arrays, subscripts and slices in every
// dimension, concatenation with PostgreSQL's dimension rules, and
// array_fill.

// maxArraySize is PostgreSQL's limit on the number of an array's elements.
const maxArraySize = 1<<27 - 1

// lower returns the lower bound of a one-dimensional array, 1 for an
// empty one.
func lower(a value.Value) int {
	if d := a.Dims(); len(d) > 0 {
		return d[0].Lower
	}
	return 1
}

// searchable returns the lower bound of an array that array_position may
// search: one-dimensional or empty.
func searchable(a value.Value) (int64, error) {
	if a.NDims() > 1 {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "searching for elements in multidimensional arrays is not supported")
	}
	return int64(lower(a)), nil
}

// addElem is array_append (array_prepend when front): the array, empty
// when NULL, must have at most one dimension, whose lower bound stays.
func addElem(k value.Kind, arr, e value.Value, front bool) (value.Value, error) {
	if arr.NDims() > 1 {
		return value.Null, pgerr.New("22000", "argument must be empty or one-dimensional array")
	}
	es := arr.Elems()
	out := make([]value.Value, 0, len(es)+1)
	if front {
		out = append(append(out, e), es...)
	} else {
		out = append(append(out, es...), e)
	}
	return value.NewArrayDims(value.ArrayOf(k), out, []value.Dim{{Len: len(out), Lower: lower(arr)}}), nil
}

func errConcat(detail string) error {
	return &pgerr.Error{Code: value.ArraySubscriptError, Message: "cannot concatenate incompatible arrays", Detail: detail}
}

// catArrays is array_cat of two arrays, neither NULL (PostgreSQL's
// array_cat): an empty one gives the other; with as many dimensions, the
// outer ones add up and the inner ones must agree; with one dimension
// less, one is an element of the other's outer dimension. The elements
// are a's then b's in every case.
func catArrays(a, b value.Value) (value.Value, error) {
	da, db := a.Dims(), b.Dims()
	switch {
	case len(db) == 0:
		return a, nil
	case len(da) == 0:
		return b, nil
	}
	var dims []value.Dim
	switch len(da) - len(db) {
	case 0:
		dims = append(dims, value.Dim{Len: da[0].Len + db[0].Len, Lower: da[0].Lower})
		for i := 1; i < len(da); i++ {
			if da[i] != db[i] {
				return value.Null, errConcat("Arrays with differing element dimensions are not compatible for concatenation.")
			}
		}
		dims = append(dims, da[1:]...)
	case -1, 1:
		outer, inner := da, db
		if len(da) < len(db) {
			outer, inner = db, da
		}
		for i := range inner {
			if inner[i] != outer[i+1] {
				return value.Null, errConcat("Arrays with differing dimensions are not compatible for concatenation.")
			}
		}
		dims = append(dims, value.Dim{Len: outer[0].Len + 1, Lower: outer[0].Lower})
		dims = append(dims, outer[1:]...)
	default:
		return value.Null, errConcat("Arrays of " + itoa(len(da)) + " and " + itoa(len(db)) + " dimensions are not compatible for concatenation.")
	}
	x, y := a.Elems(), b.Elems()
	out := make([]value.Value, 0, len(x)+len(y))
	out = append(append(out, x...), y...)
	return value.NewArrayDims(a.Kind(), out, dims), nil
}

// stackArrays is ARRAY[a, b, …] of arrays (PostgreSQL's multidimensional
// ArrayExpr): the arrays, of equal dimensions and lower bounds, become
// the elements of a new outer dimension from 1. NULL and empty arrays are
// skipped when all are; among others they are an error.
func stackArrays(k value.Kind, subs []value.Value) (value.Value, error) {
	var inner []value.Dim
	var elems []value.Value
	empty, first := false, true
	for _, s := range subs {
		if s.NDims() == 0 {
			empty = true
			continue
		}
		if first {
			inner, first = s.Dims(), false
		} else if !sameDims(inner, s.Dims()) {
			return value.Null, pgerr.New(value.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
		}
		elems = append(elems, s.Elems()...)
	}
	switch {
	case first:
		return value.NewArray(k, nil), nil
	case empty:
		return value.Null, pgerr.New(value.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
	}
	if err := value.CheckDims(len(inner) + 1); err != nil {
		return value.Null, err
	}
	dims := append([]value.Dim{{Len: len(subs), Lower: 1}}, inner...)
	return value.NewArrayDims(k, elems, dims), nil
}

func sameDims(x, y []value.Dim) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// Subscript is one dimension's subscript: Lo alone for a[i], Lo and Hi
// (either nil for an open end) for a slice a[lo:hi], written with a colon
// (Slice).
type Subscript struct {
	Lo, Hi Expr
	Slice  bool
}

// NewSubscripts returns arr[s1][s2]…, one subscript per dimension from
// the outermost. Without slice it is an element: NULL unless there is a
// subscript per dimension, each within its bounds. With slice (when any
// subscript is one, all are, and a[i] means a[1:i]) it is the array of
// the elements within the bounds, clipped to the array's, with lower
// bounds 1; the dimensions without a subscript are kept whole, and a
// slice with more subscripts than dimensions is empty.
func NewSubscripts(arr Expr, subs []Subscript, slice bool) Expr {
	if k := arr.Type().Kind; slice && k.IsVector() {
		arr = &Cast{E: arr, To: value.ArrayType(k.Elem())} // a vector's slice is an array, as in PostgreSQL
	}
	t := arr.Type()
	args, at := appendSubscripts([]Expr{arr}, subs)
	print := func(args []Expr) string {
		s := operand(args[0])
		for i, p := range at {
			s += "["
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
		return s
	}
	if !slice {
		return &Func{Def: &FuncDef{Name: "subscript", Strict: true, Eval: func(a []value.Value) (value.Value, error) {
			dims := a[0].Dims()
			if len(dims) != len(at) {
				return value.Null, nil
			}
			off := int64(0)
			for i, d := range dims {
				j := a[at[i].lo].Int() - int64(d.Lower)
				if j < 0 || j >= int64(d.Len) {
					return value.Null, nil
				}
				off = off*int64(d.Len) + j
			}
			return a[0].Elems()[off], nil
		}, Print: print}, Args: args, T: t.ElemTypeMod()}
	}
	k := t.Kind
	return &Func{Def: &FuncDef{Name: "slice", Strict: true, Eval: func(a []value.Value) (value.Value, error) {
		dims := a[0].Dims()
		if len(at) > len(dims) {
			return value.NewArray(k, nil), nil
		}
		lo := make([]int64, len(dims))
		hi := make([]int64, len(dims))
		for i, d := range dims {
			lo[i], hi[i] = int64(d.Lower), int64(d.Lower+d.Len-1)
			if i < len(at) {
				switch p := at[i]; {
				case !subs[i].Slice:
					// a[i] among slices is a[1:i].
					hi[i] = min(hi[i], a[p.lo].Int())
					lo[i] = max(lo[i], 1)
				default:
					if p.lo > 0 {
						lo[i] = max(lo[i], a[p.lo].Int())
					}
					if p.hi > 0 {
						hi[i] = min(hi[i], a[p.hi].Int())
					}
				}
			}
			if lo[i] > hi[i] {
				return value.NewArray(k, nil), nil
			}
		}
		return sliceArray(a[0], lo, hi), nil
	}, Print: print}, Args: args, T: t}
}

// sliceArray returns the elements of arr between lo and hi (subscripts,
// within its bounds, lo ≤ hi) in each dimension, with lower bounds 1.
func sliceArray(arr value.Value, lo, hi []int64) value.Value {
	dims := arr.Dims()
	es := arr.Elems()
	out := make([]value.Value, 0)
	nd := make([]value.Dim, len(dims))
	for i := range dims {
		nd[i] = value.Dim{Len: int(hi[i] - lo[i] + 1), Lower: 1}
	}
	// Walk the selected positions in row-major order.
	idx := make([]int64, len(dims))
	copy(idx, lo)
	for {
		off := int64(0)
		for i, d := range dims {
			off = off*int64(d.Len) + idx[i] - int64(d.Lower)
		}
		out = append(out, es[off])
		j := len(dims) - 1
		for ; j >= 0 && idx[j] == hi[j]; j-- {
			idx[j] = lo[j]
		}
		if j < 0 {
			break
		}
		idx[j]++
	}
	return value.NewArrayDims(arr.Kind(), out, nd)
}

func init() {
	// trim_array(a, n) drops the last n elements of the first dimension.
	polyStrict("trim_array", []poly{pArray, pInt}, arrayResult, func(a []value.Value) (value.Value, error) {
		dims, n := a[0].Dims(), a[1].Int()
		length := 0
		if len(dims) > 0 {
			length = dims[0].Len
		}
		if n < 0 || n > int64(length) {
			return value.Null, pgerr.New(value.ArraySubscriptError, "number of elements to trim must be between 0 and %d", length)
		}
		if n == int64(length) {
			return value.NewArray(a[0].Kind(), nil), nil
		}
		lo := make([]int64, len(dims))
		hi := make([]int64, len(dims))
		for i, d := range dims {
			lo[i], hi[i] = int64(d.Lower), int64(d.Lower+d.Len-1)
		}
		hi[0] -= n
		return sliceArray(a[0], lo, hi), nil
	})

	// array_fill(v, dims [, lower bounds]): an array of the given
	// dimensions with every element v. Not strict: v may be NULL.
	fill := func(k value.Kind) *FuncDef {
		return &FuncDef{Name: "array_fill", Eval: func(a []value.Value) (value.Value, error) {
			if a[1].IsNull() || len(a) > 2 && a[2].IsNull() {
				return value.Null, pgerr.New("22004", "dimension array or low bound array cannot be null")
			}
			if a[1].NDims() > 1 || len(a) > 2 && a[2].NDims() > 1 {
				return value.Null, &pgerr.Error{Code: value.ArraySubscriptError, Message: "wrong number of array subscripts", Detail: "Dimension array must be one dimensional."}
			}
			lens := a[1].Elems()
			if len(a) > 2 && len(a[2].Elems()) != len(lens) {
				return value.Null, &pgerr.Error{Code: value.ArraySubscriptError, Message: "wrong number of array subscripts", Detail: "Low bound array has different size than dimensions array."}
			}
			if err := value.CheckDims(len(lens)); err != nil {
				return value.Null, err
			}
			dims := make([]value.Dim, len(lens))
			n := int64(1)
			for i, l := range lens {
				if l.IsNull() || len(a) > 2 && a[2].Elems()[i].IsNull() {
					return value.Null, pgerr.New("22004", "dimension values cannot be null")
				}
				dims[i] = value.Dim{Len: int(l.Int()), Lower: 1}
				if len(a) > 2 {
					dims[i].Lower = int(a[2].Elems()[i].Int())
				}
				if l.Int() < 0 || n*l.Int() > maxArraySize {
					return value.Null, pgerr.New(pgerr.ProgramLimitExceeded, "array size exceeds the maximum allowed (%d)", maxArraySize)
				}
				n *= l.Int()
			}
			if n == 0 {
				return value.NewArray(value.ArrayOf(k), nil), nil
			}
			out := make([]value.Value, n)
			for i := range out {
				out[i] = a[0]
			}
			return value.NewArrayDims(value.ArrayOf(k), out, dims), nil
		}}
	}
	polyRegister("array_fill", []poly{pElem, pIntArray}, arrayResult, fill)
	polyRegister("array_fill", []poly{pElem, pIntArray, pIntArray}, arrayResult, fill)
}

// appendArrayJSON writes an array's elements as JSON arrays nested per
// dimension (to_json, array_to_json); lower bounds do not show.
func appendArrayJSON(buf []byte, es []value.Value, dims []value.Dim, o jsonOut) []byte {
	buf = append(buf, '[')
	if len(dims) <= 1 {
		for i, e := range es {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSON(buf, e, o)
		}
		return append(buf, ']')
	}
	step := len(es) / dims[0].Len
	for i := 0; i < dims[0].Len; i++ {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendArrayJSON(buf, es[i*step:(i+1)*step], dims[1:], o)
	}
	return append(buf, ']')
}

// subscriptPos locates a subscript's bounds among a call's arguments: 0
// when absent.
type subscriptPos struct{ lo, hi int }

// appendSubscripts appends the bounds of subs to args, and says where
// each went.
func appendSubscripts(args []Expr, subs []Subscript) ([]Expr, []subscriptPos) {
	at := make([]subscriptPos, len(subs))
	for i, s := range subs {
		if s.Lo != nil {
			args = append(args, s.Lo)
			at[i].lo = len(args) - 1
		}
		if s.Hi != nil {
			args = append(args, s.Hi)
			at[i].hi = len(args) - 1
		}
	}
	return args, at
}
