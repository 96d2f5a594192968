package engine

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
)

// keptImage builds a row a table will keep, in keptRow's layout (its
// values, then their bytes, in words the collector does not scan), in
// scratch memory reused from row to row, so that the kept row is one
// allocation and one copy of the image: a row cast value by value into
// the image is not cast into other scratch first and then copied value by
// value (keptRow), and its allocation need not be cleared, as the copy
// fills it. Only flat values (value.Value.FlatBytes) may be put in it:
// the scratch holds no pointer the collector would see.
type keptImage struct {
	buf []uint64
	n   int // values
	end int // bytes used from the start of buf: the values, then their bytes
	// bytes lists the values that point at their bytes in buf, with
	// where those bytes start.
	bytes []imageBytes
}

type imageBytes struct {
	i, at int32
}

// start begins an image of n values.
func (m *keptImage) start(n int) {
	words := n * valueWords
	if cap(m.buf) < words+4 {
		m.buf = make([]uint64, 0, max(2*words, words+16))
	}
	m.buf = m.buf[:cap(m.buf)]
	// The values' words may hold the last row's bytes: a value stored
	// there through a *value.Value passes the word under its pointer to
	// the write barrier, which must not see garbage (a bad pointer).
	clear(m.buf[:words])
	m.n, m.end = n, words*8
	m.bytes = m.bytes[:0]
}

// row returns the image's values, valid until the next start.
func (m *keptImage) row() value.Row {
	return unsafe.Slice((*value.Value)(unsafe.Pointer(unsafe.SliceData(m.buf))), m.n)
}

// put sets value i to v, a flat value of nb bytes (FlatBytes), copying its
// bytes after the values.
func (m *keptImage) put(i int, v value.Value, nb int) {
	if nb > 0 {
		if m.end+nb > 8*len(m.buf) {
			m.grow(m.end + nb)
		}
		b := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(m.buf)), m.end))
		v.CopyBytes(unsafe.Slice(b, nb))
		v = v.WithBytesAt(b)
		m.bytes = append(m.bytes, imageBytes{i: int32(i), at: int32(m.end)})
		m.end += nb
	} else {
		v = v.WithBytesAt(nil)
	}
	m.row()[i] = v
}

// grow makes room for bytes bytes, moving the image and pointing its
// values with bytes at their new place.
func (m *keptImage) grow(bytes int) {
	buf := make([]uint64, 2*(bytes+7)/8)
	copy(buf, m.buf[:(m.end+7)/8])
	m.buf = buf
	m.rebase(m.row())
}

// rebase points the values of r, an image's values copied to memory of
// their bytes' layout, at their bytes there.
func (m *keptImage) rebase(r value.Row) {
	base := unsafe.Pointer(unsafe.SliceData(r))
	for _, b := range m.bytes {
		r[b.i] = r[b.i].WithBytesAt((*byte)(unsafe.Add(base, b.at)))
	}
}

// keep returns a copy of the image in an allocation of its own, as
// keptRow makes it.
func (m *keptImage) keep() value.Row {
	words := (m.end + 7) / 8
	if r := m.end % 8; r != 0 {
		// The last word's bytes past the row: zero, as keptRow's are.
		m.buf[words-1] &= 1<<(8*r) - 1
	}
	src := m.buf[:words]
	// Made and filled as one (the compiler's make and copy): the
	// allocation is not cleared first.
	buf := make([]uint64, words)
	copy(buf, src)
	r := unsafe.Slice((*value.Value)(unsafe.Pointer(unsafe.SliceData(buf))), m.n)
	m.rebase(r)
	return r
}
