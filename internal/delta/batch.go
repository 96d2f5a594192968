package delta

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// Batch is the changes to one relation in one transaction, in the order
// they happened. A batch may change a key several times; Coalesce reduces
// it to its net form, at most one change per key, sorted by key.
type Batch []Change

// String prints one change per line (Format).
func (b Batch) String() string {
	var sb strings.Builder
	for _, c := range b {
		sb.WriteString(Format(c))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Count returns how many changes of each kind b holds.
func (b Batch) Count() [NumKinds]int {
	var n [NumKinds]int
	for _, c := range b {
		n[c.Kind()]++
	}
	return n
}

// Coalesce validates every change of b and returns b's net form: one
// change per changed key, the composition of that key's changes in order
// (Fact.Then), sorted by key. Changes that cancel (an insertion then a
// deletion, an update and its reverse) leave nothing. A change that
// contradicts an earlier one of the same batch is an error (22023).
func Coalesce(s *Schema, b Batch) (Batch, error) {
	if len(b) == 1 { // the usual transaction of one event
		if err := s.Validate(b[0]); err != nil {
			return nil, err
		}
		if isNet(s, b[0]) {
			return b, nil
		}
		c, err := FactOf(s, b[0]).Net(s)
		switch {
		case err != nil:
			return nil, err
		case c == nil:
			return Batch{}, nil
		}
		return Batch{c}, nil
	}
	idx := map[string]int{}
	var facts []Fact
	for _, c := range b {
		if err := s.Validate(c); err != nil {
			return nil, err
		}
		f := FactOf(s, c)
		k := encodeKey(f.Key)
		i, ok := idx[k]
		if !ok {
			idx[k] = len(facts)
			facts = append(facts, f)
			continue
		}
		g, err := facts[i].Then(s, f)
		if err != nil {
			return nil, err
		}
		facts[i] = g
	}
	slices.SortFunc(facts, func(a, b Fact) int { return value.CompareRows(a.Key, b.Key) })
	out := make(Batch, 0, len(facts))
	for _, f := range facts {
		c, err := f.Net(s)
		if err != nil {
			return nil, err
		}
		if c != nil {
			out = append(out, c)
		}
	}
	return out, nil
}

// isNet reports whether c alone is its own net form (Fact.Net would
// return it as it is): an insertion, an upsert, a deletion, a safe
// partial deletion, and a partial update that knows a non-key column.
func isNet(s *Schema, c Change) bool {
	switch c := c.(type) {
	case Insert, Upsert, Delete, SafePartialDelete:
		return true
	case PartialUpdate:
		for i := range c.Row {
			if !c.Unknown.Has(i) && !s.IsKey(i) {
				return true
			}
		}
	}
	return false
}

// SortByKey sorts b by key in place (stable, so changes of one key keep
// their order).
func SortByKey(s *Schema, b Batch) {
	slices.SortStableFunc(b, func(x, y Change) int { return value.CompareRows(x.Key(s), y.Key(s)) })
}
