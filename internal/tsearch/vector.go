package tsearch

import (
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
)

// Vector is a tsvector in deltaview's stored form, a string whose bytewise
// order is PostgreSQL's btree order of tsvectors (tsvector_cmp): its size
// as PostgreSQL stores it, its number of lexemes, then per lexeme whether
// it has positions (those that have sort first), its bytes, then its
// positions, most first, each in descending order of position and weight.
// Equal vectors have equal strings, so values compare, hash and key as
// strings. After that come the offsets of the lexemes, for binary search:
//
//	size uint32, count uint32
//	per lexeme: 0 (positions) or 1 (none), bytes, 0,
//	            [^npos uint16, per position ^(pos<<2|weight) uint16]
//	per lexeme: offset uint32
//
// Lexemes never hold a 0 byte (text cannot), so 0 ends one.
type Vector string

// Pos is a lexeme's position (1 to MaxPos) and weight (0 for D to 3 for
// A), packed as PostgreSQL's WordEntryPos: weight<<14 | position.
type Pos uint16

// Position limits: positions above MaxPos are MaxPos; a lexeme keeps at
// most maxNumPos positions.
const (
	MaxPos    = 1<<14 - 1
	maxNumPos = 256
	// MaxLexemeLen is the longest lexeme in bytes (PostgreSQL's MAXSTRLEN-1).
	MaxLexemeLen = 1<<11 - 2
	maxStrPos    = 1<<20 - 1
)

// NewPos returns position p with weight w, p limited to MaxPos.
func NewPos(p, w int) Pos { return Pos(min(p, MaxPos)) | Pos(w)<<14 }

// Position returns p's position.
func (p Pos) Position() int { return int(p & 0x3fff) }

// Weight returns p's weight: 0 for D, 1 C, 2 B, 3 A.
func (p Pos) Weight() int { return int(p >> 14) }

// Lexeme is one lexeme of a vector being built or read. Positions are
// sorted by position, without duplicates; HasPos is false for a lexeme
// without them (a stripped vector's).
type Lexeme struct {
	Word   string
	Pos    []Pos
	HasPos bool
}

// BuildVector encodes lexemes, which must be sorted by CompareLexemes and
// distinct.
func BuildVector(lexemes []Lexeme) Vector {
	size, n := 0, 0
	for _, l := range lexemes {
		size += len(l.Word)
		n += len(l.Word) + 2
		if l.HasPos {
			size = (size+1)&^1 + 2 + 2*len(l.Pos)
			n += 2 + 2*len(l.Pos)
		}
	}
	b := make([]byte, 8, 8+n+4*len(lexemes))
	binary.BigEndian.PutUint32(b, uint32(8+4*len(lexemes)+size))
	binary.BigEndian.PutUint32(b[4:], uint32(len(lexemes)))
	offs := make([]uint32, len(lexemes))
	for i, l := range lexemes {
		offs[i] = uint32(len(b))
		if l.HasPos {
			b = append(b, 0)
		} else {
			b = append(b, 1)
		}
		b = append(append(b, l.Word...), 0)
		if l.HasPos {
			b = binary.BigEndian.AppendUint16(b, ^uint16(len(l.Pos)))
			for _, p := range l.Pos {
				b = binary.BigEndian.AppendUint16(b, ^(uint16(p.Position())<<2 | uint16(p.Weight())))
			}
		}
	}
	for _, o := range offs {
		b = binary.BigEndian.AppendUint32(b, o)
	}
	return Vector(b)
}

// CompareLexemes orders lexemes as PostgreSQL does (tsCompareString):
// bytewise, a prefix first.
func CompareLexemes(a, b string) int { return strings.Compare(a, b) }

// Len returns the number of lexemes.
func (v Vector) Len() int {
	if len(v) < 8 {
		return 0
	}
	return u32(string(v), 4)
}

func u32(s string, at int) int {
	return int(s[at])<<24 | int(s[at+1])<<16 | int(s[at+2])<<8 | int(s[at+3])
}

func (v Vector) offset(i int) int {
	return u32(string(v), len(v)-4*(v.Len()-i))
}

// Word returns the i-th lexeme's bytes.
func (v Vector) Word(i int) string {
	o := v.offset(i) + 1
	end := strings.IndexByte(string(v[o:]), 0)
	return string(v[o : o+end])
}

