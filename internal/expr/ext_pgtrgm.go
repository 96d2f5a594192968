package expr

import (
	"slices"
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The pg_trgm extension's trigram similarity: show_trgm, similarity,
// word_similarity and strict_word_similarity (immutable, so that a view
// may call them), their distance operators <->, <<->, <->>, <<<->,
// <->>>, and the threshold operators %, <%, %>, <<%, %>>, which compare
// with the session's pg_trgm.*_threshold settings and so are refused in a
// view. Trigrams are extracted as PostgreSQL does in a database whose
// LC_CTYPE is C (the test servers'): a word is a run of ASCII letters and
// digits, lower-cased in ASCII; every other character separates words.
func init() {
	T, F4 := value.Text, value.Float4
	imm := func(name string, result value.Type, eval func(a, b string) value.Value) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: kinds(T, T), Result: result,
			Eval: func(a []value.Value) (value.Value, error) { return eval(textOf(a[0]), textOf(a[1])), nil }}
	}
	// op is a threshold operator's function: STABLE in PostgreSQL, as it
	// reads the session's setting.
	op := func(name, setting string, sml func(a, b string) float32) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: kinds(T, T), Result: value.BoolType, Reads: setting,
			Session: func(s Settings, a []value.Value) (value.Value, error) {
				limit, err := trgmThreshold(s, setting)
				if err != nil {
					return value.Value{}, err
				}
				return value.NewBool(float64(sml(textOf(a[0]), textOf(a[1]))) >= limit), nil
			}}
	}
	f4 := func(f float32) value.Value { return value.NewFloat(value.Float4, float64(f)) }
	dist := func(f float32) value.Value { return f4(float32(1.0 - float64(f))) }
	swap := func(f func(a, b string) float32) func(a, b string) float32 {
		return func(a, b string) float32 { return f(b, a) }
	}
	word := func(a, b string) float32 { return wordSimilarity(a, b, false) }
	strictWord := func(a, b string) float32 { return wordSimilarity(a, b, true) }
	f4Type := value.Type{Kind: F4, Mod: -1}
	registerExtension(&Extension{
		Name: "pg_trgm", Version: "1.6", Relocatable: true,
		Comment: "text similarity measurement and index searching based on trigrams",
		Funcs: []*FuncDef{
			{Name: "show_trgm", Strict: true, Params: kinds(T), Result: value.ArrayType(T),
				Eval: func(a []value.Value) (value.Value, error) {
					ts := trgmSet(textOf(a[0]))
					out := make([]value.Value, len(ts))
					for i, t := range ts {
						out[i] = text(string([]byte{byte(t >> 16), byte(t >> 8), byte(t)}))
					}
					return value.NewArray(value.ArrayOf(T), out), nil
				}},
			imm("similarity", f4Type, func(a, b string) value.Value { return f4(similarity(a, b)) }),
			imm("similarity_dist", f4Type, func(a, b string) value.Value { return dist(similarity(a, b)) }),
			imm("word_similarity", f4Type, func(a, b string) value.Value { return f4(word(a, b)) }),
			imm("word_similarity_dist_op", f4Type, func(a, b string) value.Value { return dist(word(a, b)) }),
			imm("word_similarity_dist_commutator_op", f4Type, func(a, b string) value.Value { return dist(word(b, a)) }),
			imm("strict_word_similarity", f4Type, func(a, b string) value.Value { return f4(strictWord(a, b)) }),
			imm("strict_word_similarity_dist_op", f4Type, func(a, b string) value.Value { return dist(strictWord(a, b)) }),
			imm("strict_word_similarity_dist_commutator_op", f4Type, func(a, b string) value.Value { return dist(strictWord(b, a)) }),
			op("similarity_op", trgmSimilarity, similarity),
			op("word_similarity_op", trgmWordSimilarity, word),
			op("word_similarity_commutator_op", trgmWordSimilarity, swap(word)),
			op("strict_word_similarity_op", trgmStrictWordSimilarity, strictWord),
			op("strict_word_similarity_commutator_op", trgmStrictWordSimilarity, swap(strictWord)),
			{Name: "show_limit", Strict: true, Result: f4Type, Reads: trgmSimilarity,
				Session: func(s Settings, _ []value.Value) (value.Value, error) {
					limit, err := trgmThreshold(s, trgmSimilarity)
					return f4(float32(limit)), err
				}},
			// set_limit sets pg_trgm.similarity_threshold to its argument
			// as a real prints, as PostgreSQL's does.
			{Name: "set_limit", Strict: true, Volatile: true, Params: kinds(F4), Result: f4Type,
				Session: func(s Settings, a []value.Value) (value.Value, error) {
					if _, err := s.SetSetting(trgmSimilarity, strconv.FormatFloat(a[0].Float(), 'g', -1, 32), false); err != nil {
						return value.Value{}, err
					}
					limit, err := trgmThreshold(s, trgmSimilarity)
					return f4(float32(limit)), err
				}},
		},
		Operators: []ExtOperator{
			{"%", T, T, "similarity_op", "%"},
			{"<->", T, T, "similarity_dist", "<->"},
			{"<%", T, T, "word_similarity_op", "%>"},
			{"%>", T, T, "word_similarity_commutator_op", "<%"},
			{"<<->", T, T, "word_similarity_dist_op", "<->>"},
			{"<->>", T, T, "word_similarity_dist_commutator_op", "<<->"},
			{"<<%", T, T, "strict_word_similarity_op", "%>>"},
			{"%>>", T, T, "strict_word_similarity_commutator_op", "<<%"},
			{"<<<->", T, T, "strict_word_similarity_dist_op", "<->>>"},
			{"<->>>", T, T, "strict_word_similarity_dist_commutator_op", "<<<->"},
		},
	})
}

