package engine

import "github.com/deltaview/deltaview/internal/value"

// rowStore holds a table's rows by row id, in id order (insertion order):
// a slice indexed by id, so that reaching a row by id costs one memory
// access however large the table, where a tree costs a descent. A deleted
// row leaves a hole; compact closes the holes when they outnumber the
// rows.
type rowStore struct {
	rows []value.Row // rows[id]; nil is a hole (id 0 is never used)
	n    int         // rows held
}

func newRowStore() *rowStore { return &rowStore{rows: make([]value.Row, 1)} }

// Get returns the row with id.
func (s *rowStore) Get(id uint64) (value.Row, bool) {
	if id >= uint64(len(s.rows)) || s.rows[id] == nil {
		return nil, false
	}
	return s.rows[id], true
}

// Set stores row under id.
func (s *rowStore) Set(id uint64, row value.Row) {
	if row == nil {
		row = value.Row{} // a row of no columns is still a row
	}
	for uint64(len(s.rows)) <= id {
		s.rows = append(s.rows, nil)
	}
	if s.rows[id] == nil {
		s.n++
	}
	s.rows[id] = row
}

// Delete removes the row with id and returns it.
func (s *rowStore) Delete(id uint64) (value.Row, bool) {
	row, ok := s.Get(id)
	if ok {
		s.rows[id] = nil
		s.n--
	}
	return row, ok
}

// Len returns the number of rows held.
func (s *rowStore) Len() int { return s.n }

// Scan calls fn for each row in id order until fn returns false.
func (s *rowStore) Scan(fn func(id uint64, row value.Row) bool) {
	for id, r := range s.rows {
		if r != nil && !fn(uint64(id), r) {
			return
		}
	}
}

// grow makes room for n more ids.
func (s *rowStore) grow(n int) {
	if cap(s.rows)-len(s.rows) < n {
		rows := make([]value.Row, len(s.rows), len(s.rows)+n)
		copy(rows, s.rows)
		s.rows = rows
	}
}
