package delta

import (
	"math/bits"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Schema describes a keyed relation: its name, column names and the
// positions of its primary key columns, in key order. A Schema is
// immutable once built.
type Schema struct {
	Name    string
	Columns []string
	Key     []int
	// nonKey is NonKey, made once by NewSchema (nil in a schema built
	// otherwise, or without non-key columns).
	nonKey Cols
}

// NewSchema checks and returns a schema: at least one key column, key
// positions in range and distinct.
func NewSchema(name string, columns []string, key []int) (*Schema, error) {
	if len(key) == 0 {
		return nil, pgerr.New(pgerr.InvalidTableDef, "relation %s has no primary key", name)
	}
	seen := map[int]bool{}
	for _, k := range key {
		if k < 0 || k >= len(columns) {
			return nil, pgerr.New(pgerr.InvalidTableDef, "relation %s: key column #%d out of range", name, k)
		}
		if seen[k] {
			return nil, pgerr.New(pgerr.InvalidTableDef, "relation %s: key column %s listed twice", name, columns[k])
		}
		seen[k] = true
	}
	s := &Schema{Name: name, Columns: columns, Key: key}
	s.nonKey = s.NonKey()
	return s, nil
}

// Arity is the number of columns.
func (s *Schema) Arity() int { return len(s.Columns) }

// IsKey reports whether column i is a key column.
func (s *Schema) IsKey(i int) bool {
	for _, k := range s.Key {
		if k == i {
			return true
		}
	}
	return false
}

// KeyOf returns the key values of a full-width row, in key order. When
// the key columns are adjacent and in key order (the usual case) it is a
// slice of r, capped so that appending to it copies: rows are immutable,
// and a key is read on every step of every change.
func (s *Schema) KeyOf(r value.Row) value.Row {
	if s.keySlice() {
		k0 := s.Key[0]
		return r[k0 : k0+len(s.Key) : k0+len(s.Key)]
	}
	k := make(value.Row, len(s.Key))
	for i, c := range s.Key {
		k[i] = r[c]
	}
	return k
}

// keySlice reports whether the key columns are adjacent and in key order:
// KeyOf then slices a row, allocating nothing.
func (s *Schema) keySlice() bool {
	k0 := s.Key[0]
	for i, c := range s.Key {
		if c != k0+i {
			return false
		}
	}
	return true
}

// CompareKeys compares the keys of two full-width rows, as CompareRows
// of their KeyOf, without slicing them.
func (s *Schema) CompareKeys(a, b value.Row) int {
	if len(s.Key) == 1 {
		k := s.Key[0]
		return value.Compare(a[k], b[k])
	}
	for _, k := range s.Key {
		if c := value.Compare(a[k], b[k]); c != 0 {
			return c
		}
	}
	return 0
}

// Pad returns a full-width row holding key (in key order) in the key
// columns and NULL elsewhere, with every non-key column in the unknown set.
func (s *Schema) Pad(key value.Row) (value.Row, Cols) {
	r := make(value.Row, len(s.Columns))
	for i, c := range s.Key {
		r[c] = key[i]
	}
	return r, s.NonKey()
}

// NonKey returns the set of non-key columns (shared: a Cols is
// immutable).
func (s *Schema) NonKey() Cols {
	if s.nonKey != nil {
		return s.nonKey
	}
	var u Cols
	for i := range s.Columns {
		if !s.IsKey(i) {
			u = u.With(i)
		}
	}
	return u
}

// encodeKey returns a map key for a key (in key order).
func encodeKey(key value.Row) string {
	return string(value.AppendRowKey(nil, key))
}

// Cols is a set of column positions; the zero Cols is empty. A Cols is
// immutable: With returns a new set and never changes the receiver's
// memory.
type Cols []uint64

// Has reports whether i is in the set.
func (c Cols) Has(i int) bool {
	w := i / 64
	return w < len(c) && c[w]&(1<<(i%64)) != 0
}

// With returns the set with i added.
func (c Cols) With(i int) Cols {
	w := i / 64
	n := make(Cols, max(len(c), w+1))
	copy(n, c)
	n[w] |= 1 << (i % 64)
	return n
}

// Without returns the set with i removed.
func (c Cols) Without(i int) Cols {
	if !c.Has(i) {
		return c
	}
	n := make(Cols, len(c))
	copy(n, c)
	n[i/64] &^= 1 << (i % 64)
	return n.trim()
}

func (c Cols) trim() Cols {
	for len(c) > 0 && c[len(c)-1] == 0 {
		c = c[:len(c)-1]
	}
	if len(c) == 0 {
		return nil
	}
	return c
}

// Empty reports whether the set has no element.
func (c Cols) Empty() bool {
	for _, w := range c {
		if w != 0 {
			return false
		}
	}
	return true
}

// Len is the number of elements.
func (c Cols) Len() int {
	n := 0
	for _, w := range c {
		n += bits.OnesCount64(w)
	}
	return n
}

// Slice lists the elements in increasing order.
func (c Cols) Slice() []int {
	var out []int
	for w, x := range c {
		for x != 0 {
			b := bits.TrailingZeros64(x)
			out = append(out, w*64+b)
			x &^= 1 << b
		}
	}
	return out
}

// Equal reports whether two sets have the same elements.
func (c Cols) Equal(d Cols) bool {
	for i := 0; i < max(len(c), len(d)); i++ {
		var a, b uint64
		if i < len(c) {
			a = c[i]
		}
		if i < len(d) {
			b = d[i]
		}
		if a != b {
			return false
		}
	}
	return true
}

// ColsOf returns the set of the given positions.
func ColsOf(is ...int) Cols {
	var c Cols
	for _, i := range is {
		c = c.With(i)
	}
	return c
}

func (c Cols) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, x := range c.Slice() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte('}')
	return b.String()
}

// formatRow prints a row as "(a, b, -)", with unknown columns as "-".
func formatRow(r value.Row, unknown Cols) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, v := range r {
		if i > 0 {
			b.WriteString(", ")
		}
		if unknown.Has(i) {
			b.WriteByte('-')
		} else {
			b.WriteString(v.String())
		}
	}
	b.WriteByte(')')
	return b.String()
}
