package delta_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/value"
)

// The relation the properties run on: T(k int4 PRIMARY KEY, a text, b int4, c int4).
var propSchema, _ = delta.NewSchema("T", []string{"k", "a", "b", "c"}, []int{0})

func genValue(t *rapid.T, col int, label string) value.Value {
	n := rapid.IntRange(-1, 3).Draw(t, label)
	if n < 0 {
		return value.Null
	}
	if col == 1 {
		return value.NewText(value.Text, string(rune('p'+n)))
	}
	return value.NewInt(value.Int4, int64(n))
}

func genRow(t *rapid.T, key int64, label string) value.Row {
	r := value.Row{value.NewInt(value.Int4, key)}
	for i := 1; i < 4; i++ {
		r = append(r, genValue(t, i, fmt.Sprintf("%s%d", label, i)))
	}
	return r
}

func genUnknown(t *rapid.T, r value.Row, label string) (value.Row, delta.Cols) {
	var u delta.Cols
	r = append(value.Row(nil), r...)
	for i := 1; i < 4; i++ {
		if rapid.Bool().Draw(t, fmt.Sprintf("%s%d", label, i)) {
			u = u.With(i)
			r[i] = value.Null
		}
	}
	return r, u
}

func keyOf(k int64) value.Row { return value.Row{value.NewInt(value.Int4, k)} }

// genNetBatch draws a valid net batch: distinct keys, any kind.
func genNetBatch(t *rapid.T) delta.Batch {
	keys := rapid.SliceOfDistinct(rapid.Int64Range(0, 30), func(k int64) int64 { return k }).Draw(t, "keys")
	var b delta.Batch
	for _, k := range keys {
		l := fmt.Sprintf("k%d.", k)
		switch rapid.IntRange(0, 6).Draw(t, l+"kind") {
		case 0:
			b = append(b, delta.Insert{Row: genRow(t, k, l+"new")})
		case 1:
			b = append(b, delta.Update{Old: genRow(t, k, l+"old"), New: genRow(t, k, l+"new")})
		case 2:
			r, u := genUnknown(t, genRow(t, k, l+"new"), l+"unknown")
			b = append(b, delta.PartialUpdate{Row: r, Unknown: u})
		case 3:
			b = append(b, delta.Upsert{Row: genRow(t, k, l+"new")})
		case 4:
			b = append(b, delta.Delete{Row: genRow(t, k, l+"old")})
		case 5:
			b = append(b, delta.TruePartialDelete{KeyVals: keyOf(k)})
		case 6:
			b = append(b, delta.SafePartialDelete{KeyVals: keyOf(k)})
		}
	}
	return b
}

// TestExplicitImplicitExplicit: on valid net batches, ToExplicit ∘
// ToImplicit is the identity (up to order by key).
func TestExplicitImplicitExplicit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genNetBatch(t)
		imp, err := delta.ToImplicit(propSchema, b)
		if err != nil {
			t.Fatal(err)
		}
		if err := imp.Validate(); err != nil {
			t.Fatalf("ToImplicit made an ill-formed delta: %v\n%s", err, imp)
		}
		back, err := delta.ToExplicit(imp)
		if err != nil {
			t.Fatal(err)
		}
		delta.SortByKey(propSchema, b)
		if back.String() != b.String() {
			t.Fatalf("round trip:\n%s\nbecame\n%s", b, back)
		}
	})
}

// TestImplicitExplicitImplicit: on well-formed implicit deltas in the
// seed's form, ToImplicit ∘ ToExplicit is the identity.
func TestImplicitExplicitImplicit(t *testing.T) {
	s := propSchema
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOfDistinct(rapid.Int64Range(0, 30), func(k int64) int64 { return k }).Draw(t, "keys")
		d := &delta.Implicit{Schema: s}
		for _, k := range keys {
			l := fmt.Sprintf("k%d.", k)
			hasIns := rapid.Bool().Draw(t, l+"ins")
			del := rapid.IntRange(-1, 2).Draw(t, l+"del") // -1: none
			if !hasIns && del < 0 {
				continue
			}
			if hasIns {
				r, u := genRow(t, k, l+"new"), delta.Cols(nil)
				if del == int(delta.PVal) {
					r, u = genUnknown(t, r, l+"unknown")
				}
				d.Ins = append(d.Ins, delta.Tuple{Row: r, Unknown: u})
			}
			switch {
			case del == int(delta.Comp):
				d.Del = append(d.Del, delta.DelTuple{Row: genRow(t, k, l+"old"), Flag: delta.Comp})
			case del > 0:
				r, u := s.Pad(keyOf(k))
				d.Del = append(d.Del, delta.DelTuple{Row: r, Unknown: u, Flag: delta.Flag(del)})
			}
		}
		d.Sort()
		if err := d.Validate(); err != nil {
			t.Fatalf("generated an ill-formed delta: %v", err)
		}
		b, err := delta.ToExplicit(d)
		if err != nil {
			t.Fatal(err)
		}
		again, err := delta.ToImplicit(s, b)
		if err != nil {
			t.Fatal(err)
		}
		if again.String() != d.String() {
			t.Fatalf("round trip:\n%s\nbecame\n%s", d, again)
		}
	})
}

