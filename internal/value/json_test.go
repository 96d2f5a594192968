package value

import (
	"bytes"
	"testing"
)

func TestJSONBParseOutput(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{`{"b": 1, "a": [1, 2.50, "x"], "aa": null, "a": true}`, `{"a": true, "b": 1, "aa": null}`},
		{` 1e2 `, `100`},
		{`"\u00e9\n\"/"`, `"é\n\"/"`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`[{"x":{}} , -0.0]`, `[{"x": {}}, 0.0]`},
		{`"\ud83d\ude00"`, `"😀"`},
	} {
		v, err := Parse(c.in, JSONBType)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := string(AppendText(nil, v)); got != c.out {
			t.Errorf("%s: got %s, want %s", c.in, got, c.out)
		}
	}
	for _, bad := range []string{``, `01`, `1.`, `.1`, `[1,]`, `{"a"}`, `{1:2}`, `"\v"`, "\"a\nb\"", `tru`, `[1 2]`, `"\u0000"`, `"\udc00"`, `nul`, `1 2`} {
		if _, err := Parse(bad, JSONBType); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := Parse(`"\u0000"`, JSONType); err != nil {
		t.Errorf("json keeps \\u0000: %v", err)
	}
}

// TestJSONBOrderKey checks that the key encoding orders as Compare.
func TestJSONBOrderKey(t *testing.T) {
	docs := []string{`null`, `"a"`, `"b"`, `""`, `1`, `1.0`, `2`, `-1`, `true`, `false`, `[]`, `[1]`, `[0, 0]`, `["a"]`, `[[1]]`, `[{}]`,
		`{}`, `{"a": 1}`, `{"b": 1}`, `{"a": 2}`, `{"aa": 1}`, `{"a": 1, "b": 2}`, `{"a": [1]}`, `{"a": null}`, `[null]`, `[1, [2]]`, `[1, 3]`}
	vals := make([]Value, len(docs))
	for i, d := range docs {
		v, err := Parse(d, JSONBType)
		if err != nil {
			t.Fatal(err)
		}
		vals[i] = v
	}
	for _, a := range vals {
		for _, b := range vals {
			c := Compare(a, b)
			k := bytes.Compare(AppendKey(nil, a), AppendKey(nil, b))
			if c != k {
				t.Errorf("%s vs %s: Compare %d, keys %d", AppendText(nil, a), AppendText(nil, b), c, k)
			}
		}
	}
}
