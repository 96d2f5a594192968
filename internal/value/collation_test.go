package value

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/collate"
)

// TestCollatedCompare checks that a collated string orders under its ICU
// collation, ties broken by the bytes, and keys and hashes as its bytes.
func TestCollatedCompare(t *testing.T) {
	en := LookupCollation("en-x-icu")
	if en == nil || LookupCollation("da-x-icu") != nil || LookupCollation("xx") != nil {
		t.Fatal("the supported collations are not as listed")
	}
	words := []string{"b", "A", "a", "Äb", "ab", "B-1", "b 2", "ß", "ss"}
	vals := make([]Value, len(words))
	for i, w := range words {
		vals[i] = NewText(Text, w).Collated(en.ID)
	}
	slices.SortFunc(vals, Compare)
	var got []string
	for _, v := range vals {
		got = append(got, v.Str())
	}
	want := []string{"a", "A", "ab", "Äb", "b", "b 2", "B-1", "ss", "ß"} // PostgreSQL 15, ORDER BY s COLLATE "en-x-icu"
	if !slices.Equal(got, want) {
		t.Fatalf("en-x-icu order %q, want %q", got, want)
	}
	a, b := NewText(Text, "a"), NewText(Text, "a").Collated(en.ID)
	if HashValue(a) != HashValue(b) || Compare(a, b) != 0 || Compare(NewText(Text, "a"), NewText(Text, "B")) <= 0 {
		t.Fatal("a collation changed equality, hashes or the byte order of uncollated text")
	}
	if NewInt(Int4, 1).Collated(en.ID).CollationID() != 0 {
		t.Fatal("an integer took a collation")
	}
}

func BenchmarkCompareCollated(b *testing.B) {
	en := LookupCollation("en-x-icu")
	x, y := NewText(Text, "Müller-Lüdenscheidt").Collated(en.ID), NewText(Text, "Muller-Ludenscheid").Collated(en.ID)
	for b.Loop() {
		Compare(x, y)
	}
}

func BenchmarkCompareBytes(b *testing.B) {
	x, y := NewText(Text, "Müller-Lüdenscheidt"), NewText(Text, "Muller-Ludenscheid")
	for b.Loop() {
		Compare(x, y)
	}
}

// TestCollationKeysOrder checks that the cached sort keys order random
// strings of the repertoire as the collator compares them, for every
// supported locale.
func TestCollationKeysOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aAbBcCzZ09 -_.,'äÄåÅæßøØçÇéÉèñÑœŒšŠžŽıİłŁőŐ¡¿ªº·")
	word := func() string {
		r := make([]rune, rng.IntN(6))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(r)
	}
	for _, name := range ICUCollationNames() {
		c := LookupCollation(name)
		col := c.pool.Get().(*collate.Collator)
		for range 2000 {
			a, b := word(), word()
			want := col.CompareString(a, b)
			if want == 0 {
				want = strings.Compare(a, b)
			}
			if got := compareCollated(c.ID, a, b); got != want {
				t.Fatalf("%s: compare(%q, %q) = %d by keys, %d by the collator", name, a, b, got, want)
			}
		}
		c.pool.Put(col)
	}
}

// BenchmarkSortCollated sorts 10,000 names drawn from 1,000 under
// en-x-icu, as ORDER BY does.
func BenchmarkSortCollated(b *testing.B) {
	en := LookupCollation("en-x-icu")
	rng := rand.New(rand.NewPCG(3, 4))
	vals := make([]Value, 10000)
	for i := range vals {
		vals[i] = NewText(Text, fmt.Sprintf("Müller-%d Lüdenscheidt", rng.IntN(1000))).Collated(en.ID)
	}
	work := make([]Value, len(vals))
	for b.Loop() {
		copy(work, vals)
		slices.SortFunc(work, Compare)
	}
}
