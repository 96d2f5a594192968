package expr

import (
	"slices"
	"unicode"

	"github.com/deltaview/deltaview/internal/value"
)

// Case-insensitive matching (the i option, ~*) as PostgreSQL compiles it:
// each character of the pattern, alone or in a bracket expression,
// stands for itself and its lower and upper case, and [:lower:] and
// [:upper:] for [:alpha:]; the text is matched as it is, so the match is
// not symmetric (under ICU 'I' ~* 'ı' holds, 'ı' ~* 'I' does not). The
// cases are the collation's: under an ICU one each character's simple
// case mappings (ICU's u_tolower and u_toupper: 'İ' lowers to 'i', 'ß'
// has no upper case), otherwise those of the database's ctype, C, where
// only the ASCII letters have another case.

// foldCaseLimit bounds the characters of a bracket range whose cases are
// added; a larger range keeps its own characters only.
const foldCaseLimit = 10_000

// caseVariants returns c's lower and upper case under ICU's mappings
// (icu) or C's.
func caseVariants(c rune, icu bool) (lower, upper rune) {
	if icu {
		return unicode.ToLower(c), unicode.ToUpper(c)
	}
	switch {
	case c >= 'a' && c <= 'z':
		return c, c - 32
	case c >= 'A' && c <= 'Z':
		return c + 32, c
	}
	return c, c
}

// foldCases rewrites the pattern tree n for case-insensitive matching:
// literals become the sets of their cases, bracket expressions gain
// their characters' cases.
func foldCases(n *areNode, icu bool) {
	if n == nil {
		return
	}
	switch n.op {
	case areLit:
		lo, up := caseVariants(n.r, icu)
		if lo != n.r || up != n.r {
			rs := []rune{n.r, n.r, lo, lo, up, up}
			n.op, n.cls = areClass, &areCharClass{ranges: dedupRanges(rs)}
		}
	case areClass:
		n.cls = foldClass(n.cls, icu)
	}
	for _, s := range n.subs {
		foldCases(s, icu)
	}
}

// foldClass returns c with its ranges' cases added and [:lower:] and
// [:upper:] widened to [:alpha:].
func foldClass(c *areCharClass, icu bool) *areCharClass {
	out := &areCharClass{neg: c.neg, noNL: c.noNL, ranges: slices.Clone(c.ranges)}
	for i := 0; i < len(c.ranges); i += 2 {
		lo, hi := c.ranges[i], c.ranges[i+1]
		if hi-lo > foldCaseLimit {
			continue
		}
		for r := lo; r <= hi; r++ {
			l, u := caseVariants(r, icu)
			if l != r {
				out.ranges = append(out.ranges, l, l)
			}
			if u != r {
				out.ranges = append(out.ranges, u, u)
			}
		}
	}
	out.ranges = dedupRanges(out.ranges)
	for _, name := range c.classes {
		switch name {
		case "lower", "upper":
			name = "alpha"
		case "^lower", "^upper":
			name = "^alpha"
		}
		out.classes = append(out.classes, name)
	}
	return out
}

// dedupRanges sorts the (lo, hi) pairs rs and merges those that overlap
// or touch.
func dedupRanges(rs []rune) []rune {
	type pair struct{ lo, hi rune }
	ps := make([]pair, 0, len(rs)/2)
	for i := 0; i < len(rs); i += 2 {
		ps = append(ps, pair{rs[i], rs[i+1]})
	}
	slices.SortFunc(ps, func(a, b pair) int { return int(a.lo - b.lo) })
	out := rs[:0:0]
	for _, p := range ps {
		if n := len(out); n > 0 && p.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], p.hi)
			continue
		}
		out = append(out, p.lo, p.hi)
	}
	return out
}

// foldEqual reports whether a back-reference's character b matches the
// group's a case-insensitively: equal once lowered, as PostgreSQL
// compares them.
func (p *areProg) foldEqual(a, b rune) bool {
	la, _ := caseVariants(a, p.icu)
	lb, _ := caseVariants(b, p.icu)
	return la == lb
}

// regexICU reports whether a regexp function's string or pattern (a[0],
// a[1]) carries an ICU collation, whose case mappings the i option then
// follows.
func regexICU(a []value.Value) bool {
	return len(a) > 1 && (a[0].CollationID() != 0 || a[1].CollationID() != 0)
}
