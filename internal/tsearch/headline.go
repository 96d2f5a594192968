package tsearch

import (
	"math"
	"strconv"
	"strings"
)

// ts_headline as PostgreSQL's default parser makes it: the document's
// tokens, each lexeme marked with the query operands it matches, then the
// best cover of the query (or the best fragments) stretched to the words
// the options ask, the matching words highlighted.

// HeadlineOptions are ts_headline's options.
type HeadlineOptions struct {
	StartSel, StopSel, FragmentDelimiter string
	MaxWords, MinWords, ShortWord        int
	MaxFragments                         int
	HighlightAll                         bool
}

// ParseHeadlineOptions reads ts_headline's options text, "Name = value,
// …" with values bare, 'quoted' (E'…' too) or "quoted", as PostgreSQL's
// deserialize_deflist reads it, and checks them as its prsd_headline does.
func ParseHeadlineOptions(s string) (HeadlineOptions, error) {
	o := HeadlineOptions{StartSel: "<b>", StopSel: "</b>", FragmentDelimiter: " ... ", MaxWords: 35, MinWords: 15, ShortWord: 3}
	pairs, err := optionPairs(s)
	if err != nil {
		return o, err
	}
	for _, p := range pairs {
		var n *int
		switch strings.ToLower(p[0]) {
		case "maxwords":
			n = &o.MaxWords
		case "minwords":
			n = &o.MinWords
		case "shortword":
			n = &o.ShortWord
		case "maxfragments":
			n = &o.MaxFragments
		case "startsel":
			o.StartSel = p[1]
		case "stopsel":
			o.StopSel = p[1]
		case "fragmentdelimiter":
			o.FragmentDelimiter = p[1]
		case "highlightall":
			switch strings.ToLower(p[1]) {
			case "1", "on", "true", "t", "y", "yes":
				o.HighlightAll = true
			default:
				o.HighlightAll = false
			}
		default:
			return o, errorf(codeInvalidParam, "unrecognized headline parameter: \"%s\"", p[0])
		}
		if n != nil {
			v, err := pgInt4(p[1])
			if err != nil {
				return o, err
			}
			*n = v
		}
	}
	if !o.HighlightAll {
		switch {
		case o.MinWords >= o.MaxWords:
			return o, errorf(codeInvalidParam, "MinWords should be less than MaxWords")
		case o.MinWords <= 0:
			return o, errorf(codeInvalidParam, "MinWords should be positive")
		case o.ShortWord < 0:
			return o, errorf(codeInvalidParam, "ShortWord should be >= 0")
		case o.MaxFragments < 0:
			return o, errorf(codeInvalidParam, "MaxFragments should be >= 0")
		}
	}
	return o, nil
}

// pgInt4 reads an integer as PostgreSQL's pg_strtoint32: blanks around
// it, an optional sign, decimal digits.
func pgInt4(s string) (int, error) {
	t := strings.Trim(s, " \t\n\r\f\v")
	digits := strings.TrimLeft(t, "+-")
	if len(t)-len(digits) > 1 || digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, errorf("22P02", "invalid input syntax for type integer: \"%s\"", s)
	}
	n, err := strconv.ParseInt(t, 10, 32)
	if err != nil {
		return 0, errorf("22003", "value \"%s\" is out of range for type integer", s)
	}
	return int(n), nil
}

