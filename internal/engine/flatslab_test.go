package engine

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
)

// rowEnd returns the address just past a laid-out row: its values, and
// in a flat slab their bytes, rounded up to a word.
func rowEnd(r value.Row) uintptr {
	a := uintptr(unsafe.Pointer(&r[0]))
	if w := flatWords(r); w >= 0 {
		return a + uintptr(w)*8
	}
	return a + uintptr(len(r))*unsafe.Sizeof(r[0])
}

// TestFlatRowsHoldTheirBytes checks a layout of rows of every kind of
// value that a flat slab takes (integers, NULL, strings long and empty, a
// bytea, a uuid, a json text, a bit string, an inline numeric) and of rows
// that it does not (a large numeric, an interval, an array): each row
// keeps its values; a flat row's bytes lie in its own block, after its
// values; and the rows, and values copied out of them, stay intact once
// nothing but them refers to the slabs and the collector has run and its
// freed memory been used again, which a slab the collector freed while a
// row still referred to it would not survive. The same of rows copied one
// by one as a table keeps them (keptRow), each its own block.
func TestFlatRowsHoldTheirBytes(t *testing.T) {
	t.Run("layout", func(t *testing.T) { testFlatRows(t, false) })
	t.Run("kept", func(t *testing.T) { testFlatRows(t, true) })
}

func testFlatRows(t *testing.T, kept bool) {
	const n = 20_000
	mk := func(id int) value.Row {
		s := strings.Repeat("x", id%40) + itoa(id)
		r := value.Row{value.NewInt(value.Int8, int64(id)), value.Null, value.NewText(value.Text, s),
			value.NewText(value.Varchar, ""), value.NewBytea([]byte(s)), value.NewJSON(`{"id":` + itoa(id) + `}`),
			value.NewBits(value.Varbit, "1011"), value.NewUUID([16]byte{byte(id), 2, 3})}
		num, err := value.Parse(itoa(id)+".25", value.NumericType)
		if err != nil {
			t.Fatal(err)
		}
		r = append(r, num)
		switch id % 4 {
		case 1:
			big, err := value.Parse("123456789012345678901234567890."+itoa(id), value.NumericType)
			if err != nil {
				t.Fatal(err)
			}
			r = append(r, big)
		case 2:
			r = append(r, value.NewInterval(value.Span{Days: int32(id)}))
		case 3:
			r = append(r, value.NewArray(value.ArrayOf(value.Text), []value.Value{value.NewText(value.Text, s)}))
		}
		return r
	}
	s := newRowStore()
	want := make([]string, n+1)
	for id := 1; id <= n; id++ {
		if kept {
			s.Set(uint64(id), keptRow(mk(id)))
		} else {
			s.Set(uint64(id), mk(id))
		}
		want[id] = failingRow(mk(id))
	}
	if !kept {
		s.layoutAll()
	}
	flat := 0
	var out []value.Value // values copied out of the rows, whose bytes the slabs hold
	for id := 1; id <= n; id++ {
		r, _ := s.Get(uint64(id))
		if got := failingRow(r); got != want[id] {
			t.Fatalf("row %d: %s, want %s", id, got, want[id])
		}
		if w := flatWords(r); w >= 0 {
			flat++
			lo, hi := uintptr(unsafe.Pointer(&r[len(r)-1]))+unsafe.Sizeof(r[0]), rowEnd(r)
			for _, v := range r {
				if b := v.Str(); len(b) > 0 {
					if p := uintptr(unsafe.Pointer(unsafe.StringData(b))); p < lo || p+uintptr(len(b)) > hi {
						t.Fatalf("row %d: the bytes of %v lie outside its block", id, v)
					}
				}
			}
			if id%10 == 0 {
				out = append(out, r[2])
			}
		} else if id%4 == 0 {
			t.Fatalf("row %d of flat values was not copied flat", id)
		}
	}
	if flat != n/4 {
		t.Fatalf("%d flat rows, want %d", flat, n/4)
	}
	// Only the store refers to the slabs now; drop half of the flat rows,
	// so that only values copied out refer to some of their bytes.
	for id := 8; id <= n; id += 8 {
		s.Delete(uint64(id))
	}
	for range 3 {
		runtime.GC()
		junk := make([][]byte, 0, 4096)
		for i := range 4096 {
			b := make([]byte, 64+i%200)
			for j := range b {
				b[j] = 0xAA
			}
			junk = append(junk, b)
		}
		runtime.KeepAlive(junk)
	}
	for id := 1; id <= n; id++ {
		r, ok := s.Get(uint64(id))
		if ok == (id%8 == 0) {
			t.Fatalf("after collections, row %d held %v", id, ok)
		}
		if got := failingRow(r); ok && got != want[id] {
			t.Fatalf("after collections, row %d: %s, want %s", id, got, want[id])
		}
	}
	for i, v := range out {
		id := (i + 1) * 20
		if want := strings.Repeat("x", id%40) + itoa(id); v.Str() != want {
			t.Fatalf("a value copied out of row %d reads %q, want %q", id, v.Str(), want)
		}
	}
}

// TestTypedBatchRowsFlat checks that the rows of a transaction's typed
// changes after its first are kept flat (keptRow), their text in their
// own block and not the caller's, and read back intact once the caller's
// strings are garbage and collections have reused their memory; the
// first change's row is cast into a row of its own.
func TestTypedBatchRowsFlat(t *testing.T) {
	e := New()
	s := e.NewSession()
	if err := s.ExecScript(`CREATE TABLE t (id int PRIMARY KEY, note text NOT NULL);
		INSERT INTO t SELECT g, 'x' FROM generate_series(1, 1000) g;`, func(Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
	note := func(id int) string { return strings.Repeat("n", id%30) + itoa(id) }
	if err := s.Begin(); err != nil {
		t.Fatal(err)
	}
	for id := 1; id <= 1000; id++ {
		row := value.Row{value.NewInt(value.Int8, int64(id)), value.NewText(value.Text, note(id))}
		if err := s.Replace("t", row); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		runtime.GC()
		junk := make([][]byte, 0, 4096)
		for i := range 4096 {
			b := make([]byte, 16+i%64)
			for j := range b {
				b[j] = 0xAA
			}
			junk = append(junk, b)
		}
		runtime.KeepAlive(junk)
	}
	tb := e.tables["t"]
	for id := 1; id <= 1000; id++ {
		r, _ := tb.rows.Get(uint64(id))
		if got := r[1].Str(); got != note(id) {
			t.Fatalf("row %d: note %q, want %q", id, got, note(id))
		}
		p := uintptr(unsafe.Pointer(unsafe.StringData(r[1].Str())))
		inside := p >= uintptr(unsafe.Pointer(&r[1]))+unsafe.Sizeof(r[1]) && p < rowEnd(r)
		if inside != (id > 1) {
			t.Fatalf("row %d: its text in its own block: %v", id, inside)
		}
	}
}

// layoutAll copies every row (layout) and returns their ids.
func (s *rowStore) layoutAll() []int32 {
	l := &rowLayout{ids: s.ids(nil, false)}
	l.copyRows(s.rows, runtime.GOMAXPROCS(0))
	s.install(l)
	return l.ids
}