// entry returns the i-th lexeme and where its positions start (-1 when it
// has none) and how many there are.
func (v Vector) entry(i int) (word string, posAt, npos int) {
	o := v.offset(i)
	word = v.Word(i)
	if v[o] != 0 {
		return word, -1, 0
	}
	at := o + 1 + len(word) + 1
	npos = int(^(uint16(v[at])<<8 | uint16(v[at+1])))
	return word, at + 2, npos
}

// HasPos reports whether the i-th lexeme has positions.
func (v Vector) HasPos(i int) bool { return v[v.offset(i)] == 0 }

// Positions appends the i-th lexeme's positions to buf.
func (v Vector) Positions(i int, buf []Pos) []Pos {
	_, at, n := v.entry(i)
	for j := 0; j < n; j++ {
		x := ^(uint16(v[at+2*j])<<8 | uint16(v[at+2*j+1]))
		buf = append(buf, NewPos(int(x>>2), int(x&3)))
	}
	return buf
}

// NumPos returns how many positions the i-th lexeme has.
func (v Vector) NumPos(i int) int {
	_, _, n := v.entry(i)
	return n
}

// Lexemes decodes v.
func (v Vector) Lexemes() []Lexeme {
	out := make([]Lexeme, v.Len())
	for i := range out {
		out[i] = Lexeme{Word: v.Word(i), HasPos: v.HasPos(i), Pos: v.Positions(i, nil)}
	}
	return out
}

// Find returns the index of word in v, or -1.
func (v Vector) Find(word string) int {
	if i := v.lowerBound(word); i < v.Len() && v.Word(i) == word {
		return i
	}
	return -1
}

// lowerBound returns the index of the first lexeme not below word.
func (v Vector) lowerBound(word string) int {
	lo, hi := 0, v.Len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v.Word(m) < word {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// AppendText writes tsvector_out's form: 'lexeme':1A,2 separated by
// spaces, quotes and backslashes doubled.
func (v Vector) AppendText(b []byte) []byte {
	var ps []Pos
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendQuoted(b, v.Word(i))
		if ps = v.Positions(i, ps[:0]); len(ps) > 0 {
			b = append(b, ':')
			for j, p := range ps {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(p.Position()), 10)
				if w := p.Weight(); w > 0 {
					b = append(b, "DCBA"[w])
				}
			}
		}
	}
	return b
}

func appendQuoted(b []byte, w string) []byte {
	b = append(b, '\'')
	for i := 0; i < len(w); i++ {
		if w[i] == '\'' || w[i] == '\\' {
			b = append(b, w[i])
		}
		b = append(b, w[i])
	}
	return append(b, '\'')
}

// uniquePos sorts ps by position and drops repeated positions, keeping
// the highest weight of each, and at most maxNumPos positions up to
// MaxPos (PostgreSQL's uniquePos).
func uniquePos(ps []Pos) []Pos {
	if len(ps) <= 1 {
		return ps
	}
	slices.SortStableFunc(ps, func(a, b Pos) int { return a.Position() - b.Position() })
	r := 0
	for i := 1; i < len(ps); i++ {
		if ps[i].Position() != ps[r].Position() {
			r++
			ps[r] = ps[i]
			if r >= maxNumPos-1 || ps[r].Position() == MaxPos {
				break
			}
		} else if ps[i].Weight() > ps[r].Weight() {
			ps[r] = NewPos(ps[r].Position(), ps[i].Weight())
		}
	}
	return ps[:r+1]
}

// uniqueLexemes sorts ls and merges repeated words, joining their
// positions (PostgreSQL's uniqueentry).
func uniqueLexemes(ls []Lexeme) []Lexeme {
	slices.SortStableFunc(ls, func(a, b Lexeme) int { return strings.Compare(a.Word, b.Word) })
	out := ls[:0]
	for _, l := range ls {
		if n := len(out); n > 0 && out[n-1].Word == l.Word {
			if l.HasPos {
				out[n-1].Pos = append(out[n-1].Pos, l.Pos...)
				out[n-1].HasPos = true
			}
			continue
		}
		out = append(out, l)
	}
	for i := range out {
		if out[i].HasPos {
			out[i].Pos = uniquePos(out[i].Pos)
		}
	}
	return out
}
