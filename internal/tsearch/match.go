package tsearch

import (
	"slices"
	"strings"
)

// Matching a vector with a query, as PostgreSQL's TS_execute: AND, OR and
// NOT over the presence of lexemes, and below a phrase operator over their
// positions. A lexeme without positions (a stripped vector's) may match a
// phrase: "maybe", which PostgreSQL counts as no match at the topmost
// phrase operator.

type ternary uint8

const (
	tsNo ternary = iota
	tsYes
	tsMaybe
)

// phraseData is where a subquery matches: at pos (the ends of matches
// width+1 lexemes wide), or with negate everywhere but there.
type phraseData struct {
	pos    []int
	negate bool
	width  int
}

// Match is v @@ q; an empty query matches nothing.
func Match(v Vector, q Query) bool {
	n := q.Tree()
	if n == nil {
		return false
	}
	return execute(n, func(o *Node, d *phraseData) ternary { return checkOperand(v, o, d) }) != tsNo
}

// checker tells whether an operand is present, and with data where.
type checker func(operand *Node, data *phraseData) ternary

// execute is PostgreSQL's TS_execute.
func execute(n *Node, chk checker) ternary {
	switch n.Op {
	case opValue:
		return chk(n, nil)
	case OpNot:
		switch execute(n.R, chk) {
		case tsNo:
			return tsYes
		case tsYes:
			return tsNo
		}
		return tsMaybe
	case OpAnd:
		l := execute(n.L, chk)
		if l == tsNo {
			return tsNo
		}
		switch execute(n.R, chk) {
		case tsNo:
			return tsNo
		case tsYes:
			return l
		}
		return tsMaybe
	case OpOr:
		l := execute(n.L, chk)
		if l == tsYes {
			return tsYes
		}
		switch execute(n.R, chk) {
		case tsNo:
			return l
		case tsYes:
			return tsYes
		}
		return tsMaybe
	}
	if phraseExecute(n, chk, nil) == tsYes {
		return tsYes
	}
	return tsNo
}

// checkOperand looks for an operand's lexeme (or, with a prefix mark,
// every lexeme it begins) in v; with data, it collects their positions
// of the operand's weights.
func checkOperand(v Vector, n *Node, data *phraseData) ternary {
	if !n.Prefix {
		i := v.Find(n.Word)
		if i < 0 {
			return tsNo
		}
		return checkWeights(v, i, n, data)
	}
	res := tsNo
	var all []int
	for i := v.lowerBound(n.Word); i < v.Len() && strings.HasPrefix(v.Word(i), n.Word); i++ {
		if data == nil {
			if r := checkWeights(v, i, n, nil); r == tsYes {
				return tsYes
			} else if r == tsMaybe {
				res = tsMaybe
			}
			continue
		}
		var d phraseData
		switch checkWeights(v, i, n, &d) {
		case tsMaybe:
			return tsMaybe
		case tsYes:
			all = append(all, d.pos...)
		}
	}
	if data != nil && len(all) > 0 {
		slices.Sort(all)
		data.pos = slices.Compact(all)
		return tsYes
	}
	return res
}

// checkWeights checks the i-th lexeme of v against n's weights.
func checkWeights(v Vector, i int, n *Node, data *phraseData) ternary {
	if !v.HasPos(i) {
		// Stripped lexemes match whatever the weights, as in PostgreSQL.
		if data != nil {
			return tsMaybe
		}
		return tsYes
	}
	if n.Weight == 0 && data == nil {
		return tsYes
	}
	var buf [16]Pos
	found := false
	for _, p := range v.Positions(i, buf[:0]) {
		if n.Weight == 0 || n.Weight&(1<<p.Weight()) != 0 {
			if data == nil {
				return tsYes
			}
			data.pos = append(data.pos, p.Position())
			found = true
		}
	}
	if found {
		return tsYes
	}
	return tsNo
}

// The outputs of phraseOutput.
const (
	emitLOnly = 1
	emitROnly = 2
	emitBoth  = 4
)

