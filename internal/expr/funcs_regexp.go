package expr

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's functions over the extents of regular-expression matches:
// regexp_replace, regexp_count, regexp_instr, regexp_substr, regexp_like
// and substring(s FROM pattern) / substring(s SIMILAR pattern ESCAPE e).
//
// A pattern is parsed as PostgreSQL parses it (are_parse.go: its
// syntax, options and errors), then matched by Go's RE2 where the two
// agree, else by the matcher of PostgreSQL's rules (are_match.go). RE2
// decides whether there is a match for any pattern without
// back-references, lookaround, \m or \M; it finds where matches are for
// such a pattern when its quantifiers are all greedy (PostgreSQL's match
// is then the longest at the leftmost position: Go's leftmost-longest
// mode) or all non-greedy with no | (the shortest: what Go's
// leftmost-first search finds), when it has no parenthesized
// subexpressions or only ones that RE2 places as PostgreSQL does (see
// re2Captures), and when no start position hides text that ^, \A, \y or
// \Y look at. The rest is the other matcher's.
// Matches are found as PostgreSQL finds them one after the other: the
// next search starts where a match ended, one character further after an
// empty one, so an empty match right after a non-empty one counts (Go's
// FindAll skips it).
func init() {
	T, I4 := value.Text, value.Int4
	count := func(a []value.Value) (value.Value, error) {
		s, start, flags, err := regexArgs(a, 2, 3)
		if err != nil {
			return value.Null, err
		}
		re, err := pgRegexUnder("regexp_count", rawText(a[1]), flags, false, regexICU(a))
		if err != nil {
			return value.Null, err
		}
		ms, err := re.findAll(s, start, -1)
		return int4(int64(len(ms))), err
	}
	strict("regexp_count", kinds(T, T), value.Int4Type, count)
	strict("regexp_count", kinds(T, T, I4), value.Int4Type, count)
	strict("regexp_count", kinds(T, T, I4, T), value.Int4Type, count)

	like := func(a []value.Value) (value.Value, error) {
		flags := ""
		if len(a) > 2 {
			flags = rawText(a[2])
		}
		re, err := pgRegexUnder("regexp_like", rawText(a[1]), flags, false, regexICU(a))
		if err != nil {
			return value.Null, err
		}
		ok, err := re.match(rawText(a[0]))
		return boolValue(ok), err
	}
	strict("regexp_like", kinds(T, T), value.BoolType, like)
	strict("regexp_like", kinds(T, T, T), value.BoolType, like)

	// regexp_instr(s, p [, start [, n [, endoption [, flags [, subexpr]]]]])
	instr := func(a []value.Value) (value.Value, error) {
		s, start, flags, err := regexArgs(a, 2, 5)
		if err != nil {
			return value.Null, err
		}
		n, endopt, sub, err := nthArgs(a, 3, 4, 6)
		if err != nil {
			return value.Null, err
		}
		re, err := pgRegexUnder("regexp_instr", rawText(a[1]), flags, false, regexICU(a))
		if err != nil {
			return value.Null, err
		}
		m, err := re.nth(s, start, n)
		if err != nil || m == nil || 2*sub+1 >= len(m) || m[2*sub] < 0 {
			return int4(0), err
		}
		pos := m[2*sub]
		if endopt == 1 {
			pos = m[2*sub+1]
		}
		return int4(int64(utf8.RuneCountInString(s[:pos])) + 1), nil
	}
	for n := 2; n <= 7; n++ {
		ps := kinds(T, T, I4, I4, I4, T, I4)[:n]
		strict("regexp_instr", ps, value.Int4Type, instr)
	}

	// regexp_substr(s, p [, start [, n [, flags [, subexpr]]]])
	substrFn := func(a []value.Value) (value.Value, error) {
		s, start, flags, err := regexArgs(a, 2, 4)
		if err != nil {
			return value.Null, err
		}
		n, _, sub, err := nthArgs(a, 3, -1, 5)
		if err != nil {
			return value.Null, err
		}
		re, err := pgRegexUnder("regexp_substr", rawText(a[1]), flags, false, regexICU(a))
		if err != nil {
			return value.Null, err
		}
		m, err := re.nth(s, start, n)
		if err != nil || m == nil || 2*sub+1 >= len(m) || m[2*sub] < 0 {
			return value.Null, err
		}
		return text(s[m[2*sub]:m[2*sub+1]]), nil
	}
	for n := 2; n <= 6; n++ {
		ps := kinds(T, T, I4, I4, T, I4)[:n]
		strict("regexp_substr", ps, value.TextType, substrFn)
	}

	// substring(s FROM pattern): the first parenthesized subexpression's
	// match when the pattern has one (NULL when it took no part), else
	// the whole match; NULL without a match.
	strict("substring", kinds(T, T), value.TextType, func(a []value.Value) (value.Value, error) {
		re, err := pgRegexUnder("substring", rawText(a[1]), "", false, regexICU(a))
		if err != nil {
			return value.Null, err
		}
		return firstSubmatch(re, rawText(a[0]))
	})
	// substring(s SIMILAR pattern ESCAPE e) is, as in PostgreSQL,
	// substring(s FROM similar_to_escape(pattern, e)): the translation
	// captures the part between the escape-double-quote separators and
	// makes the part before them non-greedy.
	strict("substring", kinds(T, T, T), value.TextType, func(a []value.Value) (value.Value, error) {
		re, err := similarRegexFor(rawText(a[1]), rawText(a[2]), false, regexICU(a) || a[2].CollationID() != 0)
		if err != nil {
			return value.Null, err
		}
		return firstSubmatch(re, rawText(a[0]))
	})

	// regexp_replace(s, p, r [, start [, n]] [, flags])
	replace := func(a []value.Value) (value.Value, error) {
		s := rawText(a[0])
		flags, start, n, global := "", 0, int64(1), false
		switch {
		case len(a) == 4 && a[3].Kind() != value.Int4:
			flags = rawText(a[3])
		case len(a) >= 4:
			var err error
			if _, start, _, err = regexArgs(a, 3, -1); err != nil {
				return value.Null, err
			}
			if len(a) >= 5 {
				if n = a[4].Int(); n < 0 {
					return value.Null, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter \"%s\": %d", "n", n)
				}
				global = n == 0
			}
			if len(a) == 6 {
				flags = rawText(a[5])
			}
		}
		re, err := pgRegexUnder("regexp_replace", rawText(a[1]), flags, true, regexICU(a))
		if err != nil {
			return value.Null, err
		}
		if len(a) < 5 {
			global = re.global // else n decides
		}
		ms, err := re.findAll(s, start, -1)
		if err != nil {
			return value.Null, err
		}
		if !global {
			if int64(len(ms)) < n {
				return text(s), nil
			}
			ms = ms[n-1 : n]
		}
		if len(ms) == 0 {
			return text(s), nil
		}
		var sb strings.Builder
		repl, last := rawText(a[2]), 0
		for _, m := range ms {
			sb.WriteString(s[last:m[0]])
			expandReplacement(&sb, s, repl, m)
			last = m[1]
		}
		sb.WriteString(s[last:])
		return text(sb.String()), nil
	}
	strict("regexp_replace", kinds(T, T, T), value.TextType, replace)
	strict("regexp_replace", kinds(T, T, T, T), value.TextType, replace)
	strict("regexp_replace", kinds(T, T, T, I4), value.TextType, replace)
	strict("regexp_replace", kinds(T, T, T, I4, I4), value.TextType, replace)
	strict("regexp_replace", kinds(T, T, T, I4, I4, T), value.TextType, replace)
}

