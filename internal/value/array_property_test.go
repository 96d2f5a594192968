package value

import (
	"bytes"
	"errors"
	"testing"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// genArray draws an array of kind ArrayOf(elem) of 0 to 3 dimensions with
// lengths 1 to 3 and lower bounds -1 to 2.
func genArray(elem Kind) *rapid.Generator[Value] {
	return rapid.Custom(func(t *rapid.T) Value {
		nd := rapid.IntRange(0, 3).Draw(t, "ndims")
		dims := make([]Dim, nd)
		n := 1
		for i := range dims {
			dims[i] = Dim{Len: rapid.IntRange(1, 3).Draw(t, "len"), Lower: rapid.SampledFrom([]int{1, 1, -1, 0, 2}).Draw(t, "lower")}
			n *= dims[i].Len
		}
		if nd == 0 {
			n = 0
		}
		es := make([]Value, n)
		for i := range es {
			es[i] = genValue(elem).Draw(t, "elem")
		}
		return NewArrayDims(ArrayOf(elem), es, dims)
	})
}

// TestArrayShapeProperty checks, for arrays of any shape, that keys order
// as Compare, that equal arrays hash alike, and that the text output reads
// back as the same array.
func TestArrayShapeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		elem := rapid.SampledFrom([]Kind{Int4, Text, Numeric}).Draw(t, "elem")
		a, b := genArray(elem).Draw(t, "a"), genArray(elem).Draw(t, "b")
		if rapid.IntRange(0, 3).Draw(t, "same") == 0 {
			// The same elements in another shape.
			b = NewArrayDims(a.Kind(), a.Elems(), genArray(elem).Draw(t, "shape").Dims())
			if len(b.Elems()) > 0 && len(b.Dims()) > 0 {
				n := 1
				for _, d := range b.Dims() {
					n *= d.Len
				}
				if n != len(b.Elems()) {
					b = a
				}
			}
		}
		ka, kb := AppendKey(nil, a), AppendKey(nil, b)
		if got, want := sign(bytes.Compare(ka, kb)), Compare(a, b); got != want {
			t.Fatalf("key order %d, Compare %d for %v, %v", got, want, a, b)
		}
		if Compare(a, b) != -Compare(b, a) {
			t.Fatalf("Compare not antisymmetric on %v, %v", a, b)
		}
		if Equal(a, b) != (HashValue(a) == HashValue(b)) || Equal(a, b) && !SameDims(a, b) {
			t.Fatalf("hash or shape disagrees with Equal on %v, %v", a, b)
		}
		back, err := Parse(a.String(), ArrayType(elem))
		if err != nil || !Equal(back, a) || !SameDims(back, a) {
			t.Fatalf("%v reads back as %v, %v", a, back, err)
		}
	})
}

// FuzzParseArray reads any text as a two-dimensional-capable int4[] and
// text[]: an error has a SQLSTATE, and what is read prints as text that
// reads back as the same array.
func FuzzParseArray(f *testing.F) {
	for _, s := range []string{"{{1,2},{3,4}}", "[0:1]={1,2}", "[1:1][2:3]={{a,b}}", "{{},{}}", "{{1},2}",
		"{1,{2}}", "[1:0]={}", "{{{{{{{1}}}}}}}", `{{"a\"b",NULL}}`, "[", "[1:2]", " [-1:-1] = { { x } } "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, k := range []Kind{Int4, Text} {
			v, err := Parse(s, ArrayType(k))
			if err != nil {
				var pe *pgerr.Error
				if !errors.As(err, &pe) || len(pe.Code) != 5 || pe.Code == pgerr.Internal {
					t.Fatalf("Parse(%q): error without SQLSTATE: %v", s, err)
				}
				continue
			}
			back, err := Parse(v.String(), ArrayType(k))
			if err != nil || !Equal(back, v) || !SameDims(back, v) {
				t.Fatalf("Parse(%q) = %s, which reads back as %v, %v", s, v, back, err)
			}
		}
	})
}