// The settings of pg_trgm's threshold operators.
const (
	trgmSimilarity           = "pg_trgm.similarity_threshold"
	trgmWordSimilarity       = "pg_trgm.word_similarity_threshold"
	trgmStrictWordSimilarity = "pg_trgm.strict_word_similarity_threshold"
)

// trgmThreshold reads a threshold setting of the session.
func trgmThreshold(s Settings, name string) (float64, error) {
	if s == nil {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "settings are read in a session's statements only")
	}
	v, _, err := s.Setting(name, false)
	if err != nil {
		return 0, err
	}
	return strconv.ParseFloat(v, 64)
}

// trgmWords calls fn with each word of s, lower-cased, padded with two
// blanks before and one after: the C locale's words are runs of ASCII
// letters and digits (bytes of multibyte characters are never either).
func trgmWords(s string, buf []byte, fn func(padded []byte)) []byte {
	i := 0
	for i < len(s) {
		for i < len(s) && !isASCIIAlnum(s[i]) {
			i++
		}
		if i == len(s) {
			break
		}
		buf = append(buf[:0], ' ', ' ')
		for ; i < len(s) && isASCIIAlnum(s[i]); i++ {
			c := s[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
		}
		buf = append(buf, ' ')
		fn(buf)
	}
	return buf
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// trgmBound marks a trigram that begins or ends a word.
type trgmBound uint8

const (
	trgmBoundLeft trgmBound = 1 << iota
	trgmBoundRight
)

// trgmList is s's trigrams in order, each three bytes in an int, and,
// with bounds, which begin and end a word.
func trgmList(s string, bounds bool) ([]uint32, []trgmBound) {
	var out []uint32
	var bs []trgmBound
	trgmWords(s, nil, func(w []byte) {
		first := len(out)
		for i := 0; i+3 <= len(w); i++ {
			out = append(out, uint32(w[i])<<16|uint32(w[i+1])<<8|uint32(w[i+2]))
		}
		if bounds {
			bs = append(bs, make([]trgmBound, len(out)-first)...)
			bs[first] |= trgmBoundLeft
			bs[len(out)-1] |= trgmBoundRight
		}
	})
	return out, bs
}

// trgmSet is s's trigrams sorted, each once: show_trgm's. The bytes are
// ASCII, so PostgreSQL's signed and unsigned orders agree.
func trgmSet(s string) []uint32 {
	ts, _ := trgmList(s, false)
	slices.Sort(ts)
	return slices.Compact(ts)
}

// calcSml is pg_trgm's similarity of count shared trigrams among n1 and
// n2, in single precision as there.
func calcSml(count, n1, n2 int) float32 {
	return float32(count) / float32(n1+n2-count)
}

// similarity is the trigrams a and b share over those of either.
func similarity(a, b string) float32 {
	x, y := trgmSet(a), trgmSet(b)
	if len(x) == 0 || len(y) == 0 {
		return 0
	}
	count, i, j := 0, 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case x[i] < y[j]:
			i++
		case x[i] > y[j]:
			j++
		default:
			i, j, count = i+1, j+1, count+1
		}
	}
	return calcSml(count, len(x), len(y))
}