// regexArgs reads the subject (a[0]), the start position a[startAt] (1
// when absent; 22023 below 1) as a byte offset into the subject, and the
// flags a[flagsAt] ("" when absent).
func regexArgs(a []value.Value, startAt, flagsAt int) (s string, start int, flags string, err error) {
	s = rawText(a[0])
	if startAt < len(a) {
		n := a[startAt].Int()
		if n <= 0 {
			return "", 0, "", pgerr.New(pgerr.InvalidParameter, "invalid value for parameter \"start\": %d", n)
		}
		// The n-th character's offset; len(s) just after the last one,
		// beyond it when further (no match).
		start = len(s) + 1
		if n == int64(utf8.RuneCountInString(s))+1 {
			start = len(s)
		}
		for i := range s {
			if n == 1 {
				start = i
				break
			}
			n--
		}
	}
	if flagsAt >= 0 && flagsAt < len(a) {
		flags = rawText(a[flagsAt])
	}
	return s, start, flags, nil
}

// nthArgs reads the occurrence n (1 when absent), the end option (0 or
// 1) and the subexpression (0 when absent), each checked as PostgreSQL
// checks them.
func nthArgs(a []value.Value, nAt, endAt, subAt int) (n, endopt, sub int, err error) {
	get := func(i int, def int64, name string, ok func(int64) bool) (int, error) {
		if i < 0 || i >= len(a) {
			return int(def), nil
		}
		v := a[i].Int()
		if !ok(v) {
			return 0, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter \"%s\": %d", name, v)
		}
		return int(v), nil
	}
	if n, err = get(nAt, 1, "n", func(v int64) bool { return v > 0 }); err != nil {
		return
	}
	if endopt, err = get(endAt, 0, "endoption", func(v int64) bool { return v == 0 || v == 1 }); err != nil {
		return
	}
	sub, err = get(subAt, 0, "subexpr", func(v int64) bool { return v >= 0 })
	return
}

