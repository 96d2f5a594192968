package zset

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/deltaview/deltaview/internal/value"
	"pgregory.net/rapid"
)

func row(vs ...any) value.Row {
	r := make(value.Row, len(vs))
	for i, v := range vs {
		switch v := v.(type) {
		case nil:
			r[i] = value.Null
		case int:
			r[i] = value.NewInt(value.Int8, int64(v))
		case string:
			r[i] = value.NewText(value.Text, v)
		case bool:
			r[i] = value.NewBool(v)
		default:
			panic(v)
		}
	}
	return r
}

func TestConsolidate(t *testing.T) {
	z := ZSet{
		{row(2, "b"), 1},
		{row(1, "a"), 1},
		{row(2, "b"), -1},
		{row(1, "a"), 2},
		{row(nil, "x"), -1},
		{row(3, "c"), 0},
	}
	got := Consolidate(z)
	want := "+3 (1, 'a')\n-1 (NULL, 'x')\n"
	if s := got.String(); s != want {
		t.Fatalf("got\n%swant\n%s", s, want)
	}
	if !IsConsolidated(got) {
		t.Fatal("not consolidated")
	}
	if &got[0] != &z[0] {
		t.Fatal("Consolidate did not work in place")
	}
}

func TestConsolidateNoAlloc(t *testing.T) {
	src := ZSet{{row(3), 1}, {row(1), 1}, {row(2), -1}, {row(1), -1}}
	buf := make(ZSet, len(src))
	allocs := testing.AllocsPerRun(100, func() {
		copy(buf, src)
		Consolidate(buf)
	})
	if allocs != 0 {
		t.Fatalf("Consolidate allocated %v times", allocs)
	}
}

func TestStringQuoting(t *testing.T) {
	z := ZSet{{row("it's", true, -4), -2}}
	if got, want := z.String(), "-2 ('it''s', t, -4)\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := ZSet(nil).String(); got != "" {
		t.Fatalf("empty Z-set printed %q", got)
	}
}

func TestAddNegate(t *testing.T) {
	a := Consolidate(ZSet{{row(1), 1}, {row(2), 2}})
	b := Consolidate(ZSet{{row(2), -2}, {row(3), 1}})
	if got, want := Add(a, b).String(), "+1 (1)\n+1 (3)\n"; got != want {
		t.Fatalf("got\n%swant\n%s", got, want)
	}
	if got := Add(a, a.Negate()); len(got) != 0 {
		t.Fatalf("a + -a = %v", got)
	}
}

// genRow draws a small row so that equal rows are frequent.
func genRow(t *rapid.T, label string) value.Row {
	n := rapid.IntRange(0, 4).Draw(t, label+".a")
	var a value.Value
	if n == 4 {
		a = value.Null
	} else {
		a = value.NewInt(value.Int8, int64(n))
	}
	s := rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, label+".b")
	return value.Row{a, value.NewText(value.Text, s)}
}

func genZSet(t *rapid.T, label string) ZSet {
	n := rapid.IntRange(0, 12).Draw(t, label+".len")
	z := make(ZSet, n)
	for i := range z {
		z[i] = Entry{genRow(t, label), rapid.Int64Range(-3, 3).Draw(t, label+".w")}
	}
	return z
}

// naiveConsolidate groups equal rows pairwise, then sorts: what
// Consolidate must agree with, whatever the batch's length.
func naiveConsolidate(z ZSet) ZSet {
	var out ZSet
	for _, e := range z {
		i := slices.IndexFunc(out, func(o Entry) bool { return CompareRows(o.Row, e.Row) == 0 })
		if i < 0 {
			out = append(out, e)
		} else {
			out[i].W += e.W
		}
	}
	out = slices.DeleteFunc(out, func(e Entry) bool { return e.W == 0 })
	slices.SortFunc(out, compareEntries)
	return out
}

func TestZSetLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw := genZSet(t, "raw")
		if got, want := Consolidate(slices.Clone(raw)), naiveConsolidate(raw); !Equal(got, want) || len(got) != len(want) {
			t.Fatalf("Consolidate(%s) =\n%s\nwant\n%s", raw, got, want)
		}
		a := Consolidate(genZSet(t, "a"))
		b := Consolidate(genZSet(t, "b"))
		c := Consolidate(genZSet(t, "c"))
		if !IsConsolidated(a) {
			t.Fatalf("not consolidated:\n%s", a)
		}
		if again := Consolidate(slices.Clone(a)); !Equal(again, a) {
			t.Fatalf("consolidation not idempotent:\n%s\nvs\n%s", again, a)
		}
		if !Equal(Add(a, b), Add(b, a)) {
			t.Fatalf("Add not commutative")
		}
		if !Equal(Add(Add(a, b), c), Add(a, Add(b, c))) {
			t.Fatalf("Add not associative")
		}
		if s := Add(a, a.Negate()); len(s) != 0 {
			t.Fatalf("a + -a = \n%s", s)
		}
		sum := Add(a, b)
		if !IsConsolidated(sum) {
			t.Fatalf("sum not consolidated:\n%s", sum)
		}
		// Add agrees with consolidating the concatenation.
		if cat := Consolidate(append(slices.Clone(a), b...)); !Equal(cat, sum) {
			t.Fatalf("Add(a, b) =\n%s\nconsolidate(a ++ b) =\n%s", sum, cat)
		}
	})
}

// TestConsolidateByPrefix: batches long enough to be consolidated by the
// prefixes of their first values, of every kind whose prefix says
// something (and some whose does not), with shared string prefixes, NULLs,
// mixed kinds, empty rows, ties decided by later columns and weights that
// cancel, consolidate as comparing whole rows does.
func TestConsolidateByPrefix(t *testing.T) {
	first := func(t *rapid.T, l string) value.Value {
		switch rapid.IntRange(0, 6).Draw(t, l+".kind") {
		case 0:
			return value.Null
		case 1:
			return value.NewInt(value.Int8, rapid.Int64Range(-3, 3).Draw(t, l+".i")*(1<<62))
		case 2:
			return value.NewInt(value.Int4, rapid.Int64Range(-5, 5).Draw(t, l+".i"))
		case 3:
			return value.NewText(value.Text, rapid.SampledFrom([]string{"", "a", "ab", "ab\x00", "abcdefgh", "abcdefghi", "abcdefgh\x00", "\xff\xff"}).Draw(t, l+".s"))
		case 4:
			return value.NewText(value.Varchar, rapid.SampledFrom([]string{"", "z", "abcdefghz"}).Draw(t, l+".s"))
		case 5:
			return value.NewFloat(value.Float8, rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, math.NaN(), math.Inf(-1)}).Draw(t, l+".f"))
		}
		return value.NewBool(rapid.Bool().Draw(t, l+".b"))
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(prefixSortMin, 3*prefixSortMin).Draw(t, "len")
		z := make(ZSet, n)
		for i := range z {
			l := fmt.Sprint("row", i)
			var r value.Row
			if rapid.IntRange(0, 20).Draw(t, l+".empty") > 0 {
				r = value.Row{first(t, l), value.NewInt(value.Int4, rapid.Int64Range(0, 2).Draw(t, l+".tie"))}
			}
			z[i] = Entry{r, rapid.Int64Range(-1, 1).Draw(t, l+".w")}
		}
		want := slices.Clone(z)
		slices.SortFunc(want, compareEntries)
		want = merge(want, nil)
		var got ZSet
		if rapid.Bool().Draw(t, "prefixed") {
			// The prefixes taken beforehand, as a table's batch has them.
			pre := make([]RowPrefix, len(z))
			for i, e := range z {
				pre[i] = PrefixOf(e.Row)
			}
			got = ConsolidatePrefixed(z, pre)
		} else {
			got = consolidateByPrefix(z, nil)
		}
		if len(got) != len(want) {
			t.Fatalf("%d entries, want %d", len(got), len(want))
		}
		for i := range got {
			if CompareRows(got[i].Row, want[i].Row) != 0 || got[i].W != want[i].W {
				t.Fatalf("entry %d: %v, want %v", i, got[i], want[i])
			}
		}
	})
}

