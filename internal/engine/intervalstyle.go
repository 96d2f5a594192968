package engine

import "github.com/deltaview/deltaview/internal/value"

// IntervalStyle is the session's IntervalStyle setting, in which its
// clients print intervals and its statements cast them to text.
func (s *Session) IntervalStyle() value.IntervalStyle {
	v, _ := s.setting("intervalstyle")
	st, _ := value.ParseIntervalStyle(v)
	return st
}