// wordSimilarity is the greatest similarity between the trigrams of
// pattern and those of a continuous extent of the trigrams of s (with
// strict, an extent of whole words), computed as pg_trgm's
// calc_word_similarity and iterate_word_similarity do, so that their
// float results agree.
func wordSimilarity(pattern, s string, strict bool) float32 {
	t1, _ := trgmList(pattern, false)
	t2, bounds := trgmList(s, strict)
	// Number each distinct trigram (j), marking those of the pattern.
	type pos struct {
		t   uint32
		idx int
	}
	all := make([]pos, 0, len(t1)+len(t2))
	for _, t := range t1 {
		all = append(all, pos{t, -1})
	}
	for i, t := range t2 {
		all = append(all, pos{t, i})
	}
	slices.SortFunc(all, func(a, b pos) int {
		if a.t != b.t {
			if a.t < b.t {
				return -1
			}
			return 1
		}
		return a.idx - b.idx
	})
	idx := make([]int, len(t2))
	found := make([]bool, len(all)+1)
	ulen1, j := 0, 0
	for i, p := range all {
		if i > 0 && all[i-1].t != p.t {
			if found[j] {
				ulen1++
			}
			j++
		}
		if p.idx >= 0 {
			idx[p.idx] = j
		} else {
			found[j] = true
		}
	}
	if found[j] {
		ulen1++
	}

	lastpos := make([]int, len(all)+1)
	for i := range lastpos {
		lastpos[i] = -1
	}
	ulen2, count, lower := 0, 0, -1
	if strict {
		lower = 0
	}
	var smlMax float32
	for i := range t2 {
		ti := idx[i]
		if lower >= 0 || found[ti] {
			if lastpos[ti] < 0 {
				ulen2++
				if found[ti] {
					count++
				}
			}
			lastpos[ti] = i
		}
		isUpper := found[ti]
		if strict {
			isUpper = bounds[i]&trgmBoundRight != 0
		}
		if !isUpper {
			continue
		}
		upper := i
		if lower == -1 {
			lower, ulen2 = i, 1
		}
		cur := calcSml(count, ulen1, ulen2)
		// Try moving the lower bound up for a greater similarity.
		tmpCount, tmpUlen2, prevLower := count, ulen2, lower
		for tl := lower; tl <= upper; tl++ {
			if !strict || bounds[tl]&trgmBoundLeft != 0 {
				if s := calcSml(tmpCount, ulen1, tmpUlen2); s > cur {
					cur, ulen2, lower, count = s, tmpUlen2, tl, tmpCount
				}
			}
			if x := idx[tl]; lastpos[x] == tl {
				tmpUlen2--
				if found[x] {
					tmpCount--
				}
			}
		}
		if !(smlMax > cur) { // C's Max, NaN included
			smlMax = cur
		}
		for tl := prevLower; tl < lower; tl++ {
			if x := idx[tl]; lastpos[x] == tl {
				lastpos[x] = -1
			}
		}
	}
	return smlMax
}
