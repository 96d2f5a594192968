package value

import "testing"

// TestTextStyleFields: each setting reads back as written, whatever the
// others.
func TestTextStyleFields(t *testing.T) {
	for d := -15; d <= 3; d++ {
		st := IntervalISO8601.WithDate(DateGerman, OrderYMD).WithByteaEscape(true).WithFloatDigits(d)
		if st.FloatDigits() != d || st.Interval() != IntervalISO8601 || st.Date() != DateGerman || st.Order() != OrderYMD || !st.ByteaEscape() {
			t.Errorf("extra_float_digits %d: read back %d %v %v %v %v", d, st.FloatDigits(), st.Interval(), st.Date(), st.Order(), st.ByteaEscape())
		}
		if st.FloatRounded() != (d <= 0) {
			t.Errorf("extra_float_digits %d: FloatRounded %v", d, st.FloatRounded())
		}
	}
	if TextDefault.FloatDigits() != 1 {
		t.Errorf("default extra_float_digits %d", TextDefault.FloatDigits())
	}
}

var benchSink []byte

// BenchmarkAppendTextStyle writes floats and dates at the default style,
// the hot path of results and COPY TO.
func BenchmarkAppendTextStyle(b *testing.B) {
	vs := []Value{NewFloat(Float8, 1.0/3), NewFloat(Float4, 0.1), NewDate(19000), NewFloat(Float8, 123456.789)}
	buf := make([]byte, 0, 64)
	for i := 0; i < b.N; i++ {
		for _, v := range vs {
			buf = AppendTextZone(buf[:0], v, TextDefault, UTC)
		}
	}
	benchSink = buf
}
