package op

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
)

// rowSlab hands out rows cut from slabs of values: one allocation for
// many rows where each row would be an allocation of its own, for the rows
// a cold start makes by the million. A row's capacity ends with it, so
// that appending to it copies. The cost: a slab stays alive while any of
// its rows is referred to, so that a view whose rows are later retracted
// one by one may keep up to a slab (8 KB) per row still held; 8 KB bounds
// that at about a hundred rows of a few columns.
type rowSlab struct {
	free []value.Value
}

// slabValues is how many values a slab holds: 8 KB.
const slabValues = 8192 / int(unsafe.Sizeof(value.Value{}))

// row returns a new row of n NULLs.
func (s *rowSlab) row(n int) value.Row {
	if n == 0 {
		return value.Row{}
	}
	if n > len(s.free) {
		if n > slabValues/4 {
			return make(value.Row, n) // a wide row alone
		}
		s.free = make([]value.Value, slabValues)
	}
	r := s.free[:n:n]
	s.free = s.free[n:]
	return value.Row(r)
}
