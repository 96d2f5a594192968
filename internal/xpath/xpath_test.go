package xpath_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/xpath"
)

func Example() {
	doc, _ := xpath.ParseDocument(`<a xmlns:p="http://p"><b>1</b><p:b k="v">2</p:b></a>`)
	e, _ := xpath.Compile(`//p:b | //b[. > 0]`, map[string]string{"p": "http://p"})
	v, _ := e.Eval(doc)
	for _, n := range v.([]*xpath.Node) {
		s, _ := xpath.Serialize(n)
		fmt.Println(s)
	}
	// Output:
	// <b>1</b>
	// <p:b xmlns:p="http://p" k="v">2</p:b>
}

// TestNumberString checks libxml2's writing of numbers in string().
func TestNumberString(t *testing.T) {
	for f, want := range map[float64]string{
		1.0 / 3: "0.333333333333333", 0.1 + 0.2: "0.3", 123456789012: "1.23456789012e+11", 0.00001: "0.00001",
		100.0 / 7: "14.2857142857143", 2147483647: "2.147483647e+09", 5e9: "5e+09", -2: "-2", 1.5: "1.5",
	} {
		if got := xpath.NumberString(f); got != want {
			t.Errorf("NumberString(%v) = %q, want %q", f, got, want)
		}
	}
}

// TestErrors checks which expressions fail to compile and which only on
// evaluating, as libxml2 tells them apart.
func TestErrors(t *testing.T) {
	for expr, compile := range map[string]bool{
		"/a[": true, "a b": true, `"abc`: true, "/a/": true, "foo::a": true, "1 +": true,
		"x:a": false, "foo()": false, "$x": false, "concat('a')": false,
	} {
		_, err := xpath.Compile(expr, nil)
		xe, ok := err.(*xpath.Error)
		if !ok || xe.Compile != compile {
			t.Errorf("Compile(%q) = %v, want an error with Compile %v", expr, err, compile)
		}
	}
}