// TestCoalesceTruthful: a batch of truthful changes, each possibly
// forgetting what its kind allows, has the same effect on a MERGE target
// as its coalesced form, and both reach the true new state.
func TestCoalesceTruthful(t *testing.T) {
	s := propSchema
	rapid.Check(t, func(t *rapid.T) {
		state := map[int64]value.Row{}
		for _, k := range rapid.SliceOfDistinct(rapid.Int64Range(0, 8), func(k int64) int64 { return k }).Draw(t, "old") {
			state[k] = genRow(t, k, fmt.Sprintf("old%d.", k))
		}
		seq, seqTarget, netTarget := delta.Batch(nil), delta.NewTarget(s), delta.NewTarget(s)
		// staged takes each batch whole (Stage, Commit), as a view does.
		staged := delta.NewTarget(s)
		// byFacts takes the net batch's facts (StageFacts), as a
		// partially maintained view does.
		byFacts := delta.NewTarget(s)
		var load delta.Batch
		for _, r := range state {
			load = append(load, delta.Insert{Row: r})
		}
		if err := seqTarget.Apply(load); err != nil {
			t.Fatal(err)
		}
		if err := netTarget.Apply(load); err != nil {
			t.Fatal(err)
		}
		if err := staged.Stage(load, nil); err != nil {
			t.Fatal(err)
		}
		staged.Commit(nil)
		if err := byFacts.Apply(load); err != nil {
			t.Fatal(err)
		}
		n := rapid.IntRange(0, 12).Draw(t, "n")
		for i := 0; i < n; i++ {
			l := fmt.Sprintf("c%d.", i)
			k := rapid.Int64Range(0, 8).Draw(t, l+"key")
			old, exists := state[k]
			weak := rapid.IntRange(0, 2).Draw(t, l+"forget")
			if !exists {
				if rapid.IntRange(0, 3).Draw(t, l+"spurious") == 0 {
					seq = append(seq, delta.SafePartialDelete{KeyVals: keyOf(k)})
					continue
				}
				r := genRow(t, k, l+"new")
				state[k] = r
				seq = append(seq, []delta.Change{delta.Insert{Row: r}, delta.Upsert{Row: r}, delta.Insert{Row: r}}[weak])
				continue
			}
			if rapid.Bool().Draw(t, l+"delete") {
				delete(state, k)
				seq = append(seq, []delta.Change{delta.Delete{Row: old}, delta.TruePartialDelete{KeyVals: keyOf(k)}, delta.SafePartialDelete{KeyVals: keyOf(k)}}[weak])
				continue
			}
			r := genRow(t, k, l+"new")
			state[k] = r
			switch weak {
			case 0:
				seq = append(seq, delta.Update{Old: old, New: r})
			case 1:
				// Forget the old row, and any column that kept its value.
				p, u := append(value.Row(nil), r...), delta.Cols(nil)
				for c := 1; c < 4; c++ {
					if value.Equal(old[c], r[c]) && rapid.Bool().Draw(t, fmt.Sprintf("%sunknown%d", l, c)) {
						p[c], u = value.Null, u.With(c)
					}
				}
				seq = append(seq, delta.PartialUpdate{Row: p, Unknown: u})
			case 2:
				seq = append(seq, delta.Upsert{Row: r})
			}
		}
		net, err := delta.Coalesce(s, seq)
		if err != nil {
			t.Fatalf("coalesce: %v\n%s", err, seq)
		}
		if err := seqTarget.Apply(seq); err != nil {
			t.Fatalf("sequence: %v", err)
		}
		if err := netTarget.Apply(net); err != nil {
			t.Fatalf("net: %v\n%s", err, net)
		}
		if err := staged.Stage(net, nil); err != nil {
			t.Fatalf("net, staged: %v\n%s", err, net)
		}
		staged.Commit(nil)
		d, err := delta.ToImplicit(s, net)
		if err != nil {
			t.Fatalf("implicit: %v\n%s", err, net)
		}
		if err := byFacts.StageFacts(d.Facts(), nil); err != nil {
			t.Fatalf("net, by facts: %v\n%s", err, net)
		}
		byFacts.Commit(nil)
		want := delta.NewTarget(s)
		var fin delta.Batch
		for _, r := range state {
			fin = append(fin, delta.Insert{Row: r})
		}
		if err := want.Apply(fin); err != nil {
			t.Fatal(err)
		}
		if seqTarget.String() != want.String() || netTarget.String() != want.String() || staged.String() != want.String() || byFacts.String() != want.String() {
			t.Fatalf("sequence gives\n%s\nnet gives\n%s\nby facts\n%s\nwant\n%s\nnet batch:\n%s", seqTarget, netTarget, byFacts, want, net)
		}
	})
}
