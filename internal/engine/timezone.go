package engine

import "github.com/deltaview/deltaview/internal/value"

// TimeZone is the session's TimeZone setting, in which its clients print
// timestamptz values and its statements read, convert and cut them.
func (s *Session) TimeZone() value.Zone {
	v, _ := s.setting("timezone")
	z, _ := value.SessionZone(v)
	return z
}
