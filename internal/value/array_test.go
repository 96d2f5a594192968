package value

import (
	"bytes"
	"testing"
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
	for _, bad := range []string{"1,2", "{1,2", "{1,,2}", "{1,2}x", "{1,x}", `{"1}`} {
		if _, err := Parse(bad, ArrayType(Int4)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if _, err := Parse("{{1},{2}}", ArrayType(Int4)); err == nil {
		t.Error("nested array accepted")
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
