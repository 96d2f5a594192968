package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The fuzzystrmatch extension's Soundex and Levenshtein distances, all
// immutable, so that a view may call them. Its metaphone functions are
// not provided: a call of one is refused.
func init() {
	T, I4 := value.Text, value.Int4
	imm := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval}
	}
	sndx := func(a []value.Value) (value.Value, error) { return text(soundex(textOf(a[0]))), nil }
	lev := func(a []value.Value) (value.Value, error) {
		ins, del, sub, max := int64(1), int64(1), int64(1), int64(-1)
		switch len(a) {
		case 3:
			max = a[2].Int()
		case 5:
			ins, del, sub = a[2].Int(), a[3].Int(), a[4].Int()
		case 6:
			ins, del, sub, max = a[2].Int(), a[3].Int(), a[4].Int(), a[5].Int()
		}
		d, err := levenshtein([]rune(textOf(a[0])), []rune(textOf(a[1])), ins, del, sub, max)
		return int4(d), err
	}
	registerExtension(&Extension{
		Name: "fuzzystrmatch", Version: "1.1", Relocatable: true,
		Comment: "determine similarities and distance between strings",
		Funcs: []*FuncDef{
			imm("soundex", kinds(T), value.TextType, sndx),
			imm("text_soundex", kinds(T), value.TextType, sndx),
			imm("difference", kinds(T, T), value.Int4Type, func(a []value.Value) (value.Value, error) {
				x, y := soundex(textOf(a[0])), soundex(textOf(a[1]))
				n := 0
				for i := 0; i < soundexLen; i++ {
					if soundexAt(x, i) == soundexAt(y, i) {
						n++
					}
				}
				return int4(int64(n)), nil
			}),
			imm("levenshtein", kinds(T, T), value.Int4Type, lev),
			imm("levenshtein", kinds(T, T, I4, I4, I4), value.Int4Type, lev),
			imm("levenshtein_less_equal", kinds(T, T, I4), value.Int4Type, lev),
			imm("levenshtein_less_equal", kinds(T, T, I4, I4, I4, I4), value.Int4Type, lev),
		},
		Missing: []string{"metaphone", "dmetaphone", "dmetaphone_alt"},
	})
}

// soundexLen is the length of a Soundex code.
const soundexLen = 4

// soundexCodes are the digits of the letters A to Z.
const soundexCodes = "01230120022455012623010202"

// soundexCode is an ASCII letter's digit, any other byte itself.
func soundexCode(c byte) byte {
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	if c >= 'A' && c <= 'Z' {
		return soundexCodes[c-'A']
	}
	return c
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// soundex is PostgreSQL's Soundex code of s: its first ASCII letter, then
// the digits of the letters after it, a letter coded as the byte before
// it left out, zeros dropped, padded with '0' to four; "" when s has no
// letter.
func soundex(s string) string {
	i := 0
	for i < len(s) && !isASCIILetter(s[i]) {
		i++
	}
	if i == len(s) {
		return ""
	}
	out := []byte{s[i] &^ 0x20} // the letter's capital
	for i++; i < len(s) && len(out) < soundexLen; i++ {
		if isASCIILetter(s[i]) && soundexCode(s[i]) != soundexCode(s[i-1]) {
			if d := soundexCode(s[i]); d != '0' {
				out = append(out, d)
			}
		}
	}
	for len(out) < soundexLen {
		out = append(out, '0')
	}
	return string(out)
}

// soundexAt is a code's byte at i, 0 past its end.
func soundexAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// maxLevenshtein is the longest string, in characters, levenshtein takes.
const maxLevenshtein = 255

// levenshtein is the cheapest edit of s into t, by insertions, deletions
// and substitutions of the costs given. With max >= 0 a distance above
// max is max + 1, as PostgreSQL's levenshtein_less_equal gives.
func levenshtein(s, t []rune, ins, del, sub, max int64) (int64, error) {
	m, n := int64(len(s)), int64(len(t))
	if m == 0 {
		return n * ins, nil
	}
	if n == 0 {
		return m * del, nil
	}
	if m > maxLevenshtein || n > maxLevenshtein {
		return 0, pgerr.New(pgerr.InvalidParameter, "levenshtein argument exceeds maximum length of %d characters", maxLevenshtein)
	}
	prev := make([]int64, n+1)
	cur := make([]int64, n+1)
	for j := range prev {
		prev[j] = int64(j) * ins
	}
	for i := int64(1); i <= m; i++ {
		cur[0] = i * del
		for j := int64(1); j <= n; j++ {
			best := prev[j] + del
			if c := cur[j-1] + ins; c < best {
				best = c
			}
			c := prev[j-1]
			if s[i-1] != t[j-1] {
				c += sub
			}
			cur[j] = min(best, c)
		}
		prev, cur = cur, prev
	}
	if d := prev[n]; max >= 0 && d > max {
		return max + 1, nil
	}
	return prev[n], nil
}
