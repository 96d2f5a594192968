package expr

import (
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var _ Expr = (*Like)(nil)

// Like is E [NOT] LIKE Pattern [ESCAPE Escape], or ILIKE when ILike: % matches
// any run of characters, _ exactly one, and the escape character (a
// backslash when Escape is nil; none when it is the empty string) makes
// the next pattern character literal. A pattern ending in the escape
// character is an error (22025) when, as in PostgreSQL's matcher, the text
// reaches it with characters left (the text is the pattern before it and
// at least one more character), and otherwise does not match. ILIKE compares characters after case
// folding: of the ASCII letters only, as the database's ctype (C) folds
// them, or, when an operand is under an ICU collation, Unicode's simple
// folding. NULL if any operand is NULL. A char(n) operand keeps
// its padding, as in PostgreSQL.
//
// Matching takes O(len(E) × len(Pattern)) at worst: the pattern is split at
// its % signs into fixed-width segments, each matched at its leftmost
// position, so there is no backtracking. The last compiled pattern is
// cached in the node, so a constant pattern is compiled once.
type Like struct {
	E, Pattern Expr
	Escape     Expr // nil: backslash
	ILike, Not bool

	m atomic.Pointer[likeMatcher] // last compiled pattern
}

func (l *Like) Type() value.Type { return value.BoolType }
func (*Like) expr()              {}

func (l *Like) Volatile() bool {
	return l.E.Volatile() || l.Pattern.Volatile() || (l.Escape != nil && l.Escape.Volatile())
}

func (l *Like) String() string {
	op := " LIKE "
	if l.ILike {
		op = " ILIKE "
	}
	if l.Not {
		op = " NOT" + op
	}
	s := operand(l.E) + op + operand(l.Pattern)
	if l.Escape != nil {
		s += " ESCAPE " + operand(l.Escape)
	}
	return s
}

// matchOperands evaluates a pattern match's operands: the string, the
// pattern and the escape (a backslash when escape is nil); null is set
// when one of them is NULL.
func matchOperands(row value.Row, e, pattern, escape Expr) (s, pat, esc string, null bool, err error) {
	sv, err := e.Eval(row)
	if err != nil {
		return "", "", "", false, err
	}
	pv, err := pattern.Eval(row)
	if err != nil {
		return "", "", "", false, err
	}
	esc = "\\"
	if escape != nil {
		ev, err := escape.Eval(row)
		if err != nil {
			return "", "", "", false, err
		}
		if ev.IsNull() {
			return "", "", "", true, nil
		}
		esc = rawText(ev)
	}
	if sv.IsNull() || pv.IsNull() {
		return "", "", "", true, nil
	}
	if sv.Nondeterministic() || pv.Nondeterministic() {
		return "", "", "", false, errNondeterministic
	}
	return rawText(sv), rawText(pv), esc, false, nil
}

// errNondeterministic is a pattern match under a nondeterministic
// collation, which PostgreSQL refuses too; the caller names the match
// (nondeterministicFor).
var errNondeterministic = pgerr.New(pgerr.FeatureNotSupported, "nondeterministic collations are not supported for pattern matching")

// nondeterministicFor names the match what in err when it is
// errNondeterministic, as PostgreSQL's message does.
func nondeterministicFor(err error, what string) error {
	if err == errNondeterministic {
		return pgerr.New(pgerr.FeatureNotSupported, "nondeterministic collations are not supported for %s", what)
	}
	return err
}

func (l *Like) Eval(row value.Row) (value.Value, error) {
	s, pat, esc, null, err := matchOperands(row, l.E, l.Pattern, l.Escape)
	if err != nil || null {
		what := "LIKE"
		if l.ILike {
			what = "ILIKE"
		}
		return value.Null, nondeterministicFor(err, what)
	}
	fold := l.fold()
	if fold == unicodeFold {
		fold, s, pat = l.lowered(s, pat, esc)
	}
	m := l.m.Load()
	if m == nil || m.pattern != pat || m.escape != esc {
		if m, err = compileLike(pat, esc, fold); err != nil {
			return value.Null, err
		}
		l.m.Store(m)
	}
	matched := m.match(s)
	if m.dangling {
		if matched {
			return value.Null, pgerr.New(pgerr.InvalidEscape, "LIKE pattern must not end with escape character")
		}
		return boolValue(l.Not), nil
	}
	return boolValue(matched != l.Not), nil
}

// likeFold is how a pattern match folds case.
type likeFold uint8

const (
	noFold      likeFold = iota // LIKE
	asciiFold                   // ILIKE under the database's ctype, C
	unicodeFold                 // ILIKE under an ICU collation
)

// fold is how l folds case: ILIKE's under the ctype of its operands'
// collation, ICU's when either is under one, C's otherwise.
func (l *Like) fold() likeFold {
	switch {
	case !l.ILike:
		return noFold
	case underICU(l.E) || underICU(l.Pattern):
		return unicodeFold
	}
	return asciiFold
}

// lowered is ILIKE under an ICU collation as PostgreSQL matches it: the
// string and the pattern lowered by the collation's locale (Turkish
// 'I' to 'ı', 'İ' to 'i'; elsewhere 'İ' to "i̇"), then matched as LIKE
// (noFold). An escape character that lowering changes keeps the
// rune-by-rune folding (unicodeFold), so that it stays the escape.
func (l *Like) lowered(s, pat, esc string) (likeFold, string, string) {
	id := collateID(l.E)
	if id == 0 {
		id = collateID(l.Pattern)
	}
	ls, ok1 := value.CaseMapped(id, 'l', s)
	lp, ok2 := value.CaseMapped(id, 'l', pat)
	le, ok3 := value.CaseMapped(id, 'l', esc)
	if !ok1 || !ok2 || !ok3 || le != esc {
		return unicodeFold, s, pat
	}
	return noFold, ls, lp
}

// collateID is the ICU collation e applies, 0 for none.
func collateID(e Expr) uint8 {
	if c, ok := e.(*Collate); ok {
		return c.ID
	}
	return 0
}

// underICU reports whether e's value carries an ICU collation: e applies
// one (explicitly, or a collated column's).
func underICU(e Expr) bool {
	c, ok := e.(*Collate)
	return ok && c.ID != 0
}

// likeElem is one pattern character: a literal rune, or _ when any.
type likeElem struct {
	r   rune
	any bool
}

// likeMatcher is a compiled pattern: the segments between its % signs.
type likeMatcher struct {
	pattern, escape string
	fold            likeFold
	segs            [][]likeElem // len(segs) == number of % + 1
	// dangling is set when the pattern ends in the escape character;
	// segs then match the texts on which PostgreSQL reports an error.
	dangling bool
}

// compileLike compiles pattern with the escape string esc ("" for none).
func compileLike(pattern, esc string, fold likeFold) (*likeMatcher, error) {
	escRune, useEsc := rune(0), false
	switch utf8.RuneCountInString(esc) {
	case 0:
	case 1:
		escRune, _ = utf8.DecodeRuneInString(esc)
		useEsc = true
	default:
		return nil, (&pgerr.Error{Code: pgerr.InvalidEscape, Message: "invalid escape string"}).
			WithHint("Escape string must be empty or one character.")
	}
	m := &likeMatcher{pattern: pattern, escape: esc, fold: fold}
	seg := []likeElem{}
	// The run of wildcards just before the current position: whether it
	// holds a %, and how many _ follow its first %.
	runPct, runAny := false, 0
	for i := 0; i < len(pattern); {
		r, size := utf8.DecodeRuneInString(pattern[i:])
		i += size
		switch {
		case useEsc && r == escRune:
			if i >= len(pattern) {
				// PostgreSQL fails only when its matcher reaches the
				// dangling escape with text left over, and otherwise
				// reports no match. It gets there when the text is the
				// pattern before the escape followed by at least one
				// more character; when the escape follows a run of
				// wildcards holding a %, the run's _ (at least one)
				// suffice.
				m.dangling = true
				if !runPct || runAny == 0 {
					seg = append(seg, likeElem{any: true})
				}
				m.segs = append(m.segs, seg)
				seg = []likeElem{}
				continue
			}
			r, size = utf8.DecodeRuneInString(pattern[i:])
			i += size
			seg = append(seg, likeElem{r: m.foldRune(r)})
			runPct, runAny = false, 0
		case r == '%':
			m.segs = append(m.segs, seg)
			seg = []likeElem{}
			runPct = true
		case r == '_':
			seg = append(seg, likeElem{any: true})
			if runPct {
				runAny++
			}
		default:
			seg = append(seg, likeElem{r: m.foldRune(r)})
			runPct, runAny = false, 0
		}
	}
	m.segs = append(m.segs, seg)
	return m, nil
}

func (m *likeMatcher) foldRune(r rune) rune {
	switch {
	case m.fold == unicodeFold:
		return unicode.ToLower(unicode.ToUpper(r))
	case m.fold == asciiFold && r >= 'A' && r <= 'Z':
		return r + ('a' - 'A')
	}
	return r
}

// matchAt matches seg at byte offset p of s, returning the offset after it.
func (m *likeMatcher) matchAt(s string, p int, seg []likeElem) (int, bool) {
	for _, e := range seg {
		if p >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[p:])
		if !e.any && m.foldRune(r) != e.r {
			return 0, false
		}
		p += size
	}
	return p, true
}

