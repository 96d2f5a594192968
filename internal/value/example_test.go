package value_test

import (
	"bytes"
	"fmt"

	"github.com/deltaview/deltaview/internal/value"
)

// Values parse and print as PostgreSQL's text formats, and arithmetic
// keeps PostgreSQL's numeric scales.
func Example() {
	typ, _ := value.TypeFromName("numeric", []int32{10, 2})
	a, _ := value.Parse("1.5", typ)
	b, _ := value.Parse("3", value.NumericType)
	q, _ := value.Div(a, b)
	f, _ := value.Parse("1e15", value.Float8Type)
	fmt.Println(typ, a, q, f)

	// Keys compare as the values do, and equal values have equal keys.
	k1 := value.AppendKey(nil, a)
	k2 := value.AppendKey(nil, q)
	fmt.Println(value.Compare(a, q), bytes.Compare(k1, k2))

	_, err := value.Parse("99999", value.Int2Type)
	fmt.Println(err)
	// Output:
	// numeric(10,2) 1.50 0.50000000000000000000 1e+15
	// 1 1
	// value "99999" is out of range for type smallint
}
