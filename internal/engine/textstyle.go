package engine

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/value"
)

// TextStyle is the session's settings that shape values' text, in which
// its clients print values and its statements cast them to text:
// IntervalStyle, DateStyle, bytea_output and extra_float_digits
// (value.TextStyle).
func (s *Session) TextStyle() value.TextStyle {
	v, _ := s.setting("intervalstyle")
	st, _ := value.ParseIntervalStyle(v)
	d, _ := s.setting("datestyle")
	if f, o, ok := value.ParseDateStyle(d); ok {
		st = st.WithDate(f, o)
	}
	if b, _ := s.setting("bytea_output"); b == "escape" {
		st = st.WithByteaEscape(true)
	}
	if f, _ := s.setting("extra_float_digits"); f != "1" {
		if n, err := strconv.Atoi(f); err == nil && n >= -15 && n <= 3 {
			st = st.WithFloatDigits(n)
		}
	}
	return st
}
