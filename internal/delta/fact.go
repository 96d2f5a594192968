package delta

import (
	"math/bits"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Before is what is known of a key's existence before a change.
type Before uint8

const (
	// Absent: the key did not exist.
	Absent Before = iota
	// Present: the key existed.
	Present
	// Maybe: the key may or may not have existed.
	Maybe
)

func (b Before) String() string {
	switch b {
	case Absent:
		return "absent"
	case Present:
		return "present"
	}
	return "maybe"
}

// Fact is everything a change says about one key: whether the key existed
// before (and, if it did, the old row with the columns whose old value is
// unknown), and whether it exists after (and, if it does, the new row with
// the columns that kept their old value unsent). Each explicit kind and
// each implicit ΔR/∇R pair is one Fact; the generalised delta rules are
// functions from input Facts to output Facts.
//
// Rows are full-width and hold NULL in unknown columns. The invariants:
// Old is set iff Before == Present; New is set iff After; key columns are
// never unknown.
type Fact struct {
	Key        value.Row
	Before     Before
	Old        value.Row
	OldUnknown Cols
	After      bool
	New        value.Row
	NewUnknown Cols
}

// FactOf returns what c says.
func FactOf(s *Schema, c Change) Fact {
	f := Fact{Key: c.Key(s)}
	switch c := c.(type) {
	case Insert:
		f.After, f.New = true, c.Row
	case Update:
		f.Before, f.Old = Present, c.Old
		f.After, f.New = true, c.New
	case PartialUpdate:
		f.Before = Present
		f.Old, f.OldUnknown = s.Pad(f.Key)
		f.After, f.New, f.NewUnknown = true, c.Row, c.Unknown
	case Upsert:
		f.Before = Maybe
		f.After, f.New = true, c.Row
	case Delete:
		f.Before, f.Old = Present, c.Row
	case TruePartialDelete:
		f.Before = Present
		f.Old, f.OldUnknown = s.Pad(f.Key)
	case SafePartialDelete:
		f.Before = Maybe
	}
	return f
}

// Fill replaces the unknown columns of the new row by the old row's
// values where those are known: an unknown new column kept its old value.
// It copies New before changing it.
func (f *Fact) Fill() {
	if !f.After || f.Before != Present || f.NewUnknown.Empty() {
		return
	}
	n := f.New
	copied := false
	for w, x := range f.NewUnknown {
		for x != 0 {
			i := w*64 + bits.TrailingZeros64(x)
			x &= x - 1
			if f.OldUnknown.Has(i) {
				continue
			}
			if !copied {
				n = append(value.Row(nil), n...)
				copied = true
			}
			n[i] = f.Old[i]
		}
	}
	if !copied {
		return // every unknown new column is unknown in the old row too
	}
	// What stays unknown is what neither row knows.
	u := make(Cols, min(len(f.NewUnknown), len(f.OldUnknown)))
	for w := range u {
		u[w] = f.NewUnknown[w] & f.OldUnknown[w]
	}
	f.New, f.NewUnknown = n, u.trim()
}

// Unchanged reports whether the key existed before and after with the same
// row as far as anything says: every column of the new row is unknown
// (kept its value) or equals a known old value.
func (f *Fact) Unchanged() bool {
	if f.Before != Present || !f.After {
		return false
	}
	for i := range f.New {
		if f.NewUnknown.Has(i) {
			continue
		}
		if f.OldUnknown.Has(i) || value.CompareRows(f.Old[i:i+1], f.New[i:i+1]) != 0 {
			return false
		}
	}
	return true
}

// Nothing reports whether the fact states no change: absent before and
// after, or Unchanged.
func (f *Fact) Nothing() bool {
	return f.Before == Absent && !f.After || f.Unchanged()
}

// Net returns the one change that states f, after Fill, or nil when f
// states no change (Nothing). A key that exists after with unknown
// columns but did not exist, or may not have existed, before cannot be
// stated by any of the seven kinds: that is an error (0A000) naming the
// relation and key.
func (f Fact) Net(s *Schema) (Change, error) {
	f.Fill()
	if f.Nothing() {
		return nil, nil
	}
	if f.After && !f.NewUnknown.Empty() && f.Before != Present {
		return nil, errIncomplete(s, f)
	}
	switch f.Before {
	case Absent:
		return Insert{Row: f.New}, nil
	case Present:
		switch {
		case !f.After && f.OldUnknown.Empty():
			return Delete{Row: f.Old}, nil
		case !f.After:
			return TruePartialDelete{KeyVals: f.Key}, nil
		case f.OldUnknown.Empty():
			return Update{Old: f.Old, New: f.New}, nil
		}
		return PartialUpdate{Row: f.New, Unknown: f.NewUnknown}, nil
	}
	if f.After {
		return Upsert{Row: f.New}, nil
	}
	return SafePartialDelete{KeyVals: f.Key}, nil
}

// errIncomplete reports a key that appears with unknown columns.
func errIncomplete(s *Schema, f Fact) error {
	e := pgerr.New(pgerr.FeatureNotSupported,
		"deltaview: %s key %s: the row may be new but columns %s of it are unknown", s.Name, f.Key, colNames(s, f.NewUnknown))
	e.Hint = "complete the change from a keyed copy of the relation (normalisation)"
	return e
}

func colNames(s *Schema, c Cols) string {
	out := ""
	for i, x := range c.Slice() {
		if i > 0 {
			out += ", "
		}
		out += s.Columns[x]
	}
	return out
}

// Then composes f with g, a later fact about the same key: the result
// states what f then g state together. It fails (code 22023) when g
// contradicts f: g needs the key absent (an insertion) while f left it,
// g needs it present while f removed it, or g's old row differs from f's
// new row in a column both know.
func (f Fact) Then(s *Schema, g Fact) (Fact, error) {
	switch g.Before {
	case Absent:
		if f.After {
			return Fact{}, pgerr.New(pgerr.InvalidParameter, "deltaview: %s key %s is inserted but exists already", s.Name, f.Key)
		}
	case Present:
		if !f.After {
			return Fact{}, pgerr.New(pgerr.InvalidParameter, "deltaview: %s key %s is changed or deleted but does not exist", s.Name, f.Key)
		}
		for i := range g.Old {
			if g.OldUnknown.Has(i) || f.NewUnknown.Has(i) {
				continue
			}
			if value.CompareRows(g.Old[i:i+1], f.New[i:i+1]) != 0 {
				return Fact{}, pgerr.New(pgerr.InvalidParameter, "deltaview: %s key %s: the old value of %s is %s, but an earlier change left %s",
					s.Name, f.Key, s.Columns[i], g.Old[i], f.New[i])
			}
		}
	}
	r := f
	r.After, r.New, r.NewUnknown = g.After, g.New, g.NewUnknown
	if g.After && !g.NewUnknown.Empty() && f.After {
		n := append(value.Row(nil), g.New...)
		u := g.NewUnknown
		for _, i := range g.NewUnknown.Slice() {
			if !f.NewUnknown.Has(i) {
				n[i] = f.New[i]
				u = u.Without(i)
			}
		}
		r.New, r.NewUnknown = n, u.trim()
	}
	return r, nil
}
