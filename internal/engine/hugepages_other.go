//go:build !linux

package engine

// heapPages does nothing where the system has no transparent huge pages
// to ask for (hugepages_linux.go).
type heapPages struct{}

var hugeHeap heapPages

const hugeBuildRows = 1 << 16

func (h *heapPages) begin() bool  { return false }
func (h *heapPages) grow()        {}
func (h *heapPages) growBy(int64) {}
func (h *heapPages) end()         {}