// phraseOutput merges the sorted positions of l and r (offset by loff and
// roff) into data as emit says; it reports whether it output any.
func phraseOutput(data, l, r *phraseData, emit, loff, roff int) ternary {
	const inf = int(^uint(0) >> 1)
	li, ri := 0, 0
	for li < len(l.pos) || ri < len(r.pos) {
		lp, rp := inf, inf
		if li < len(l.pos) {
			lp = l.pos[li] + loff
		} else if emit&emitROnly == 0 {
			break
		}
		if ri < len(r.pos) {
			rp = r.pos[ri] + roff
		} else if emit&emitLOnly == 0 {
			break
		}
		out := 0
		switch {
		case lp < rp:
			if emit&emitLOnly != 0 {
				out = lp
			}
			li++
		case lp == rp:
			if emit&emitBoth != 0 {
				out = rp
			}
			li++
			ri++
		default:
			if emit&emitROnly != 0 {
				out = rp
			}
			ri++
		}
		if out > 0 {
			if data == nil {
				return tsYes
			}
			data.pos = append(data.pos, out)
		}
	}
	if data != nil && len(data.pos) > 0 {
		return tsYes
	}
	return tsNo
}

// phraseExecute is PostgreSQL's TS_phrase_execute: n's match at or below a
// phrase operator, with its positions in data when data is not nil.
func phraseExecute(n *Node, chk checker, data *phraseData) ternary {
	switch n.Op {
	case opValue:
		return chk(n, data)
	case OpNot:
		switch phraseExecute(n.R, chk, data) {
		case tsNo:
			data.negate = true
			return tsYes
		case tsYes:
			if len(data.pos) > 0 {
				data.negate = !data.negate
				return tsYes
			}
			if data.negate {
				data.negate = false
				return tsNo
			}
			return tsNo
		}
		return tsMaybe
	case OpPhrase, OpAnd:
		var l, r phraseData
		lm := phraseExecute(n.L, chk, &l)
		if lm == tsNo {
			return tsNo
		}
		rm := phraseExecute(n.R, chk, &r)
		if rm == tsNo {
			return tsNo
		}
		if lm == tsMaybe || rm == tsMaybe {
			return tsMaybe
		}
		var loff, roff int
		if n.Op == OpPhrase {
			loff = n.Distance + r.width
			if data != nil {
				data.width = n.Distance + l.width + r.width
			}
		} else {
			w := max(l.width, r.width)
			loff, roff = w-l.width, w-r.width
			if data != nil {
				data.width = w
			}
		}
		switch {
		case l.negate && r.negate:
			phraseOutput(data, &l, &r, emitBoth|emitLOnly|emitROnly, loff, roff)
			if data != nil {
				data.negate = true
			}
			return tsYes
		case l.negate:
			return phraseOutput(data, &l, &r, emitROnly, loff, roff)
		case r.negate:
			return phraseOutput(data, &l, &r, emitLOnly, loff, roff)
		}
		return phraseOutput(data, &l, &r, emitBoth, loff, roff)
	}
	// OpOr
	var l, r phraseData
	lm := phraseExecute(n.L, chk, &l)
	rm := phraseExecute(n.R, chk, &r)
	if lm == tsNo && rm == tsNo {
		return tsNo
	}
	if lm == tsMaybe || rm == tsMaybe {
		return tsMaybe
	}
	if lm == tsNo {
		l.width = 0
	}
	if rm == tsNo {
		r.width = 0
	}
	w := max(l.width, r.width)
	loff, roff := w-l.width, w-r.width
	data.width = w
	switch {
	case l.negate && r.negate:
		phraseOutput(data, &l, &r, emitBoth, loff, roff)
		data.negate = true
		return tsYes
	case l.negate:
		phraseOutput(data, &l, &r, emitLOnly, loff, roff)
		data.negate = true
		return tsYes
	case r.negate:
		phraseOutput(data, &l, &r, emitROnly, loff, roff)
		data.negate = true
		return tsYes
	}
	return phraseOutput(data, &l, &r, emitBoth|emitLOnly|emitROnly, loff, roff)
}