// pgRegex is a PostgreSQL regular expression compiled for Go.
type pgRegex struct {
	re   *regexp.Regexp // nil when RE2 cannot match it as PostgreSQL does
	prog *syntax.Prog
	are  *areProg
	// re2Extents: re finds the matches PostgreSQL finds, not only
	// whether there is one.
	re2Extents bool
	global     bool // the g option
	// contextual: the pattern asserts something about the text before
	// the match (^, \A, word boundaries), which a search from an offset
	// cannot see.
	contextual bool
}

// regexKey names a compiled pattern: looking a struct of strings up
// allocates nothing, so a constant pattern costs a lock and a lookup per
// row.
type regexKey struct {
	fn, flags, pattern string
	icu                bool
}

var regexCache struct {
	sync.Mutex
	m map[regexKey]*pgRegex
}

// pgRegexFor compiles pattern with PostgreSQL's option letters flags
// for the function fn. allowGlobal: the g option is accepted. Compiled
// patterns are cached, so that a constant pattern is compiled once.
func pgRegexFor(fn, pattern, flags string, allowGlobal bool) (*pgRegex, error) {
	return pgRegexUnder(fn, pattern, flags, allowGlobal, false)
}

// pgRegexUnder is pgRegexFor under an ICU collation's case mappings
// (icu) or the database's ctype's, C.
func pgRegexUnder(fn, pattern, flags string, allowGlobal, icu bool) (*pgRegex, error) {
	key := regexKey{fn, flags, pattern, icu}
	regexCache.Lock()
	r := regexCache.m[key]
	regexCache.Unlock()
	if r != nil {
		return r, nil
	}
	r, err := compilePGRegex(fn, pattern, flags, allowGlobal, icu)
	if err != nil {
		return nil, err
	}
	regexCache.Lock()
	if regexCache.m == nil || len(regexCache.m) >= 256 {
		regexCache.m = map[regexKey]*pgRegex{}
	}
	regexCache.m[key] = r
	regexCache.Unlock()
	return r, nil
}

func compilePGRegex(fn, pattern, flags string, allowGlobal, icu bool) (*pgRegex, error) {
	r := &pgRegex{}
	opt := areOptions{icu: icu}
	for _, f := range flags {
		if f == 'g' {
			if !allowGlobal {
				return nil, pgerr.New(pgerr.InvalidParameter, "%s() does not support the \"global\" option", fn).
					WithHint("Use the regexp_matches function instead.")
			}
			r.global = true
			continue
		}
		if !opt.set(f) {
			return nil, pgerr.New(pgerr.InvalidParameter, "invalid regular expression option: \"%c\"", f)
		}
	}
	prog, err := compileARE(pattern, opt)
	if err != nil {
		return nil, err
	}
	r.are = prog
	// RE2 matches what it can as PostgreSQL does: it is linear and
	// faster. The rest is left to the matcher of are_match.go.
	src, ok := prog.re2Source()
	if !ok {
		return r, nil
	}
	greedy, lazyOnly := prog.greediness()
	// RE2's extents are PostgreSQL's for a pattern without
	// subexpressions whose quantifiers are all greedy or all
	// non-greedy; the extents of subexpressions follow rules of
	// PostgreSQL's own (a concatenation split before choosing among
	// alternatives, the last repetition of a quantified group after the
	// others took the most) that RE2 shares only without alternation,
	// quantified groups or non-greedy quantifiers.
	r.re2Extents = (greedy || lazyOnly) && (prog.ncap == 0 || prog.re2Captures())
	parsed, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return r, nil
	}
	prog2, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return r, nil
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return r, nil
	}
	r.contextual = contextual(parsed)
	r.prog, r.re = prog2, re
	if greedy {
		// PostgreSQL's match is then the longest at the leftmost
		// position; with only non-greedy quantifiers and no |, the
		// shortest, which is what a backtracking search finds first.
		r.re.Longest()
	}
	return r, nil
}

