package value

import (
	"bytes"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

func TestArrayTextRoundTrip(t *testing.T) {
	for _, c := range []struct {
		in, elem, out string
	}{
		{"{1,2,3}", "int4", "{1,2,3}"},
		{" { 1 , NULL ,3 } ", "int4", "{1,NULL,3}"},
		{"{}", "int4", "{}"},
		{`{a,"b c","","NULL",null,"x\"y","\\"}`, "text", `{a,"b c","","NULL",NULL,"x\"y","\\"}`},
		{`{ a b ,c\ }`, "text", `{"a b","c "}`},
		{"{2024-01-01 10:00}", "timestamp", `{"2024-01-01 10:00:00"}`},
		{"{t,false}", "bool", "{t,f}"},
		{"{1.50,-2}", "numeric", "{1.50,-2}"},
		{"{{1,2},{3,4}}", "int4", "{{1,2},{3,4}}"},
		{" { { 1 , 2 } , { NULL , 4 } } ", "int4", "{{1,2},{NULL,4}}"},
		{"{{{1},{2}},{{3},{4}}}", "int4", "{{{1},{2}},{{3},{4}}}"},
		{"[0:1]={1,2}", "int4", "[0:1]={1,2}"},
		{" [1:2] [3:3]= {{1},{2}} ", "int4", "[1:2][3:3]={{1},{2}}"},
		{"[1:1][1:2]={{1,2}}", "int4", "{{1,2}}"},
		{"[2]={1,2}", "int4", "{1,2}"},
		{"[-2:-1]={1,2}", "int4", "[-2:-1]={1,2}"},
		{`{{"a b",NULL},{"",c}}`, "text", `{{"a b",NULL},{"",c}}`},
	} {
		et, err := TypeFromName(c.elem, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Parse(c.in, ArrayType(et.Kind))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := v.String(); got != c.out {
			t.Errorf("%s: got %s, want %s", c.in, got, c.out)
		}
		w, err := Parse(v.String(), ArrayType(et.Kind))
		if err != nil || Compare(v, w) != 0 {
			t.Errorf("%s: does not read back: %v %v", c.in, w, err)
		}
	}
	for _, c := range []struct{ in, code, detail string }{
		{"1,2", "22P02", `Array value must start with "{" or dimension information.`},
		{"{1,2", "22P02", "Unexpected end of input."},
		{"{1,,2}", "22P02", `Unexpected "," character.`},
		{"{1,2}x", "22P02", "Junk after closing right brace."},
		{"{1,x}", "22P02", ""},
		{`{"1}`, "22P02", "Unexpected end of input."},
		{"{{1,2},{3}}", "22P02", errRagged},
		{"{{1},2}", "22P02", "Unexpected array element."},
		{"{1,{2}}", "22P02", `Unexpected "{" character.`},
		{"{{},{}}", "22P02", `Unexpected "}" character.`},
		{"{{1},{2},}", "22P02", `Unexpected "}" character.`},
		{"[0:2]={1,2}", "22P02", "Specified array dimensions do not match array contents."},
		{"[1:1]={}", "22P02", "Specified array dimensions do not match array contents."},
		{"[1:2]{1,2}", "22P02", `Missing "=" after array dimensions.`},
		{"[a]={1}", "22P02", `"[" must introduce explicitly-specified array dimensions.`},
		{"[1:2={1,2}", "22P02", `Missing "]" after array dimensions.`},
		{"[1:]={1}", "22P02", "Missing array dimension value."},
		{"[1:2]=1", "22P02", `Array contents must start with "{".`},
		{"[1:0]={}", "2202E", ""},
		{"{{{{{{{1}}}}}}}", "54000", ""},
	} {
		_, err := Parse(c.in, ArrayType(Int4))
		e, ok := err.(*pgerr.Error)
		if !ok || e.Code != c.code || c.detail != "" && e.Detail != c.detail {
			t.Errorf("%s: got %v, want %s %s", c.in, err, c.code, c.detail)
		}
	}
}

func TestArrayShapes(t *testing.T) {
	ints := func(xs ...int64) []Value {
		es := make([]Value, len(xs))
		for i, x := range xs {
			es[i] = NewInt(Int4, x)
		}
		return es
	}
	k := ArrayOf(Int4)
	// Ascending, as PostgreSQL sorts int4[]: elements first, then the
	// number of elements, dimensions, lengths, lower bounds.
	vs := []Value{
		NewArray(k, nil),
		NewArrayDims(k, ints(1, 2), []Dim{{2, 0}}),
		NewArray(k, ints(1, 2)),
		NewArrayDims(k, ints(1, 2), []Dim{{2, 5}}),
		NewArrayDims(k, ints(1, 2), []Dim{{1, 1}, {2, 1}}),
		NewArrayDims(k, ints(1, 2), []Dim{{2, 1}, {1, -3}}),
		NewArrayDims(k, ints(1, 2), []Dim{{2, 1}, {1, 1}}),
		NewArrayDims(k, ints(1, 2, 3, 4), []Dim{{2, 1}, {2, 1}}),
		NewArray(k, ints(1, 3)),
	}
	for i := range vs {
		if w, err := Parse(vs[i].String(), ArrayType(Int4)); err != nil || Compare(w, vs[i]) != 0 {
			t.Errorf("%s does not read back: %v %v", vs[i], w, err)
		}
		for j := range vs {
			want := cmpInt(int64(i), int64(j))
			if got := Compare(vs[i], vs[j]); got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", vs[i], vs[j], got, want)
			}
			kb := bytes.Compare(AppendKey(nil, vs[i]), AppendKey(nil, vs[j]))
			if kb != want {
				t.Errorf("key order of %v, %v = %d, want %d", vs[i], vs[j], kb, want)
			}
		}
	}
	if d := NewArrayDims(k, ints(1, 2), []Dim{{2, 1}}); d.sc == shaped || d.NDims() != 1 {
		t.Errorf("a one-dimensional array from 1 is not held plainly")
	}
	if d := NewArrayDims(k, nil, []Dim{{0, 3}}); d.NDims() != 0 || d.String() != "{}" {
		t.Errorf("an array without elements is not the empty array: %s", d)
	}
}

func TestArrayOrder(t *testing.T) {
	arr := func(xs ...any) Value {
		var es []Value
		for _, x := range xs {
			if x == nil {
				es = append(es, Null)
			} else {
				es = append(es, NewInt(Int4, int64(x.(int))))
			}
		}
		return NewArray(ArrayOf(Int4), es)
	}
	// Ascending, as PostgreSQL sorts int4[].
	vs := []Value{arr(), arr(1), arr(1, 2), arr(1, 2, 0), arr(1, 3), arr(1, nil), arr(2), arr(nil)}
	for i := range vs {
		for j := range vs {
			want := cmpInt(int64(i), int64(j))
			if got := Compare(vs[i], vs[j]); got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", vs[i], vs[j], got, want)
			}
			kb := bytes.Compare(AppendKey(nil, vs[i]), AppendKey(nil, vs[j]))
			if kb != want {
				t.Errorf("key order of %v, %v = %d, want %d", vs[i], vs[j], kb, want)
			}
		}
	}
	if s := ArrayOf(Int4).String(); s != "integer[]" {
		t.Errorf("type name %q", s)
	}
}
