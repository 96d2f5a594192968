package value

import "testing"

// TestICUTitle checks icuTitle against PostgreSQL 15's initcap under ICU
// 72 collations (the expected strings are PostgreSQL's).
func TestICUTitle(t *testing.T) {
	for _, c := range []struct{ loc, in, want string }{
		{"en", "3abc", "3abc"},
		{"en", "hello wORLD dž ǆ", "Hello World Dž ǅ"},
		{"en", "a.b-c'd e_f g1h", "A.b-C'd E_f G1h"},
		{"en", "éa bÉ", "Éa Bé"},
		{"en", "ÿz ßa", "Ÿz Ssa"},
		{"en", "a1.5b c,d e:f g;h", "A1.5b C,D E:F G;H"},
		{"en", "x--y  z", "X--Y  Z"},
		{"en", "'ab' \"cd\"", "'Ab' \"Cd\""},
		{"en", "ab12cd 12ab", "Ab12cd 12ab"},
		{"en", "ĳssel", "Ĳssel"},
		{"en", "1.5x 2,5y", "1.5x 2,5y"},
		{"en", "a.1 b1.c", "A.1 B1.C"},
		{"en", "_ab a_b 1_a", "_Ab A_b 1_a"},
		{"en", "ŉa", "ʼNa"},
		{"en", "a·b e:f", "A·b E:F"},
		{"en", "x\u00ady", "X\u00ady"},
		{"en", "ªb º µa ¹a ½a", "ªb º Μa ¹A ½A"},
		{"en", "$a ©b ¢c a§b", "$A ©B ¢C A§B"},
		{"und", "a''b a.b.c 1'2 1.2.3 a..b", "A''B A.b.c 1'2 1.2.3 A..B"},
		{"nl", "ijssel ĳssel ijx", "IJssel Ĳssel IJx"},
		{"tr", "iİ ıI i.j", "İi Iı İ.j"},
		{"sv", "e:f a·b", "E:f A·b"},
		{"de", "ABC dEF", "Abc Def"},
	} {
		if got := icuTitle(c.loc, c.in); got != c.want {
			t.Errorf("icuTitle(%s, %q) = %q, want %q", c.loc, c.in, got, c.want)
		}
	}
}