// match reports whether r matches somewhere in s.
func (r *pgRegex) match(s string) (bool, error) {
	if r.re != nil {
		return r.re.MatchString(s), nil
	}
	return r.are.match(s)
}

func invalidRegex(err error) error {
	msg := err.Error()
	if se, ok := err.(*syntax.Error); ok {
		msg = string(se.Code)
	}
	return pgerr.New(pgerr.InvalidRegex, "invalid regular expression: %s", msg)
}

func contextual(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, s := range re.Sub {
		if contextual(s) {
			return true
		}
	}
	return false
}

// findAll returns the submatch indexes of the matches of r in s from the
// byte offset start on, as PostgreSQL finds them (see init); all of them
// when r has the g option or all is set by the caller, which passes
// limit -1.
func (r *pgRegex) findAll(s string, start, limit int) ([][]int, error) {
	if start > len(s) {
		return nil, nil
	}
	if !r.re2Extents || start > 0 && r.contextual {
		// Go's matcher cannot see the text before the start.
		return r.are.findAll(s, start, limit)
	}
	sub := s[start:]
	ms := r.re.FindAllStringSubmatchIndex(sub, limit)
	out := ms[:0:0]
	for i, m := range ms {
		for j := range m {
			if m[j] >= 0 {
				m[j] += start
			}
		}
		out = append(out, m)
		end := m[1]
		if m[0] == end || i+1 < len(ms) && ms[i+1][0] == end-start {
			continue
		}
		if r.emptyAt(s, end) {
			if len(m) > 2 {
				// The empty match's subexpressions are not known here.
				return r.are.findAll(s, start, limit)
			}
			e := make([]int, len(m))
			for j := range e {
				e[j] = -1
			}
			e[0], e[1] = end, end
			out = append(out, e)
		}
	}
	return out, nil
}

// nth is the n-th match (1-based) from start on, or nil.
func (r *pgRegex) nth(s string, start, n int) ([]int, error) {
	ms, err := r.findAll(s, start, -1)
	if err != nil || len(ms) < n {
		return nil, err
	}
	return ms[n-1], nil
}

// emptyAt reports whether r matches the empty string at byte offset i of
// s: whether its program reaches a match from its start without reading
// a character, through the assertions that hold between the characters
// around i.
func (r *pgRegex) emptyAt(s string, i int) bool {
	r1, r2 := rune(-1), rune(-1)
	if i > 0 {
		r1, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	if i < len(s) {
		r2, _ = utf8.DecodeRuneInString(s[i:])
	}
	ctx := syntax.EmptyOpContext(r1, r2)
	seen := make([]bool, len(r.prog.Inst))
	stack := []uint32{uint32(r.prog.Start)}
	for len(stack) > 0 {
		pc := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[pc] {
			continue
		}
		seen[pc] = true
		in := &r.prog.Inst[pc]
		switch in.Op {
		case syntax.InstMatch:
			return true
		case syntax.InstAlt, syntax.InstAltMatch:
			stack = append(stack, in.Out, in.Arg)
		case syntax.InstCapture, syntax.InstNop:
			stack = append(stack, in.Out)
		case syntax.InstEmptyWidth:
			if syntax.EmptyOp(in.Arg)&^ctx == 0 {
				stack = append(stack, in.Out)
			}
		}
	}
	return false
}

// similarRegexFor compiles a SIMILAR TO pattern with escape string esc
// as PostgreSQL does: translated to an advanced regular expression
// (SimilarToRegex), then compiled and matched as any other, with its
// errors. fold matches case-insensitively; icu: under an ICU collation
// (pgRegexUnder).
func similarRegexFor(pattern, esc string, fold, icu bool) (*pgRegex, error) {
	src, err := SimilarToRegex(pattern, esc)
	if err != nil {
		return nil, err
	}
	flags := ""
	if fold {
		flags = "i"
	}
	return pgRegexUnder("similar", src, flags, false, icu)
}

// firstSubmatch is substring(s FROM re)'s answer: the first
// parenthesized subexpression's match when re has one (NULL when it took
// no part), else the whole match; NULL without a match.
func firstSubmatch(re *pgRegex, s string) (value.Value, error) {
	m, err := re.nth(s, 0, 1)
	if err != nil || m == nil {
		return value.Null, err
	}
	g := 0
	if len(m) > 2 {
		g = 1
	}
	if m[2*g] < 0 {
		return value.Null, nil
	}
	return text(s[m[2*g]:m[2*g+1]]), nil
}
