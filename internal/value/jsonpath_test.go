package value

import "testing"

// FuzzParseJSONPath checks that no input panics the parser, and that a
// path's canonical text, parsed again, prints the same.
func FuzzParseJSONPath(f *testing.F) {
	for _, s := range []string{`$.a[*] ? (@ > 1)`, `strict $.**{1 to last}.b`, `$ ? (@ like_regex "x" flag "i")`,
		`-$.a + 2 * (3 - $x)`, `$[1, 2 to last].type()`, `exists ($.a) && !(@ == 1)`, `"\u00e9\x41"`, `1.5e3`, `$.a /* c */`,
		`$.datetime("HH24")`, `($.a ? (@ > 1)).b`, `(1 > 2) is unknown`, `$"x y"`, `.5`, `$.a.1`, `$.**{last}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseJSONPath(s)
		if err != nil {
			return
		}
		q, err := ParseJSONPath(p.String())
		if err != nil {
			// PostgreSQL's output drops the parentheses of a parenthesized
			// expression with accessors inside an operation
			// (($.a + 1).b > 2 prints $."a" + 1."b" > 2): not always
			// readable again.
			return
		}
		if q.String() != p.String() {
			t.Fatalf("%q prints %q, which prints %q", s, p.String(), q.String())
		}
	})
}
