package delta

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Flag is the type flag of a ∇R tuple.
type Flag uint8

const (
	// Comp: the key existed with this (complete) old row.
	Comp Flag = iota
	// PVal: value-partial; the key existed, its unknown columns' old
	// values are not known.
	PVal
	// PType: type-partial; the key may or may not have existed.
	PType
)

func (f Flag) String() string {
	switch f {
	case Comp:
		return "comp"
	case PVal:
		return "pval"
	}
	return "ptype"
}

// Tuple is a tuple of ΔR: a new row; its Unknown columns kept their old
// values (and hold NULL here).
type Tuple struct {
	Row     value.Row
	Unknown Cols
}

// DelTuple is a tuple of ∇R: an old row with its flag; Unknown columns
// are NULL-padded. A comp tuple has no unknown column, a ptype tuple has
// every non-key column unknown. The seed's pval tuples have every non-key
// column unknown too; operators may produce pval tuples that know some old
// values (a join knows the old values of the dimension's columns), which
// is the same statement with more information.
type DelTuple struct {
	Row     value.Row
	Unknown Cols
	Flag    Flag
}

// Implicit is a relation's change in the implicit model: the insert set
// ΔR and the delete set ∇R. It is well formed (Validate) when each key
// occurs at most once in each set and every tuple is as its flag says.
// Ins and Del are kept sorted by key.
type Implicit struct {
	Schema *Schema
	Ins    []Tuple
	Del    []DelTuple
	pads   []value.Value // AppendImplicit's padded rows, reused
}

// Empty reports whether both sets are empty.
func (d *Implicit) Empty() bool { return d == nil || len(d.Ins) == 0 && len(d.Del) == 0 }

// Sort orders both sets by key.
func (d *Implicit) Sort() {
	s := d.Schema
	sortByKey(d.Ins, func(a, b Tuple) int { return s.CompareKeys(a.Row, b.Row) })
	sortByKey(d.Del, func(a, b DelTuple) int { return s.CompareKeys(a.Row, b.Row) })
}

// sortByKey sorts x, whose keys are distinct. Operators often produce
// their tuples in order or in reverse order (a list walked from its most
// recent entry): one pass finds out, and a reversal is enough.
func sortByKey[T any](x []T, cmp func(a, b T) int) {
	if len(x) < 2 {
		return
	}
	asc, desc := true, true
	for i := 1; i < len(x) && (asc || desc); i++ {
		c := cmp(x[i-1], x[i])
		asc = asc && c < 0
		desc = desc && c > 0
	}
	switch {
	case asc:
	case desc:
		slices.Reverse(x)
	default:
		slices.SortFunc(x, cmp)
	}
}

// Validate checks that d is well formed. Errors have code 22023.
func (d *Implicit) Validate() error {
	s := d.Schema
	bad := func(format string, args ...any) error {
		return pgerr.New(pgerr.InvalidParameter, "deltaview: implicit delta of %s: "+format, append([]any{s.Name}, args...)...)
	}
	row := func(r value.Row, u Cols) error {
		if len(r) != len(s.Columns) {
			return bad("a row has %d columns, not %d", len(r), len(s.Columns))
		}
		for _, k := range s.Key {
			if r[k].IsNull() || u.Has(k) {
				return bad("key column %s is NULL or unknown", s.Columns[k])
			}
		}
		for w, x := range u {
			for x != 0 {
				i := w*64 + bits.TrailingZeros64(x)
				x &= x - 1
				if i >= len(r) {
					return bad("unknown column #%d out of range", i)
				}
				if !r[i].IsNull() {
					return bad("unknown column %s is not NULL-padded", s.Columns[i])
				}
			}
		}
		return nil
	}
	for i := range d.Del {
		t := &d.Del[i]
		if err := row(t.Row, t.Unknown); err != nil {
			return err
		}
		switch {
		case t.Flag == Comp && !t.Unknown.Empty():
			return bad("comp tuple of key %s has unknown columns", s.KeyOf(t.Row))
		case t.Flag == PType && !t.Unknown.Equal(s.NonKey()):
			return bad("ptype tuple of key %s carries values", s.KeyOf(t.Row))
		case t.Flag > PType:
			return bad("tuple of key %s has flag %d", s.KeyOf(t.Row), t.Flag)
		}
	}
	for _, t := range d.Ins {
		if err := row(t.Row, t.Unknown); err != nil {
			return err
		}
	}
	// Sorted sets (the usual case) are checked by a merge, others by maps.
	if d.sorted() {
		j := 0
		for _, t := range d.Ins {
			if t.Unknown.Empty() {
				continue
			}
			k := s.KeyOf(t.Row)
			for j < len(d.Del) && value.CompareRows(s.KeyOf(d.Del[j].Row), k) < 0 {
				j++
			}
			if j == len(d.Del) || value.CompareRows(s.KeyOf(d.Del[j].Row), k) != 0 || d.Del[j].Flag == PType {
				return bad("new row of key %s has unknown columns but the key may not have existed", k)
			}
		}
		return nil
	}
	dels := map[string]*DelTuple{}
	for i := range d.Del {
		t := &d.Del[i]
		k := s.KeyOf(t.Row)
		e := encodeKey(k)
		if dels[e] != nil {
			return bad("key %s occurs twice in ∇%s", k, s.Name)
		}
		dels[e] = t
	}
	ins := map[string]bool{}
	for _, t := range d.Ins {
		k := s.KeyOf(t.Row)
		e := encodeKey(k)
		if ins[e] {
			return bad("key %s occurs twice in Δ%s", k, s.Name)
		}
		ins[e] = true
		if !t.Unknown.Empty() {
			if dt := dels[e]; dt == nil || dt.Flag == PType {
				return bad("new row of key %s has unknown columns but the key may not have existed", k)
			}
		}
	}
	return nil
}