// optionPairs splits an options text into its names and values.
func optionPairs(s string) ([][2]string, error) {
	const (
		waitKey = iota
		inKey
		inQuotedKey
		waitEq
		waitValue
		inSingle
		inDouble
		inWord
	)
	bad := func() error { return errorf(codeSyntax, "invalid parameter list format: \"%s\"", s) }
	isSpace := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	var out [][2]string
	var key, val []byte
	state := waitKey
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch state {
		case waitKey:
			if isSpace(c) || c == ',' {
				continue
			}
			key = key[:0]
			if c == '"' {
				state = inQuotedKey
			} else {
				key = append(key, c)
				state = inKey
			}
		case inKey:
			switch {
			case isSpace(c):
				state = waitEq
			case c == '=':
				state = waitValue
			default:
				key = append(key, c)
			}
		case inQuotedKey:
			if c == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					key = append(key, c)
					i++
				} else {
					state = waitEq
				}
			} else {
				key = append(key, c)
			}
		case waitEq:
			if c == '=' {
				state = waitValue
			} else if !isSpace(c) {
				return nil, bad()
			}
		case waitValue:
			val = val[:0]
			switch {
			case c == '\'':
				state = inSingle
			case c == 'E' && i+1 < len(s) && s[i+1] == '\'':
				i++
				state = inSingle
			case c == '"':
				state = inDouble
			case !isSpace(c):
				val = append(val, c)
				state = inWord
			}
		case inSingle, inDouble:
			q := byte('\'')
			if state == inDouble {
				q = '"'
			}
			switch {
			case c == q && i+1 < len(s) && s[i+1] == q:
				val = append(val, c)
				i++
			case c == q:
				out = append(out, [2]string{string(key), string(val)})
				state = waitKey
			case c == '\\' && state == inSingle && i+1 < len(s) && s[i+1] == '\\':
				val = append(val, c)
				i++
			default:
				val = append(val, c)
			}
		case inWord:
			if c == ',' || isSpace(c) {
				out = append(out, [2]string{string(key), string(val)})
				state = waitKey
			} else {
				val = append(val, c)
			}
		}
	}
	switch state {
	case inWord:
		out = append(out, [2]string{string(key), string(val)})
	case waitKey:
	default:
		return nil, bad()
	}
	return out, nil
}

// hlWord is a token of the document with what the headline makes of it.
type hlWord struct {
	typ      TokenType
	text     string
	pos      int   // the lexeme's position, for a word matching an operand
	item     *Node // the query operand it matches; nil for none
	repeated bool  // a copy of the previous word for another operand
	selected bool  // highlighted
	replace  bool  // shown as a space (a tag)
	skip     bool  // not shown (a compound word shown by its parts)
	in       bool  // in the headline
}

// The token types the headline treats apart (PostgreSQL's macros).
func hlReplace(t TokenType) bool { return t == Tag }
func hlSkip(t TokenType) bool {
	return t == URL || t == NumHWord || t == ASCIIHWord || t == HWord
}
func nonWord(t TokenType) bool { return t == Blank || hlReplace(t) || hlSkip(t) }
func noEnd(t TokenType) bool {
	switch t {
	case SFloat, Version, Float, Int, UInt, Tag, Protocol, Blank, Entity:
		return true
	}
	return nonWord(t)
}

// headline is a document being made into a headline.
type headline struct {
	words     []hlWord
	shortWord int
}

func (h *headline) interesting(i int) bool { return h.words[i].item != nil && !h.words[i].repeated }

func (h *headline) badEnd(i int) bool {
	w := &h.words[i]
	return (noEnd(w.typ) || len(w.text) <= h.shortWord) && !h.interesting(i)
}

func (h *headline) counts(i int) bool { return !nonWord(h.words[i].typ) }

// Headline is ts_headline(c, doc, q, options).
func (c *Config) Headline(doc string, q Query, o HeadlineOptions) string {
	tree := q.Tree()
	ops := tree.Operands(nil)
	h := &headline{shortWord: o.ShortWord}
	pos := 0
	Parse(doc, func(t Token) {
		if len(t.Text) >= maxLexeme {
			return // left out, as PostgreSQL leaves it out with a notice
		}
		h.words = append(h.words, hlWord{typ: t.Type, text: t.Text})
		d := c.dicts[t.Type]
		if d == NoDict {
			return
		}
		pos++
		lex, ok := d.Lexize(t.Text)
		if !ok {
			return
		}
		at := len(h.words) - 1
		h.words[at].pos = min(pos, MaxPos)
		for _, op := range ops {
			if !(lex == op.Word || op.Prefix && strings.HasPrefix(lex, op.Word)) {
				continue
			}
			if h.words[at].item == nil {
				h.words[at].item = op
				continue
			}
			w := h.words[at]
			w.item, w.repeated = op, true
			h.words = append(h.words, w)
		}
	})
	// The longest cover looked for, as PostgreSQL bounds it (in its
	// int32 arithmetic).
	maxCover := max(int32(o.MaxWords)*10, 100)
	if o.MaxFragments > 0 {
		maxCover *= int32(o.MaxFragments)
	}
	if tree == nil {
		maxCover = 0 // an empty query has no cover
	}
	if o.MaxFragments == 0 {
		h.markWords(tree, int(maxCover), o)
	} else {
		h.markFragments(tree, int(maxCover), o)
	}
	var b strings.Builder
	inFrag, frags := false, 0
	for i := range h.words {
		w := &h.words[i]
		if w.repeated {
			continue
		}
		if !w.in {
			inFrag = false
			continue
		}
		if !inFrag {
			inFrag = true
			frags++
			if frags > 1 {
				b.WriteString(o.FragmentDelimiter)
			}
		}
		switch {
		case w.replace:
			b.WriteByte(' ')
		case w.skip:
		case w.selected:
			b.WriteString(o.StartSel)
			b.WriteString(w.text)
			b.WriteString(o.StopSel)
		default:
			b.WriteString(w.text)
		}
	}
	return b.String()
}

