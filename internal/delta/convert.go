package delta

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// ToImplicit converts a net batch (at most one change per key; Coalesce
// makes one) to the implicit model, as the seed's Figure 5.4 gives it:
//
//	ΔR := R_ins ∪ π_{pk,a_new}(R_upd) ∪ R_pup ∪ R_ups
//	∇R := π_{pk,a,comp}(R_del) ∪ π_{pk,a_old,comp}(R_upd) ∪ π_{pk,NULL,pval}(R_pup)
//	      ∪ π_{pk,NULL,ptype}(R_ups) ∪ π_{pk,NULL,pval}(R_tpdel) ∪ π_{pk,NULL,ptype}(R_spdel)
//
// A partial update's unknown columns stay unknown in its ΔR tuple. The
// result is sorted by key. A change that is not well formed, or a key
// changed twice, is an error (22023).
func ToImplicit(s *Schema, b Batch) (*Implicit, error) {
	d := &Implicit{}
	if err := AppendImplicit(d, s, b); err != nil {
		return nil, err
	}
	return d, nil
}

// AppendImplicit is ToImplicit into d, whose sets it empties first and
// reuses; the rows it makes (a partial change's padded old row) live
// until d is next reused.
func AppendImplicit(d *Implicit, s *Schema, b Batch) error {
	clear(d.Ins)
	clear(d.Del)
	clear(d.pads)
	d.Schema, d.Ins, d.Del, d.pads = s, d.Ins[:0], d.Del[:0], d.pads[:0]
	if cap(d.pads) > 1<<12 {
		d.pads = nil // a bulk step's
	}
	// The padded rows of the partial kinds are written in d's buffer:
	// they live until d is reused.
	n := len(s.Columns)
	pad := func(k value.Row, f Flag) {
		if len(d.pads)+n > cap(d.pads) {
			d.pads = make([]value.Value, 0, max(2*cap(d.pads), 8*n))
		}
		r := d.pads[len(d.pads) : len(d.pads)+n : len(d.pads)+n]
		d.pads = d.pads[:len(d.pads)+n]
		for i, col := range s.Key {
			r[col] = k[i]
		}
		d.Del = append(d.Del, DelTuple{Row: r, Unknown: s.NonKey(), Flag: f})
	}
	// A batch strictly ordered by key (as Coalesce returns it) has no key
	// twice and gives sorted sets; another one is checked by a map.
	ordered := true
	for i := 1; i < len(b) && ordered; i++ {
		ordered = value.CompareRows(b[i-1].Key(s), b[i].Key(s)) < 0
	}
	var seen map[string]bool
	if !ordered {
		seen = map[string]bool{}
	}
	for _, c := range b {
		if err := s.Validate(c); err != nil {
			return err
		}
		if !ordered {
			k := encodeKey(c.Key(s))
			if seen[k] {
				return pgerr.New(pgerr.InvalidParameter, "deltaview: %s key %s changes twice in a net batch; coalesce it first", s.Name, c.Key(s))
			}
			seen[k] = true
		}
		switch c := c.(type) {
		case Insert:
			d.Ins = append(d.Ins, Tuple{Row: c.Row})
		case Update:
			d.Ins = append(d.Ins, Tuple{Row: c.New})
			d.Del = append(d.Del, DelTuple{Row: c.Old, Flag: Comp})
		case PartialUpdate:
			d.Ins = append(d.Ins, Tuple{Row: c.Row, Unknown: c.Unknown})
			pad(s.KeyOf(c.Row), PVal)
		case Upsert:
			d.Ins = append(d.Ins, Tuple{Row: c.Row})
			pad(s.KeyOf(c.Row), PType)
		case Delete:
			d.Del = append(d.Del, DelTuple{Row: c.Row, Flag: Comp})
		case TruePartialDelete:
			pad(c.KeyVals, PVal)
		case SafePartialDelete:
			pad(c.KeyVals, PType)
		}
	}
	if !ordered {
		d.Sort()
	}
	return nil
}

// ToExplicit converts an implicit delta back to the explicit model, as
// the seed's Figure 5.6 gives it (⋉ semi-join, ▷ anti-join on pk):
//
//	R_ins   := ΔR ▷ ∇R
//	R_del   := σ_comp(∇R) ▷ ΔR
//	R_upd   := ΔR ⋈ σ_comp(∇R)
//	R_pup   := ΔR ⋉ σ_pval(∇R)
//	R_ups   := ΔR ⋉ σ_ptype(∇R)
//	R_tpdel := π_pk(σ_pval(∇R) ▷ ΔR)
//	R_spdel := π_pk(σ_ptype(∇R) ▷ ΔR)
//
// An update's new row takes its unknown columns from the old row (they
// kept their value). A pval tuple's known old values, which the explicit
// model has no place for, are dropped. The result is sorted by key; d
// must be well formed (Validate), which ToExplicit checks.
func ToExplicit(d *Implicit) (Batch, error) {
	out, _, err := AppendExplicit(nil, nil, d, nil)
	return out, err
}

// AppendExplicit appends ToExplicit(d) to dst; facts is scratch space,
// returned for reuse. keep, when not nil, is applied to every new row a
// keyed relation would keep as it is (a complete new row: MERGE copies a
// row with unknown columns); the caller copies rows that live only for
// the step.
func AppendExplicit(dst Batch, facts []Fact, d *Implicit, keep func(value.Row) value.Row) (Batch, []Fact, error) {
	if err := d.Validate(); err != nil {
		return dst, facts, err
	}
	facts = d.AppendFacts(facts[:0])
	if dst == nil {
		dst = make(Batch, 0, len(facts))
	}
	return AppendChanges(dst, facts, keep), facts, nil
}

// AppendChanges appends the change that states each fact (of a
// well-formed implicit delta, as AppendFacts gives them) to dst: the
// conversion of AppendExplicit. keep is as there.
func AppendChanges(dst Batch, facts []Fact, keep func(value.Row) value.Row) Batch {
	for _, f := range facts {
		f.Fill()
		if keep != nil && f.After && f.NewUnknown.Empty() {
			f.New = keep(f.New)
		}
		var c Change
		switch f.Kind() {
		case KindInsert:
			c = Insert{Row: f.New}
		case KindUpsert:
			c = Upsert{Row: f.New}
		case KindSafePartialDelete:
			c = SafePartialDelete{KeyVals: f.Key}
		case KindUpdate:
			c = Update{Old: f.Old, New: f.New}
		case KindDelete:
			c = Delete{Row: f.Old}
		case KindPartialUpdate:
			c = PartialUpdate{Row: f.New, Unknown: f.NewUnknown}
		default:
			c = TruePartialDelete{KeyVals: f.Key}
		}
		dst = append(dst, c)
	}
	return dst
}

// Kind returns the kind of the change ToExplicit states f by (f a fact
// of a well-formed implicit delta, which Fill does not change the kind
// of).
func (f *Fact) Kind() Kind {
	switch {
	case f.Before == Absent:
		return KindInsert
	case f.Before == Maybe && f.After:
		return KindUpsert
	case f.Before == Maybe:
		return KindSafePartialDelete
	case f.OldUnknown.Empty() && f.After:
		return KindUpdate
	case f.OldUnknown.Empty():
		return KindDelete
	case f.After:
		return KindPartialUpdate
	}
	return KindTruePartialDelete
}