// sorted reports whether both sets are strictly ordered by key: sorted,
// and without a key twice.
func (d *Implicit) sorted() bool {
	s := d.Schema
	for i := 1; i < len(d.Del); i++ {
		if s.CompareKeys(d.Del[i-1].Row, d.Del[i].Row) >= 0 {
			return false
		}
	}
	for i := 1; i < len(d.Ins); i++ {
		if s.CompareKeys(d.Ins[i-1].Row, d.Ins[i].Row) >= 0 {
			return false
		}
	}
	return true
}

// Facts pairs ΔR and ∇R by key (the semi- and anti-joins of Figure 5.6)
// and returns one Fact per key, sorted by key. d must be well formed.
func (d *Implicit) Facts() []Fact { return d.AppendFacts(nil) }

// AppendFacts appends Facts to dst and returns it: a merge of the two
// sorted sets, which allocates nothing when dst has room.
func (d *Implicit) AppendFacts(dst []Fact) []Fact {
	s := d.Schema
	if !d.sorted() {
		return append(dst, d.factsByMap()...)
	}
	del := func(f *Fact, t *DelTuple) {
		f.Old, f.OldUnknown = t.Row, t.Unknown
		f.Before = Present
		if t.Flag == PType {
			f.Before, f.Old, f.OldUnknown = Maybe, nil, nil
		}
	}
	i, j := 0, 0
	for i < len(d.Del) || j < len(d.Ins) {
		c := 0
		switch {
		case i == len(d.Del):
			c = 1
		case j == len(d.Ins):
			c = -1
		default:
			c = s.CompareKeys(d.Del[i].Row, d.Ins[j].Row)
		}
		var f Fact
		if c <= 0 {
			f.Key = s.KeyOf(d.Del[i].Row)
			del(&f, &d.Del[i])
			i++
		}
		if c >= 0 {
			t := &d.Ins[j]
			f.Key = s.KeyOf(t.Row)
			f.After, f.New, f.NewUnknown = true, t.Row, t.Unknown
			j++
		}
		dst = append(dst, f)
	}
	return dst
}

// factsByMap is Facts for sets that are not sorted.
func (d *Implicit) factsByMap() []Fact {
	s := d.Schema
	byKey := map[string]int{}
	var out []Fact
	get := func(k value.Row) *Fact {
		e := encodeKey(k)
		i, ok := byKey[e]
		if !ok {
			i = len(out)
			byKey[e] = i
			out = append(out, Fact{Key: k})
		}
		return &out[i]
	}
	for _, t := range d.Del {
		f := get(s.KeyOf(t.Row))
		f.Old, f.OldUnknown = t.Row, t.Unknown
		f.Before = Present
		if t.Flag == PType {
			f.Before, f.Old, f.OldUnknown = Maybe, nil, nil
		}
	}
	for _, t := range d.Ins {
		f := get(s.KeyOf(t.Row))
		f.After, f.New, f.NewUnknown = true, t.Row, t.Unknown
	}
	slices.SortFunc(out, func(a, b Fact) int { return value.CompareRows(a.Key, b.Key) })
	return out
}

// Add appends the tuples that state f (after Fill) to d: nothing when f
// states no change, a ΔR tuple when the key exists after, a ∇R tuple when
// it existed (comp, or pval when some old value is unknown) or may have
// (ptype). It fails like Fact.Net when f cannot be stated. d is left
// unsorted; call Sort when done.
func (d *Implicit) Add(f Fact) error {
	s := d.Schema
	f.Fill()
	if f.Nothing() {
		return nil
	}
	if f.After && !f.NewUnknown.Empty() && f.Before != Present {
		return errIncomplete(s, f)
	}
	switch f.Before {
	case Present:
		flag := Comp
		if !f.OldUnknown.Empty() {
			flag = PVal
		}
		d.Del = append(d.Del, DelTuple{Row: f.Old, Unknown: f.OldUnknown, Flag: flag})
	case Maybe:
		r, u := s.Pad(f.Key)
		d.Del = append(d.Del, DelTuple{Row: r, Unknown: u, Flag: PType})
	}
	if f.After {
		d.Ins = append(d.Ins, Tuple{Row: f.New, Unknown: f.NewUnknown})
	}
	return nil
}

// String prints ΔR and ∇R as the seed's Figure 5.5 does: a table each,
// unknown values as "-", ∇R with its flag column.
func (d *Implicit) String() string {
	var b strings.Builder
	s := d.Schema
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(&b, "Δ%s\n", s.Name)
	fmt.Fprintln(w, strings.Join(s.Columns, "\t"))
	for _, t := range d.Ins {
		fmt.Fprintln(w, cells(t.Row, t.Unknown))
	}
	w.Flush()
	fmt.Fprintf(&b, "∇%s\n", s.Name)
	w = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, strings.Join(s.Columns, "\t")+"\tflag")
	for _, t := range d.Del {
		fmt.Fprintln(w, cells(t.Row, t.Unknown)+"\t"+t.Flag.String())
	}
	w.Flush()
	return b.String()
}

func cells(r value.Row, u Cols) string {
	parts := make([]string, len(r))
	for i, v := range r {
		if u.Has(i) {
			parts[i] = "-"
		} else {
			parts[i] = v.String()
		}
	}
	return strings.Join(parts, "\t")
}
