package engine

import "github.com/deltaview/deltaview/internal/value"

// IntervalStyle is the session's IntervalStyle setting, in which its
// clients print intervals and its statements cast them to text, with
// its DateStyle and bytea_output, which shape the text of dates and
// bytea the same way (value.IntervalStyle).
func (s *Session) IntervalStyle() value.IntervalStyle {
	v, _ := s.setting("intervalstyle")
	st, _ := value.ParseIntervalStyle(v)
	d, _ := s.setting("datestyle")
	if f, o, ok := value.ParseDateStyle(d); ok {
		st = st.WithDate(f, o)
	}
	if b, _ := s.setting("bytea_output"); b == "escape" {
		st = st.WithByteaEscape(true)
	}
	return st
}
