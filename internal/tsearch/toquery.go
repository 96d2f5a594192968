package tsearch

import "slices"

// Words passes to emit each lexeme of text with its position, as
// PostgreSQL's parsetext numbers them: every token the configuration
// indexes takes the next position, stop words included, so that a
// lexeme's position counts the indexed words before it.
func (c *Config) Words(text string, emit func(lexeme string, pos int)) {
	c.wordsFrom(text, 0, emit)
}

// wordsFrom is Words with positions counted on from pos; it returns the
// last position taken.
func (c *Config) wordsFrom(text string, pos int, emit func(lexeme string, pos int)) int {
	Parse(text, func(t Token) {
		if len(t.Text) >= maxLexeme || c.dicts[t.Type] == NoDict {
			return
		}
		pos++
		if lex, ok := c.dicts[t.Type].Lexize(t.Text); ok {
			emit(lex, min(pos, MaxPos))
		}
	})
	return pos
}

// ToVector is to_tsvector(c, text).
func (c *Config) ToVector(text string) Vector {
	var ls []Lexeme
	c.Words(text, func(lex string, pos int) {
		ls = append(ls, Lexeme{Word: lex, Pos: []Pos{NewPos(pos, 0)}, HasPos: true})
	})
	return BuildVector(uniqueWords(ls))
}

// uniqueWords sorts the words of a text and merges each word's positions
// as PostgreSQL's uniqueWORD does: in order, at most maxNumPos-1 of them,
// none after MaxPos.
func uniqueWords(ls []Lexeme) []Lexeme {
	slices.SortStableFunc(ls, func(a, b Lexeme) int {
		if c := CompareLexemes(a.Word, b.Word); c != 0 {
			return c
		}
		return a.Pos[0].Position() - b.Pos[0].Position()
	})
	out := ls[:0]
	for _, l := range ls {
		n := len(out)
		if n == 0 || out[n-1].Word != l.Word {
			out = append(out, l)
			continue
		}
		ps := out[n-1].Pos
		last := ps[len(ps)-1].Position()
		if len(ps) < maxNumPos-1 && last != MaxPos && last != l.Pos[0].Position() {
			out[n-1].Pos = append(ps, l.Pos[0])
		}
	}
	return out
}

// morph returns the push function of to_tsquery and its kin: an operand's
// text becomes the lexemes of its words, joined by op (<-> or &), with a
// placeholder for each stop word between two of them.
func (c *Config) morph(op uint8) func(p *queryParser, word string, weight uint8, prefix bool) error {
	return func(p *queryParser, word string, weight uint8, prefix bool) error {
		pos, cntpos := 0, 0
		var err error
		c.Words(word, func(lex string, at int) {
			if err != nil {
				return
			}
			if pos > 0 {
				for ; pos+1 < at; pos++ {
					p.pushStop()
					if cntpos > 0 {
						p.pushOperator(op, 1)
					}
					cntpos++
				}
			}
			pos = at
			if err = p.pushValue(lex, weight, prefix); err != nil {
				return
			}
			if cntpos > 0 {
				p.pushOperator(op, 1)
			}
			cntpos++
		})
		if cntpos == 0 {
			p.pushStop()
		}
		return err
	}
}

func (c *Config) toQuery(text string, mode queryMode, op uint8) (Query, error) {
	n, err := parseQuery(text, mode, c.morph(op))
	if err != nil {
		return "", err
	}
	return EncodeQuery(n), nil
}

// ToQuery is to_tsquery(c, text).
func (c *Config) ToQuery(text string) (Query, error) { return c.toQuery(text, modeStandard, OpPhrase) }

// PlainToQuery is plainto_tsquery(c, text).
func (c *Config) PlainToQuery(text string) (Query, error) { return c.toQuery(text, modePlain, OpAnd) }

// PhraseToQuery is phraseto_tsquery(c, text).
func (c *Config) PhraseToQuery(text string) (Query, error) {
	return c.toQuery(text, modePlain, OpPhrase)
}

// WebToQuery is websearch_to_tsquery(c, text): the words of an operand
// (a quoted text is one) make a phrase.
func (c *Config) WebToQuery(text string) (Query, error) { return c.toQuery(text, modeWeb, OpPhrase) }

// ToVectorParts is to_tsvector over the strings of a JSON document, as
// PostgreSQL builds it: positions run on from one part to the next, with a
// gap after each part that gave a lexeme, so that no phrase spans two.
func (c *Config) ToVectorParts(parts func(emit func(string))) Vector {
	var ls []Lexeme
	pos := 0
	parts(func(text string) {
		n := len(ls)
		pos = c.wordsFrom(text, pos, func(lex string, p int) {
			ls = append(ls, Lexeme{Word: lex, Pos: []Pos{NewPos(p, 0)}, HasPos: true})
		})
		if len(ls) > n {
			pos++
		}
	})
	return BuildVector(uniqueWords(ls))
}