// check is TS_execute's callback over the words from, to: where operand
// op matches among them.
func (h *headline) check(from, to int) checker {
	return func(op *Node, data *phraseData) ternary {
		found := false
		for i := from; i <= to; i++ {
			w := &h.words[i]
			if w.item != op {
				continue
			}
			if data == nil {
				return tsYes
			}
			found = true
			if n := len(data.pos); n == 0 || data.pos[n-1] < w.pos {
				data.pos = append(data.pos, w.pos)
			}
		}
		if found {
			return tsYes
		}
		return tsNo
	}
}

// firstItem returns the index of the first word from i on that matches an
// operand; -1 for none.
func (h *headline) firstItem(i int) int {
	for ; i < len(h.words); i++ {
		if h.words[i].item != nil {
			return i
		}
	}
	return -1
}

// cover is PostgreSQL's hlCover: the first shortest range of words p..q
// from word *from on, starting and ending on words of the query, of at
// most maxCover words, that satisfies the query.
func (h *headline) cover(tree *Node, from, maxCover int) (p, q int, ok bool) {
	for pmin := h.firstItem(from); pmin >= 0; {
		next := -1
		for pmax := pmin; pmax >= 0 && pmax-pmin < maxCover; {
			if execute(tree, h.check(pmin, pmax)) != tsNo {
				return pmin, pmax, true
			}
			n := h.firstItem(pmax + 1)
			if pmax == pmin {
				next = n
			}
			pmax = n
		}
		pmin = next
	}
	return 0, 0, false
}

// mark puts the words from, to into the headline.
func (h *headline) mark(all bool, from, to int) {
	for i := from; i <= to; i++ {
		w := &h.words[i]
		if w.item != nil {
			w.selected = true
		}
		switch {
		case !all && hlReplace(w.typ):
			w.replace = true
		case hlSkip(w.typ):
			w.skip = true
		}
		w.in = !w.repeated
	}
}

// firstWords marks the document's first min words.
func (h *headline) firstWords(all bool, words int) {
	n, end := 0, min(0, len(h.words)-1)
	for i := 0; i < len(h.words) && n < words; i++ {
		if h.counts(i) {
			n++
		}
		end = i
	}
	h.mark(all, 0, end)
}

// markWords is PostgreSQL's mark_hl_words: the best cover, lengthened or
// shortened to MinWords..MaxWords with good ends.
func (h *headline) markWords(tree *Node, maxCover int, o HeadlineOptions) {
	if o.HighlightAll {
		h.mark(true, 0, len(h.words)-1)
		return
	}
	bestb, beste, bestlen, bestcover := -1, -1, -1, false
	for p, q, ok := 0, 0, false; ; p++ {
		if p, q, ok = h.cover(tree, p, maxCover); !ok {
			break
		}
		curlen, poslen := 0, 0
		posb, pose := p, p
		i := p
		for ; i <= q && curlen < o.MaxWords; i++ {
			if h.counts(i) {
				curlen++
			}
			if h.interesting(i) {
				poslen++
			}
			pose = i
		}
		if curlen < o.MaxWords {
			for i = i - 1; i < len(h.words) && curlen < o.MaxWords; i++ {
				if i > q {
					if h.counts(i) {
						curlen++
					}
					if h.interesting(i) {
						poslen++
					}
				}
				pose = i
				if h.badEnd(i) {
					continue
				}
				if curlen >= o.MinWords {
					break
				}
			}
			if curlen < o.MinWords {
				for i = p - 1; i >= 0; i-- {
					if h.counts(i) {
						curlen++
					}
					if h.interesting(i) {
						poslen++
					}
					if curlen >= o.MaxWords {
						break
					}
					if h.badEnd(i) {
						continue
					}
					if curlen >= o.MinWords {
						break
					}
				}
				posb = max(i, 0)
			}
		} else {
			if i > q {
				i = q
			}
			for ; curlen > o.MinWords; i-- {
				if !h.badEnd(i) {
					break
				}
				if h.counts(i) {
					curlen--
				}
				if h.interesting(i) {
					poslen--
				}
				pose = i - 1
			}
		}
		poscover := posb <= p && pose >= q
		if poscover && !bestcover ||
			poscover == bestcover && poslen > bestlen ||
			poscover == bestcover && poslen == bestlen && !h.badEnd(pose) && h.badEnd(beste) {
			bestb, beste, bestlen, bestcover = posb, pose, poslen, poscover
		}
	}
	if bestlen < 0 {
		h.firstWords(false, o.MinWords)
		return
	}
	h.mark(false, bestb, beste)
}

