package expr

import (
	"fmt"
	"regexp"
	"strings"
)

// re2Source writes a parsed advanced regular expression in Go's syntax,
// for RE2 to match, or returns false when the pattern uses what RE2 has
// not: back-references, lookahead and lookbehind, \m and \M.
func (p *areProg) re2Source() (string, bool) {
	var sb strings.Builder
	// No i: foldCases wrote the pattern's cases out, and RE2's folding
	// is Unicode's (ſ matches s), which neither C nor ICU's is.
	sb.WriteString("(?s)")
	if !p.writeRE2(&sb, p.root) {
		return "", false
	}
	return sb.String(), true
}

func (p *areProg) writeRE2(sb *strings.Builder, n *areNode) bool {
	switch n.op {
	case areLit:
		sb.WriteString(regexp.QuoteMeta(string(n.r)))
	case areAny:
		if p.nlStop {
			sb.WriteString(`[^\n]`)
		} else {
			sb.WriteString(".")
		}
	case areClass:
		if !writeRE2Class(sb, n.cls, p.icu) {
			return false
		}
	case areEmpty:
		sb.WriteString("(?:)")
	case areBOL:
		if p.nlAnchor {
			sb.WriteString("(?m:^)")
		} else {
			sb.WriteString(`\A`)
		}
	case areEOL:
		if p.nlAnchor {
			sb.WriteString("(?m:$)")
		} else {
			sb.WriteString(`\z`)
		}
	case areBOT:
		sb.WriteString(`\A`)
	case areEOT:
		sb.WriteString(`\z`)
	case areWordB, areNotWordB:
		if p.icu {
			// RE2's word characters are ASCII's, ICU's are not.
			return false
		}
		if n.op == areWordB {
			sb.WriteString(`\b`)
		} else {
			sb.WriteString(`\B`)
		}
	case areConcat:
		sb.WriteString("(?:")
		for _, s := range n.subs {
			if !p.writeRE2(sb, s) {
				return false
			}
		}
		sb.WriteString(")")
	case areAlt:
		sb.WriteString("(?:")
		for i, s := range n.subs {
			if i > 0 {
				sb.WriteString("|")
			}
			if !p.writeRE2(sb, s) {
				return false
			}
		}
		sb.WriteString(")")
	case areGroup:
		if n.capno > 0 {
			sb.WriteString("(")
		} else {
			sb.WriteString("(?:")
		}
		if !p.writeRE2(sb, n.subs[0]) {
			return false
		}
		sb.WriteString(")")
	case areRepeat:
		if n.max > 1000 || n.min > 1000 {
			return false
		}
		sb.WriteString("(?:")
		if !p.writeRE2(sb, n.subs[0]) {
			return false
		}
		sb.WriteString(")")
		if n.max < 0 {
			fmt.Fprintf(sb, "{%d,}", n.min)
		} else {
			fmt.Fprintf(sb, "{%d,%d}", n.min, n.max)
		}
		if n.pref == areShorter {
			sb.WriteString("?")
		}
	default:
		return false
	}
	return true
}

// writeRE2Class writes the bracket expression c in RE2's syntax, its
// classes under an ICU collation's properties (icu) or C's; false when
// RE2 cannot say one of them.
func writeRE2Class(sb *strings.Builder, c *areCharClass, icu bool) bool {
	sb.WriteString("[")
	if c.neg {
		sb.WriteString("^")
		if c.noNL {
			sb.WriteString(`\n`)
		}
	}
	if len(c.ranges) == 0 && len(c.classes) == 0 {
		// An empty set cannot be written in Go; \x{10FFFF} stands for
		// the character no text holds here.
		sb.WriteString(`\x{10FFFF}`)
	}
	for i := 0; i < len(c.ranges); i += 2 {
		fmt.Fprintf(sb, `\x{%x}`, c.ranges[i])
		if c.ranges[i+1] != c.ranges[i] {
			fmt.Fprintf(sb, `-\x{%x}`, c.ranges[i+1])
		}
	}
	for _, name := range c.classes {
		if icu {
			if !re2ClassICU(sb, name) {
				return false
			}
			continue
		}
		if !re2ClassFixed(sb, name) {
			if name[0] == '^' {
				fmt.Fprintf(sb, "[:^%s:]", name[1:])
			} else {
				fmt.Fprintf(sb, "[:%s:]", name)
			}
		}
	}
	sb.WriteString("]")
	return true
}

// re2ClassFixed writes one of the classes PostgreSQL fixes whatever the
// locale (inClassFixed) inside an RE2 bracket expression; false for
// another, or a complement.
func re2ClassFixed(sb *strings.Builder, name string) bool {
	switch name {
	case "ascii":
		sb.WriteString(`\x00-\x7f`)
	case "blank":
		sb.WriteString(`\t `)
	case "cntrl":
		sb.WriteString(`\x00-\x1f\x7f-\x{9f}`)
	case "xdigit":
		sb.WriteString(`0-9A-Fa-f`)
	default:
		return false
	}
	return true
}

// greediness reports whether the pattern's quantifiers are all greedy
// (or it has none), and whether they are all non-greedy with no
// alternation: the two cases where RE2's match has PostgreSQL's extent.
func (p *areProg) greediness() (greedy, lazyOnly bool) {
	nGreedy, nLazy, alt := 0, 0, false
	var walk func(n *areNode)
	walk = func(n *areNode) {
		switch {
		case n.op == areRepeat && n.pref == areLonger:
			nGreedy++
		case n.op == areRepeat && n.pref == areShorter:
			nLazy++
		case n.op == areAlt:
			alt = true
		}
		for _, s := range n.subs {
			walk(s)
		}
	}
	walk(p.root)
	return nLazy == 0, nGreedy == 0 && !alt
}

// re2Captures reports whether RE2's extents of the subexpressions are
// PostgreSQL's: with greedy quantifiers only, no alternation and no
// quantified group holding a capture, both give each part, in order,
// the longest text that lets the rest of the match hold.
func (p *areProg) re2Captures() bool {
	var ok func(n *areNode, underRepeat bool) bool
	ok = func(n *areNode, underRepeat bool) bool {
		switch {
		case n.op == areAlt, n.op == areRepeat && n.pref == areShorter, n.op == areGroup && n.capno > 0 && underRepeat:
			return false
		}
		for _, s := range n.subs {
			if !ok(s, underRepeat || n.op == areRepeat && !(n.min == 1 && n.max == 1)) {
				return false
			}
		}
		return true
	}
	return ok(p.root, false)
}
