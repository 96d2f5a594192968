package engine

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
)

// flatSlab cuts rows of flat values (value.Value.FlatBytes) from 8 KB
// blocks allocated as words, which the garbage collector does not scan: a
// row's values, then their bytes, the values pointing at those bytes. The
// collector does not see those pointers, and need not: they point into the
// block that holds the values, which stays allocated as long as anything
// refers to any part of it (a row, a value copied out of it, a string made
// from it). A block lives while any of its rows does.
type flatSlab struct {
	buf []uint64
}

// flatSlabWords is a flat slab's size in words: 8 KB, as the slabs of
// values (slabValues).
const flatSlabWords = 8192 / 8

// valueWords is a value's size in words.
const valueWords = int(unsafe.Sizeof(value.Value{}) / 8)

// flatWords returns the words a copy of r takes in a flat slab, its values
// and their bytes, or -1 if one of its values is not flat.
func flatWords(r value.Row) int32 {
	bytes := 0
	for _, v := range r {
		n, ok := v.FlatBytes()
		if !ok {
			return -1
		}
		bytes += n
	}
	return int32(len(r)*valueWords + (bytes+7)/8)
}

// cut returns room for a row of n values in words words (flatWords),
// to be filled by copyFlat.
func (s *flatSlab) cut(n, words int) value.Row {
	if cap(s.buf)-len(s.buf) < words {
		s.buf = make([]uint64, 0, max(flatSlabWords, words))
	}
	j := len(s.buf)
	s.buf = s.buf[:j+words]
	return unsafe.Slice((*value.Value)(unsafe.Pointer(&s.buf[j])), n)
}

// copyFlat copies src, a row of flat values, into dst, cut for it: the
// values' bytes after the values.
func copyFlat(dst, src value.Row) {
	at := uintptr(len(dst)) * unsafe.Sizeof(value.Value{}) // from the row's first value
	for k, v := range src {
		n, _ := v.FlatBytes()
		if n == 0 {
			dst[k] = v.WithBytesAt(nil)
			continue
		}
		b := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), at))
		v.CopyBytes(unsafe.Slice(b, n))
		dst[k] = v.WithBytesAt(b)
		at += uintptr(n)
	}
}

// keptRow returns a copy of r, a row a table will keep, in an allocation
// of its own: when its values are flat, laid out as in a flat slab
// (values, then their bytes) in memory the collector does not scan, so
// that marking a table of such rows touches each row once and no string
// of the caller's (which the copy leaves to be freed); otherwise a plain
// copy. Each row its own allocation, as a row replaced at random keeps
// nothing else alive.
func keptRow(r value.Row) value.Row { return keptRowWords(r, flatWords(r)) }

// keptRowWords is keptRow given r's flatWords.
func keptRowWords(r value.Row, words int32) value.Row {
	if words < 0 {
		return append(make(value.Row, 0, len(r)), r...)
	}
	if len(r) == 0 {
		return value.Row{}
	}
	buf := make([]uint64, words)
	dst := unsafe.Slice((*value.Value)(unsafe.Pointer(&buf[0])), len(r))
	copyFlat(dst, r)
	return dst
}
