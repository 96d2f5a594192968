package expr

import (
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// PostgreSQL's advanced regular expressions (ARE), parsed into a syntax
// tree for the matcher of are_match.go, which handles what Go's RE2
// cannot match as PostgreSQL does: back-references, lookahead and
// lookbehind constraints, \m and \M, and the extent of matches of
// patterns mixing greedy and non-greedy quantifiers. The syntax is
// PostgreSQL's (section 9.7.3 of its documentation); errors are its
// errors (2201B with its messages).

type areOp uint8

const (
	areLit       areOp = iota // r
	areAny                    // .
	areClass                  // a bracket expression or class escape
	areEmpty                  // matches the empty string
	areBOL                    // ^
	areEOL                    // $
	areBOT                    // \A
	areEOT                    // \Z
	areWordStart              // \m
	areWordEnd                // \M
	areWordB                  // \y
	areNotWordB               // \Y
	areLook                   // lookahead (ahead) or lookbehind, negated when neg
	areConcat
	areAlt
	areRepeat // subs[0]{min,max}, max -1 for no bound
	areGroup  // (…) capturing when capno > 0, else (?:…)
	areBackref
)

// areNode is a node of a parsed pattern. id numbers the nodes of one
// pattern, for the matcher's memo.
type areNode struct {
	op       areOp
	r        rune
	cls      *areCharClass
	subs     []*areNode
	min, max int
	pref     int // LONGER or SHORTER for a quantifier, 0 for {m} or none
	capno    int
	ahead    bool
	neg      bool
	id       int
}

// areCharClass is a set of characters: ranges (lo, hi pairs) and named
// classes, complemented when neg. noNL: a complemented set that does not
// match a newline (the newline-sensitive options).
type areCharClass struct {
	neg     bool
	noNL    bool
	ranges  []rune
	classes []string
}

// Greediness flags, as PostgreSQL's regex compiler keeps them for each
// node of its tree of subexpressions.
const (
	areLonger  = 1
	areShorter = 2
	areMixed   = 4
	areCap     = 8
	areBackr   = 16
)

func areUp(f int) int {
	g := f &^ (areLonger | areShorter)
	if f&areLonger != 0 && f&areShorter != 0 {
		g |= areMixed
	}
	return g
}

func arePref2(f1, f2 int) int {
	if p := f1 & (areLonger | areShorter); p != 0 {
		return p
	}
	return f2 & (areLonger | areShorter)
}

func areCombine(f1, f2 int) int { return areUp(f1|f2) | arePref2(f1, f2) }

func areMessy(f int) bool { return f&(areMixed|areCap|areBackr) != 0 }

// areOptions are the options in effect: the function's flags, then the
// pattern's embedded ones.
type areOptions struct {
	fold     bool // i
	nlStop   bool // . and [^…] do not match a newline (n, p)
	nlAnchor bool // ^ and $ match at newlines (n, w)
	expanded bool // x
	quote    bool // q: the whole pattern is a literal
	basic    bool // b
	extended bool // e: POSIX extended, no ARE escapes
	icu      bool // under an ICU collation: its case mappings (foldCases)
}

func (o *areOptions) set(f rune) bool {
	switch f {
	case 'b':
		o.basic, o.extended = true, false
	case 'e':
		// PostgreSQL's regexp functions clear the extended bit with
		// the advanced one: e reads a basic regular expression too.
		o.basic, o.extended = true, false
	case 'c':
		o.fold = false
	case 'i':
		o.fold = true
	case 'm', 'n':
		o.nlStop, o.nlAnchor = true, true
	case 'p':
		o.nlStop, o.nlAnchor = true, false
	case 's':
		o.nlStop, o.nlAnchor = false, false
	case 'w':
		o.nlStop, o.nlAnchor = false, true
	case 'q':
		o.quote = true
	case 't':
		o.expanded = false
	case 'x':
		o.expanded = true
	default:
		return false
	}
	return true
}

type areParser struct {
	p    []rune
	i    int
	opt  areOptions
	ncap int        // capturing parentheses opened so far
	caps []*areNode // caps[n]: the group of \n once closed
	nids int
	look bool // inside a lookaround constraint: no captures, no back-references
}

func areError(msg string) error {
	return pgerr.New(pgerr.InvalidRegex, "invalid regular expression: %s", msg)
}

const areDupMax = 255

// parseARE parses pattern under opt (which it updates with the
// embedded options).
func parseARE(pattern string, opt areOptions) (*areNode, *areParser, error) {
	ps := &areParser{p: []rune(pattern), opt: opt, caps: []*areNode{nil}}
	if !opt.quote {
		// ***= makes the rest a literal, ***: an ARE, whatever the
		// options said.
		switch {
		case strings.HasPrefix(pattern, "***="):
			ps.i = 4
			ps.opt.quote, ps.opt.basic, ps.opt.extended = true, false, false
		case strings.HasPrefix(pattern, "***:"):
			ps.i = 4
			ps.opt.basic, ps.opt.extended = false, false
		}
	}
	if !ps.opt.quote && !ps.opt.basic && !ps.opt.extended && ps.has("(?") && ps.i+2 < len(ps.p) && isAlpha(ps.p[ps.i+2]) {
		ps.i += 2
		for ps.i < len(ps.p) && ps.p[ps.i] != ')' {
			if !ps.opt.set(ps.p[ps.i]) {
				return nil, nil, areError("invalid embedded option")
			}
			ps.i++
		}
		if ps.i == len(ps.p) {
			return nil, nil, areError("invalid embedded option")
		}
		ps.i++
	}
	var n *areNode
	if ps.opt.basic && !ps.opt.quote {
		var err error
		if n, err = ps.breBranch(); err != nil {
			return nil, nil, err
		}
		if ps.i < len(ps.p) {
			return nil, nil, areError("parentheses () not balanced")
		}
	} else if ps.opt.quote {
		subs := make([]*areNode, 0, len(ps.p)-ps.i)
		for _, r := range ps.p[ps.i:] {
			subs = append(subs, ps.node(areNode{op: areLit, r: r}))
		}
		n = ps.node(areNode{op: areConcat, subs: subs})
	} else {
		var err error
		if n, err = ps.alt(); err != nil {
			return nil, nil, err
		}
		if ps.i < len(ps.p) {
			return nil, nil, areError("parentheses () not balanced")
		}
	}
	return n, ps, nil
}

func (ps *areParser) node(n areNode) *areNode {
	n.id = ps.nids
	ps.nids++
	return &n
}

func (ps *areParser) has(s string) bool {
	j := ps.i
	for _, r := range s {
		if j >= len(ps.p) || ps.p[j] != r {
			return false
		}
		j++
	}
	return true
}

// skip passes over (?#…) comments, and white space and # comments in
// expanded mode.
func (ps *areParser) skip() {
	for ps.i < len(ps.p) {
		c := ps.p[ps.i]
		switch {
		case !ps.opt.extended && ps.has("(?#"):
			for ps.i < len(ps.p) && ps.p[ps.i] != ')' {
				ps.i++
			}
			if ps.i < len(ps.p) {
				ps.i++
			}
		case !ps.opt.expanded:
			return
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			ps.i++
		case c == '#':
			for ps.i < len(ps.p) && ps.p[ps.i] != '\n' {
				ps.i++
			}
		default:
			return
		}
	}
}

func (ps *areParser) alt() (*areNode, error) {
	var branches []*areNode
	for {
		b, err := ps.branch()
		if err != nil {
			return nil, err
		}
		branches = append(branches, b)
		ps.skip()
		if ps.i < len(ps.p) && ps.p[ps.i] == '|' {
			ps.i++
			continue
		}
		break
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return ps.node(areNode{op: areAlt, subs: branches}), nil
}

func (ps *areParser) branch() (*areNode, error) {
	var items []*areNode
	for {
		ps.skip()
		if ps.i >= len(ps.p) || ps.p[ps.i] == '|' || ps.p[ps.i] == ')' {
			break
		}
		a, constraint, err := ps.atom()
		if err != nil {
			return nil, err
		}
		ps.skip()
		q, err := ps.quantifier(a)
		if err != nil {
			return nil, err
		}
		if q != a && constraint {
			return nil, areError("quantifier operand invalid")
		}
		items = append(items, q)
	}
	return ps.node(areNode{op: areConcat, subs: items}), nil
}

// counts parses a bound's counts after its opening brace: m, m, or m,n
// (n is -1 when unbounded). comma tells {m} (which passes its atom's
// greediness through) from {m,m} (which has a preference, as every
// bound with a comma has in PostgreSQL).
func (ps *areParser) counts() (m, n int, comma bool, err error) {
	if m, err = ps.number(); err != nil {
		return 0, 0, false, err
	}
	n = m
	if ps.i < len(ps.p) && ps.p[ps.i] == ',' {
		ps.i++
		comma = true
		n = -1
		if ps.i < len(ps.p) && isDigit(ps.p[ps.i]) {
			if n, err = ps.number(); err != nil {
				return 0, 0, false, err
			}
			if n < m {
				return 0, 0, false, areError("invalid repetition count(s)")
			}
		}
	}
	return m, n, comma, nil
}

// quantifier parses the quantifier after a, if any.
func (ps *areParser) quantifier(a *areNode) (*areNode, error) {
	if ps.i >= len(ps.p) {
		return a, nil
	}
	m, n, comma := 0, -1, true
	switch c := ps.p[ps.i]; {
	case c == '*':
		ps.i++
	case c == '+':
		m = 1
		ps.i++
	case c == '?':
		n = 1
		ps.i++
	case c == '{' && ps.i+1 < len(ps.p) && isDigit(ps.p[ps.i+1]):
		ps.i++
		var err error
		if m, n, comma, err = ps.counts(); err != nil {
			return nil, err
		}
		if ps.i >= len(ps.p) || ps.p[ps.i] != '}' {
			if ps.i < len(ps.p) && !isDigit(ps.p[ps.i]) {
				return nil, areError("invalid repetition count(s)")
			}
			return nil, areError("braces {} not balanced")
		}
		ps.i++
	default:
		return a, nil
	}
	pref := areLonger
	if ps.i < len(ps.p) && ps.p[ps.i] == '?' && !ps.opt.extended {
		pref = areShorter
		ps.i++
	}
	if !comma {
		// {m} and {m}? pass the atom's greediness through.
		pref = 0
	}
	ps.skip()
	if ps.i < len(ps.p) {
		switch c := ps.p[ps.i]; {
		case c == '*' || c == '+' || c == '?' || c == '{' && ps.i+1 < len(ps.p) && isDigit(ps.p[ps.i+1]):
			return nil, areError("quantifier operand invalid")
		}
	}
	return ps.node(areNode{op: areRepeat, subs: []*areNode{a}, min: m, max: n, pref: pref}), nil
}

func (ps *areParser) number() (int, error) {
	n := 0
	for ps.i < len(ps.p) && isDigit(ps.p[ps.i]) {
		n = n*10 + int(ps.p[ps.i]-'0')
		if n > areDupMax {
			return 0, areError("invalid repetition count(s)")
		}
		ps.i++
	}
	return n, nil
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }
func isAlpha(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// atom parses one atom; constraint: it cannot be quantified.
func (ps *areParser) atom() (*areNode, bool, error) {
	c := ps.p[ps.i]
	ps.i++
	switch c {
	case '(':
		if ps.has("?") && !ps.opt.extended {
			switch {
			case ps.has("?:"):
				ps.i += 2
				sub, err := ps.group()
				return ps.node(areNode{op: areGroup, subs: []*areNode{sub}}), false, err
			case ps.has("?="), ps.has("?!"), ps.has("?<="), ps.has("?<!"):
				ahead := ps.p[ps.i+1] != '<'
				neg := ps.has("?!") || ps.has("?<!")
				ps.i += 2
				if !ahead {
					ps.i++
				}
				outer := ps.look
				ps.look = true
				sub, err := ps.group()
				ps.look = outer
				return ps.node(areNode{op: areLook, subs: []*areNode{sub}, ahead: ahead, neg: neg}), true, err
			}
			return nil, false, areError("quantifier operand invalid")
		}
		if ps.look {
			sub, err := ps.group()
			return ps.node(areNode{op: areGroup, subs: []*areNode{sub}}), false, err
		}
		ps.ncap++
		capno := ps.ncap
		ps.caps = append(ps.caps, nil)
		sub, err := ps.group()
		if err != nil {
			return nil, false, err
		}
		g := ps.node(areNode{op: areGroup, subs: []*areNode{sub}, capno: capno})
		ps.caps[capno] = g
		return g, false, nil
	case ')':
		return nil, false, areError("parentheses () not balanced")
	case '[':
		if ps.has("[:<:]]") || ps.has("[:>:]]") {
			op := areWordStart
			if ps.p[ps.i+2] == '>' {
				op = areWordEnd
			}
			ps.i += 6
			return ps.node(areNode{op: op}), true, nil
		}
		cls, err := ps.bracket()
		if err != nil {
			return nil, false, err
		}
		return ps.node(areNode{op: areClass, cls: cls}), false, nil
	case '.':
		return ps.node(areNode{op: areAny}), false, nil
	case '^':
		return ps.node(areNode{op: areBOL}), true, nil
	case '$':
		return ps.node(areNode{op: areEOL}), true, nil
	case '*', '+', '?':
		return nil, false, areError("quantifier operand invalid")
	case '{':
		if ps.i < len(ps.p) && isDigit(ps.p[ps.i]) {
			return nil, false, areError("quantifier operand invalid")
		}
	case '\\':
		return ps.escape()
	}
	return ps.node(areNode{op: areLit, r: c}), false, nil
}

func (ps *areParser) group() (*areNode, error) {
	sub, err := ps.alt()
	if err != nil {
		return nil, err
	}
	if ps.i >= len(ps.p) || ps.p[ps.i] != ')' {
		return nil, areError("parentheses () not balanced")
	}
	ps.i++
	return sub, nil
}

// escape parses what follows a backslash outside brackets.
func (ps *areParser) escape() (*areNode, bool, error) {
	if ps.i >= len(ps.p) {
		return nil, false, areError("invalid escape \\ sequence")
	}
	c := ps.p[ps.i]
	if ps.opt.extended {
		// A POSIX extended regular expression has no escapes but the
		// quoting of the next character, and no back-references.
		ps.i++
		if c >= '1' && c <= '9' {
			return nil, false, areError("invalid backreference number")
		}
		return ps.node(areNode{op: areLit, r: c}), false, nil
	}
	switch c {
	case 'A':
		ps.i++
		return ps.node(areNode{op: areBOT}), true, nil
	case 'Z':
		ps.i++
		return ps.node(areNode{op: areEOT}), true, nil
	case 'm':
		ps.i++
		return ps.node(areNode{op: areWordStart}), true, nil
	case 'M':
		ps.i++
		return ps.node(areNode{op: areWordEnd}), true, nil
	case 'y':
		ps.i++
		return ps.node(areNode{op: areWordB}), true, nil
	case 'Y':
		ps.i++
		return ps.node(areNode{op: areNotWordB}), true, nil
	case 'd', 's', 'w', 'D', 'S', 'W':
		ps.i++
		return ps.node(areNode{op: areClass, cls: classEscape(c, ps.opt.nlStop)}), false, nil
	}
	if c >= '1' && c <= '9' {
		// \n is a back-reference; \nn too when there are that many
		// subexpressions, else an octal character.
		start := ps.i
		n := 0
		for ps.i < len(ps.p) && isDigit(ps.p[ps.i]) && n <= areDupMax {
			n = n*10 + int(ps.p[ps.i]-'0')
			ps.i++
		}
		if ps.i == start+1 || n <= ps.ncap {
			return ps.backref(n)
		}
		ps.i = start
	}
	r, err := ps.charEscape()
	if err != nil {
		return nil, false, err
	}
	return ps.node(areNode{op: areLit, r: r}), false, nil
}

func (ps *areParser) backref(n int) (*areNode, bool, error) {
	if ps.look || n >= len(ps.caps) || ps.caps[n] == nil {
		return nil, false, areError("invalid backreference number")
	}
	return ps.node(areNode{op: areBackref, capno: n}), false, nil
}

// charEscape reads a character-entry escape (after the backslash).
func (ps *areParser) charEscape() (rune, error) {
	c := ps.p[ps.i]
	ps.i++
	digits := func(base, min, max int) (rune, error) {
		v, k := 0, 0
		for k < max && ps.i < len(ps.p) {
			d := digitValue(ps.p[ps.i])
			if d < 0 || d >= base {
				break
			}
			v = v*base + d
			ps.i++
			k++
		}
		if k < min || v > utf8.MaxRune {
			return 0, areError("invalid escape \\ sequence")
		}
		return rune(v), nil
	}
	switch c {
	case 'a':
		return 7, nil
	case 'b':
		return 8, nil
	case 'B':
		return '\\', nil
	case 'c':
		if ps.i >= len(ps.p) {
			return 0, areError("invalid escape \\ sequence")
		}
		ps.i++
		return ps.p[ps.i-1] & 0x1f, nil
	case 'e':
		return 27, nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'v':
		return '\v', nil
	case 'u':
		return digits(16, 4, 4)
	case 'U':
		return digits(16, 8, 8)
	case 'x':
		return digits(16, 1, 255)
	}
	if isDigit(c) {
		ps.i--
		r, err := digits(8, 1, 3)
		if err != nil {
			return 0, err
		}
		if r == 0 {
			return 0, areError("invalid escape \\ sequence")
		}
		return r, nil
	}
	if isAlpha(c) {
		return 0, areError("invalid escape \\ sequence")
	}
	return c, nil
}

func digitValue(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r >= 'a' && r <= 'f':
		return int(r-'a') + 10
	case r >= 'A' && r <= 'F':
		return int(r-'A') + 10
	}
	return -1
}

func classEscape(c rune, nlStop bool) *areCharClass {
	name := map[rune]string{'d': "digit", 's': "space", 'w': "word"}[c|0x20]
	cls := &areCharClass{classes: []string{name}}
	if c < 'a' {
		cls.neg = true
	}
	return cls
}

// bracket parses a bracket expression after its [.
func (ps *areParser) bracket() (*areCharClass, error) {
	cls := &areCharClass{}
	if ps.i < len(ps.p) && ps.p[ps.i] == '^' {
		cls.neg = true
		cls.noNL = ps.opt.nlStop
		ps.i++
	}
	first := true
	for {
		if ps.i >= len(ps.p) {
			return nil, areError("brackets [] not balanced")
		}
		c := ps.p[ps.i]
		if c == ']' && !first {
			ps.i++
			return cls, nil
		}
		first = false
		ps.i++
		var lo rune
		switch {
		case c == '[' && ps.i < len(ps.p) && ps.p[ps.i] == ':':
			end := ps.find(":]")
			if end < 0 {
				return nil, areError("brackets [] not balanced")
			}
			name := string(ps.p[ps.i+1 : end])
			if !knownClass(name) {
				return nil, areError("invalid character class")
			}
			ps.i = end + 2
			if ps.i < len(ps.p)-1 && ps.p[ps.i] == '-' && ps.p[ps.i+1] != ']' {
				return nil, areError("invalid character range")
			}
			cls.classes = append(cls.classes, name)
			continue
		case c == '[' && ps.i < len(ps.p) && (ps.p[ps.i] == '.' || ps.p[ps.i] == '='):
			r, err := ps.collating(ps.p[ps.i])
			if err != nil {
				return nil, err
			}
			lo = r
		case c == '\\' && !ps.opt.extended && !ps.opt.basic:
			if ps.i >= len(ps.p) {
				return nil, areError("brackets [] not balanced")
			}
			switch d := ps.p[ps.i]; d {
			case 'd', 's', 'w', 'D', 'S', 'W':
				ps.i++
				e := classEscape(d, false)
				if e.neg {
					cls.classes = append(cls.classes, "^"+e.classes[0])
				} else {
					cls.classes = append(cls.classes, e.classes[0])
				}
				continue
			case 'A', 'Z', 'm', 'M', 'y', 'Y':
				return nil, areError("invalid escape \\ sequence")
			}
			r, err := ps.charEscape()
			if err != nil {
				return nil, err
			}
			lo = r
		default:
			lo = c
		}
		hi := lo
		if ps.i+1 < len(ps.p) && ps.p[ps.i] == '-' && ps.p[ps.i+1] != ']' {
			ps.i++
			c := ps.p[ps.i]
			ps.i++
			switch {
			case c == '[' && ps.i < len(ps.p) && (ps.p[ps.i] == '.' || ps.p[ps.i] == '='):
				r, err := ps.collating(ps.p[ps.i])
				if err != nil {
					return nil, err
				}
				hi = r
			case c == '[' && ps.i < len(ps.p) && ps.p[ps.i] == ':':
				return nil, areError("invalid character range")
			case c == '\\' && !ps.opt.extended && !ps.opt.basic:
				if ps.i >= len(ps.p) {
					return nil, areError("brackets [] not balanced")
				}
				if strings.ContainsRune("dswDSWAZmMyY", ps.p[ps.i]) {
					return nil, areError("invalid character range")
				}
				r, err := ps.charEscape()
				if err != nil {
					return nil, err
				}
				hi = r
			default:
				hi = c
			}
			if hi < lo {
				return nil, areError("invalid character range")
			}
		}
		cls.ranges = append(cls.ranges, lo, hi)
	}
}

// find returns the index of s from ps.i+1 on, or -1.
func (ps *areParser) find(s string) int {
	rs := []rune(s)
	for j := ps.i + 1; j+len(rs) <= len(ps.p); j++ {
		if string(ps.p[j:j+len(rs)]) == s {
			return j
		}
	}
	return -1
}

// collating reads [.x.] or [=x=] (after the [): a single character or
// the name of one.
func (ps *areParser) collating(kind rune) (rune, error) {
	end := ps.find(string(kind) + "]")
	if end < 0 {
		return 0, areError("brackets [] not balanced")
	}
	name := string(ps.p[ps.i+1 : end])
	ps.i = end + 2
	if utf8.RuneCountInString(name) == 1 {
		r, _ := utf8.DecodeRuneInString(name)
		return r, nil
	}
	if r, ok := collatingNames[name]; ok {
		return r, nil
	}
	return 0, areError("invalid collating element")
}

// collatingNames are the POSIX names of the ASCII characters.
var collatingNames = func() map[string]rune {
	names := []string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "alert", "backspace", "tab",
		"newline", "vertical-tab", "form-feed", "carriage-return", "SO", "SI", "DLE", "DC1", "DC2", "DC3",
		"DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "IS4", "IS3", "IS2", "IS1", "space",
		"exclamation-mark", "quotation-mark", "number-sign", "dollar-sign", "percent-sign", "ampersand",
		"apostrophe", "left-parenthesis", "right-parenthesis", "asterisk", "plus-sign", "comma", "hyphen",
		"period", "slash", "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
		"colon", "semicolon", "less-than-sign", "equals-sign", "greater-than-sign", "question-mark",
		"commercial-at"}
	m := make(map[string]rune, len(names)+40)
	for i, n := range names {
		m[n] = rune(i)
	}
	for i, n := range []string{"left-square-bracket", "backslash", "right-square-bracket", "circumflex",
		"underscore", "grave-accent"} {
		m[n] = rune('[' + i)
	}
	for i, n := range []string{"left-brace", "vertical-line", "right-brace", "tilde", "DEL"} {
		m[n] = rune('{' + i)
	}
	m["hyphen-minus"] = '-'
	m["full-stop"] = '.'
	m["solidus"] = '/'
	m["reverse-solidus"] = '\\'
	m["left-curly-bracket"] = '{'
	m["right-curly-bracket"] = '}'
	m["low-line"] = '_'
	m["FS"], m["GS"], m["RS"], m["US"] = 28, 29, 30, 31
	m["LF"], m["VT"], m["FF"], m["CR"] = 10, 11, 12, 13
	return m
}()

func knownClass(name string) bool {
	switch name {
	case "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit", "word":
		return true
	}
	return false
}

// inClass reports whether r is in the named class ("^name": not in it),
// under an ICU collation's character properties (icu, inClassICU) or in
// the C locale (ASCII only), as PostgreSQL classifies characters there.
func inClass(name string, r rune, icu bool) bool {
	if name[0] == '^' {
		return !inClass(name[1:], r, icu)
	}
	if icu {
		return inClassICU(name, r)
	}
	switch name {
	case "ascii", "blank", "cntrl", "xdigit":
		return inClassFixed(name, r)
	}
	if r > 127 {
		return false
	}
	switch name {
	case "alnum":
		return isAlpha(r) || isDigit(r)
	case "alpha":
		return isAlpha(r)
	case "digit":
		return isDigit(r)
	case "graph":
		return r > 32 && r < 127
	case "lower":
		return r >= 'a' && r <= 'z'
	case "print":
		return r >= 32 && r < 127
	case "punct":
		return r > 32 && r < 127 && !isAlpha(r) && !isDigit(r)
	case "space":
		return r == ' ' || r >= '\t' && r <= '\r'
	case "upper":
		return r >= 'A' && r <= 'Z'
	case "word":
		return isAlpha(r) || isDigit(r) || r == '_'
	}
	return false
}

// inClassFixed reports whether r is in one of the classes PostgreSQL
// fixes whatever the locale: [:ascii:], [:blank:] (space and tab),
// [:cntrl:] (U+0000–U+001F and U+007F–U+009F) and [:xdigit:].
func inClassFixed(name string, r rune) bool {
	switch name {
	case "ascii":
		return r <= 0x7f
	case "blank":
		return r == ' ' || r == '\t'
	case "cntrl":
		return r < 32 || r >= 0x7f && r <= 0x9f
	case "xdigit":
		return digitValue(r) >= 0
	}
	return false
}

// breBranch parses a POSIX basic regular expression (up to \) or its
// end): \( \) group, \{m,n\} bounds, * repeats except first, ^ and $ are
// anchors only first and last, \< and \> are word constraints, and
// + ? | ( ) { are ordinary characters.
func (ps *areParser) breBranch() (*areNode, error) {
	var items []*areNode
	for ps.i < len(ps.p) && !ps.has("\\)") {
		c := ps.p[ps.i]
		ps.i++
		var a *areNode
		constraint := false
		switch {
		case c == '*' && (len(items) == 0 || len(items) == 1 && items[0].op == areBOL):
			a = ps.node(areNode{op: areLit, r: c})
		case c == '^' && len(items) == 0:
			a, constraint = ps.node(areNode{op: areBOL}), true
		case c == '$' && (ps.i == len(ps.p) || ps.has("\\)")):
			a, constraint = ps.node(areNode{op: areEOL}), true
		case c == '.':
			a = ps.node(areNode{op: areAny})
		case c == '[':
			cls, err := ps.bracket()
			if err != nil {
				return nil, err
			}
			a = ps.node(areNode{op: areClass, cls: cls})
		case c == '\\':
			if ps.i >= len(ps.p) {
				return nil, areError("invalid escape \\ sequence")
			}
			d := ps.p[ps.i]
			ps.i++
			switch {
			case d == '(':
				ps.ncap++
				capno := ps.ncap
				ps.caps = append(ps.caps, nil)
				sub, err := ps.breBranch()
				if err != nil {
					return nil, err
				}
				if !ps.has("\\)") {
					return nil, areError("parentheses () not balanced")
				}
				ps.i += 2
				a = ps.node(areNode{op: areGroup, subs: []*areNode{sub}, capno: capno})
				ps.caps[capno] = a
			case d == '{':
				return nil, areError("quantifier operand invalid")
			case d == '<':
				a, constraint = ps.node(areNode{op: areWordStart}), true
			case d == '>':
				a, constraint = ps.node(areNode{op: areWordEnd}), true
			case d >= '1' && d <= '9':
				var err error
				if a, _, err = ps.backref(int(d - '0')); err != nil {
					return nil, err
				}
			default:
				a = ps.node(areNode{op: areLit, r: d})
			}
		default:
			a = ps.node(areNode{op: areLit, r: c})
		}
		for ps.i < len(ps.p) && a.op != areBOL {
			m, n, comma := 0, -1, true
			if ps.p[ps.i] == '*' {
				ps.i++
			} else if ps.has("\\{") {
				ps.i += 2
				var err error
				if m, n, comma, err = ps.counts(); err != nil {
					return nil, err
				}
				if !ps.has("\\}") {
					return nil, areError("braces {} not balanced")
				}
				ps.i += 2
			} else {
				break
			}
			if constraint {
				return nil, areError("quantifier operand invalid")
			}
			pref := areLonger
			if !comma {
				pref = 0
			}
			a = ps.node(areNode{op: areRepeat, subs: []*areNode{a}, min: m, max: n, pref: pref})
		}
		items = append(items, a)
	}
	return ps.node(areNode{op: areConcat, subs: items}), nil
}
