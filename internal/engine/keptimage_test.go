package engine

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestKeptImageSlotsCleared checks that an image's values start as NULL
// even where the last, narrower row left its bytes: castImage stores
// values there through *value.Value, and the write barrier reads the
// pointer word it overwrites, which must be nil or a valid pointer, never
// a text's bytes ("found bad pointer in Go heap").
func TestKeptImageSlotsCleared(t *testing.T) {
	var m keptImage
	m.start(1)
	s := value.NewText(value.Text, strings.Repeat("\xff", 200))
	nb, _ := s.FlatBytes()
	m.put(0, s, nb)
	_ = m.keep()
	m.start(8)
	for i, v := range m.row() {
		if v != (value.Value{}) {
			t.Fatalf("value %d of a new image is %#v, not zero", i, v)
		}
	}
}