// match reports whether s matches the whole pattern.
func (m *likeMatcher) match(s string) bool {
	segs := m.segs
	if len(segs) == 1 {
		end, ok := m.matchAt(s, 0, segs[0])
		return ok && end == len(s)
	}
	pos, ok := m.matchAt(s, 0, segs[0])
	if !ok {
		return false
	}
	// The last segment is anchored at the end of s.
	last := segs[len(segs)-1]
	lastStart := len(s)
	for range last {
		if lastStart <= pos {
			return false
		}
		_, size := utf8.DecodeLastRuneInString(s[:lastStart])
		lastStart -= size
	}
	if lastStart < pos {
		return false
	}
	// Middle segments match at their leftmost position: any later match
	// leaves less room for the rest, so leftmost is never wrong.
	limited := s[:lastStart]
	for _, seg := range segs[1 : len(segs)-1] {
		if len(seg) == 0 {
			continue
		}
		found := false
		for p := pos; p < len(limited); {
			if end, ok := m.matchAt(limited, p, seg); ok {
				pos, found = end, true
				break
			}
			_, size := utf8.DecodeRuneInString(limited[p:])
			p += size
		}
		if !found {
			return false
		}
	}
	end, ok := m.matchAt(s, lastStart, last)
	return ok && end == len(s)
}