// TestConsolidateByRadix: batches whose first values are all of one kind
// (integers of every magnitude and sign, strings sharing long prefixes),
// which Consolidate sorts by radix on the prefix, with ties decided by
// later columns and weights that cancel, consolidate as comparing whole
// rows does.
func TestConsolidateByRadix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(prefixSortMin, 4*prefixSortMin).Draw(t, "len")
		text := rapid.Bool().Draw(t, "text")
		z := make(ZSet, n)
		for i := range z {
			l := fmt.Sprint("row", i)
			var first value.Value
			if text {
				first = value.NewText(value.Text, rapid.SampledFrom([]string{"", "a", "abcdefgh", "abcdefgh1", "abcdefgh2", "b"}).Draw(t, l+".s"))
			} else {
				shift := rapid.IntRange(0, 62).Draw(t, l+".shift")
				first = value.NewInt(value.Int8, rapid.Int64Range(-3, 3).Draw(t, l+".i")<<shift)
			}
			r := value.Row{first, value.NewInt(value.Int4, rapid.Int64Range(0, 2).Draw(t, l+".tie")),
				value.NewText(value.Text, rapid.SampledFrom([]string{"x", "y"}).Draw(t, l+".third"))}
			z[i] = Entry{r, rapid.Int64Range(-1, 1).Draw(t, l+".w")}
		}
		want := slices.Clone(z)
		slices.SortFunc(want, compareEntries)
		want = merge(want, nil)
		got := Consolidate(z)
		if len(got) != len(want) {
			t.Fatalf("%d entries, want %d", len(got), len(want))
		}
		for i := range got {
			if CompareRows(got[i].Row, want[i].Row) != 0 || got[i].W != want[i].W {
				t.Fatalf("entry %d: %v, want %v", i, got[i], want[i])
			}
		}
	})
}

// TestConsolidateOn: a batch consolidated in two halves at once gives
// Consolidate's result entry for entry (the same rows, in the same order,
// with the same weights), leaves no row referenced past it, and falls
// back to Consolidate where the first values are of several kinds.
func TestConsolidateOn(t *testing.T) {
	par := func(fns ...func()) {
		var wg sync.WaitGroup
		for _, fn := range fns[1:] {
			wg.Go(fn)
		}
		fns[0]()
		wg.Wait()
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 6*prefixSortMin).Draw(t, "len")
		mixed := rapid.IntRange(0, 4).Draw(t, "mixed") == 0
		z := make(ZSet, n)
		for i := range z {
			l := fmt.Sprint("row", i)
			// Few distinct firsts: long runs of equal prefixes, which
			// the split must not cut.
			var first value.Value = value.NewInt(value.Int8, rapid.Int64Range(0, 9).Draw(t, l+".i")<<rapid.IntRange(0, 40).Draw(t, l+".shift"))
			if mixed && rapid.Bool().Draw(t, l+".text") {
				first = value.NewText(value.Text, rapid.SampledFrom([]string{"a", "b"}).Draw(t, l+".s"))
			}
			r := value.Row{first, value.NewInt(value.Int4, rapid.Int64Range(0, 2).Draw(t, l+".tie")),
				value.NewText(value.Text, rapid.SampledFrom([]string{"x", "y"}).Draw(t, l+".third"))}
			z[i] = Entry{r, rapid.Int64Range(-1, 1).Draw(t, l+".w")}
		}
		want := Consolidate(slices.Clone(z))
		got := ConsolidateOn(z, nil, par)
		if len(got) != len(want) {
			t.Fatalf("%d entries, want %d", len(got), len(want))
		}
		for i := range got {
			if &got[i].Row[0] != &want[i].Row[0] || got[i].W != want[i].W {
				t.Fatalf("entry %d: %v, want %v", i, got[i], want[i])
			}
		}
		for i, e := range z[len(got):] {
			if e.Row != nil || e.W != 0 {
				t.Fatalf("entry %d past the result: %v", len(got)+i, e)
			}
		}
	})
}
