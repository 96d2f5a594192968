package tsearch

import "slices"

// Strip is strip(v): v without positions.
func (v Vector) Strip() Vector {
	ls := v.Lexemes()
	for i := range ls {
		ls[i].Pos, ls[i].HasPos = nil, false
	}
	return BuildVector(ls)
}

// WeightOf reads a weight letter (A to D, either case); ok is false for
// another character.
func WeightOf(c byte) (w int, ok bool) {
	switch c | 0x20 {
	case 'a':
		return 3, true
	case 'b':
		return 2, true
	case 'c':
		return 1, true
	case 'd':
		return 0, true
	}
	return 0, false
}

// SetWeight is setweight(v, w), or with only, setweight(v, w, only): the
// weight of every position (of the lexemes in only) becomes w.
func (v Vector) SetWeight(w int, only []string) Vector {
	ls := v.Lexemes()
	for i := range ls {
		if only != nil && !slices.Contains(only, ls[i].Word) {
			continue
		}
		for j, p := range ls[i].Pos {
			ls[i].Pos[j] = NewPos(p.Position(), w)
		}
	}
	return BuildVector(ls)
}

// Delete is ts_delete(v, words): v without those lexemes.
func (v Vector) Delete(words []string) Vector {
	ls := v.Lexemes()
	ls = slices.DeleteFunc(ls, func(l Lexeme) bool { return slices.Contains(words, l.Word) })
	return BuildVector(ls)
}

// Filter is ts_filter(v, weights): the positions of the weights in mask
// (bit 3 A … bit 0 D), and the lexemes left with any.
func (v Vector) Filter(mask int) Vector {
	var out []Lexeme
	for _, l := range v.Lexemes() {
		if !l.HasPos {
			continue
		}
		ps := l.Pos[:0]
		for _, p := range l.Pos {
			if mask&(1<<p.Weight()) != 0 {
				ps = append(ps, p)
			}
		}
		if len(ps) > 0 {
			l.Pos = ps
			out = append(out, l)
		}
	}
	return BuildVector(out)
}

// Concat is v || w: w's positions move past v's last position; a lexeme
// in both keeps the positions of both.
func (v Vector) Concat(w Vector) Vector {
	maxPos := 0
	a := v.Lexemes()
	for _, l := range a {
		for _, p := range l.Pos {
			maxPos = max(maxPos, p.Position())
		}
	}
	b := w.Lexemes()
	// addPos appends src's positions offset by maxPos to dst, as many as
	// fit (PostgreSQL's add_pos).
	addPos := func(dst []Pos, src []Pos) []Pos {
		for _, p := range src {
			if len(dst) >= maxNumPos || len(dst) > 0 && dst[len(dst)-1].Position() == MaxPos {
				break
			}
			dst = append(dst, NewPos(p.Position()+maxPos, p.Weight()))
		}
		return dst
	}
	out := make([]Lexeme, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var c int
		switch {
		case i == len(a):
			c = 1
		case j == len(b):
			c = -1
		default:
			c = CompareLexemes(a[i].Word, b[j].Word)
		}
		switch {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			l := Lexeme{Word: b[j].Word}
			if b[j].HasPos {
				l.Pos = addPos(nil, b[j].Pos)
				l.HasPos = len(l.Pos) > 0
			}
			out = append(out, l)
			j++
		default:
			l := a[i]
			if b[j].HasPos {
				l.Pos = addPos(l.Pos, b[j].Pos)
				l.HasPos = len(l.Pos) > 0
			}
			out = append(out, l)
			i++
			j++
		}
	}
	return BuildVector(out)
}

// FromWords is array_to_tsvector: the distinct words, without positions.
func FromWords(words []string) Vector {
	ws := slices.Clone(words)
	slices.Sort(ws)
	ws = slices.Compact(ws)
	ls := make([]Lexeme, len(ws))
	for i, w := range ws {
		ls[i] = Lexeme{Word: w}
	}
	return BuildVector(ls)
}
