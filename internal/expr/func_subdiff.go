package expr

import (
	"github.com/deltaview/deltaview/internal/value"
)

// The range types' subtype-difference functions, which take their
// subtypes' values: the
// difference a - b as double precision, computed as PostgreSQL computes
// it from the values' representations (days of a date, microseconds of a
// timestamp, so that the infinities give its huge results too); and
// int8_sum(numeric, bigint), sum(bigint)'s step: a + b, either NULL being
// the other.
func init() {
	F8 := value.Float8Type
	diff := func(scale float64) func(a []value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			return value.NewFloat(value.Float8, (float64(a[0].Int())-float64(a[1].Int()))/scale), nil
		}
	}
	strict("int4range_subdiff", kinds(value.Int4, value.Int4), F8, diff(1))
	strict("int8range_subdiff", kinds(value.Int8, value.Int8), F8, diff(1))
	strict("daterange_subdiff", kinds(value.Date, value.Date), F8, diff(1))
	strict("tsrange_subdiff", kinds(value.Timestamp, value.Timestamp), F8, diff(1e6))
	strict("tstzrange_subdiff", kinds(value.TimestampTZ, value.TimestampTZ), F8, diff(1e6))
	strict("numrange_subdiff", kinds(value.Numeric, value.Numeric), F8, func(a []value.Value) (value.Value, error) {
		d, err := value.Sub(a[0], a[1])
		if err != nil {
			return value.Null, err
		}
		return value.Cast(d, F8, false)
	})
	register(&FuncDef{Name: "int8_sum", Params: kinds(value.Numeric, value.Int8), Result: value.NumericType,
		Eval: func(a []value.Value) (value.Value, error) {
			if a[1].IsNull() {
				return a[0], nil
			}
			b, err := value.Cast(a[1], value.NumericType, false)
			if err != nil || a[0].IsNull() {
				return b, err
			}
			return value.Add(a[0], b)
		}})
}