// fragment is a part of a cover, a candidate for mark_hl_fragments.
type fragment struct {
	start, end       int
	poslen, curlen   int
	chosen, excluded bool
}

// nextFragment is PostgreSQL's get_next_fragment: from start, the part of
// the cover up to end of at most max words, ending on a query word.
func (h *headline) nextFragment(start, end, maxWords int) fragment {
	f := fragment{start: start, end: end}
	for i := start; i <= end; i++ {
		f.start = i
		if h.interesting(i) {
			break
		}
	}
	i := f.start
	for ; i <= end && f.curlen < maxWords; i++ {
		if h.counts(i) {
			f.curlen++
		}
		if h.interesting(i) {
			f.poslen++
		}
	}
	if end > i {
		f.end = i
		for i = f.end; i >= f.start; i-- {
			f.end = i
			if h.interesting(i) {
				break
			}
			if h.counts(i) {
				f.curlen--
			}
		}
	}
	return f
}

// markFragments is PostgreSQL's mark_hl_fragments: up to MaxFragments of
// the covers' parts with the most query words, each stretched towards
// MaxWords.
func (h *headline) markFragments(tree *Node, maxCover int, o HeadlineOptions) {
	var frags []fragment
	for p, q, ok := 0, 0, false; ; p++ {
		if p, q, ok = h.cover(tree, p, maxCover); !ok {
			break
		}
		for start := p; start <= q; {
			f := h.nextFragment(start, q, o.MaxWords)
			frags = append(frags, f)
			start = f.end + 1
		}
	}
	chosen := 0
	for range o.MaxFragments {
		maxItems, minWords, best := 0, math.MaxInt32, -1
		for i, f := range frags {
			if !f.chosen && !f.excluded && (maxItems < f.poslen || maxItems == f.poslen && minWords > f.curlen) {
				maxItems, minWords, best = f.poslen, f.curlen, i
			}
		}
		if best < 0 {
			break
		}
		f := &frags[best]
		f.chosen = true
		start, end, curlen := f.start, f.end, f.curlen
		if curlen < o.MaxWords {
			maxStretch := (o.MaxWords - curlen) / 2
			stretch, marker := 0, start
			for i := start - 1; i >= 0 && stretch < maxStretch && !h.words[i].in; i-- {
				if h.counts(i) {
					curlen++
					stretch++
				}
				marker = i
			}
			i := marker
			for ; i < start && h.badEnd(i); i++ {
				if h.counts(i) {
					curlen--
				}
			}
			start = i
			marker = end
			for i = end + 1; i < len(h.words) && curlen < o.MaxWords && !h.words[i].in; i++ {
				if h.counts(i) {
					curlen++
				}
				marker = i
			}
			for i = marker; i > end && h.badEnd(i); i-- {
				if h.counts(i) {
					curlen--
				}
			}
			end = i
		}
		f.start, f.end, f.curlen = start, end, curlen
		h.mark(o.HighlightAll, start, end)
		chosen++
		for i := range frags {
			g := &frags[i]
			if i != best && (g.start >= start && g.start <= end || g.end >= start && g.end <= end || g.start < start && g.end > end) {
				g.excluded = true
			}
		}
	}
	if chosen == 0 {
		h.firstWords(o.HighlightAll, o.MinWords)
	}
}
