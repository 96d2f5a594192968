package tsearch

import (
	"math"
	"slices"
)

// Cover density ranking, as PostgreSQL's ts_rank_cd: the positions of the
// query's operands in the document, in order, are scanned for the shortest
// extents that match the query (covers); each adds its weights' harmonic
// mean over one plus its noise words.

// docEntry is a position of the document where operands of the query are.
type docEntry struct {
	pos   Pos
	idx   int // the lexeme's index in the vector
	items []*Node
}

// coverOperand is what a cover scan has seen of an operand: whether it is
// present and at which positions, ascending.
type coverOperand struct {
	exists bool
	pos    []int
}

// RankCD is ts_rank_cd(weights, v, q, method).
func RankCD(w *[4]float32, v Vector, q Query, method int32) float32 {
	n := q.Tree()
	if n == nil {
		return 0
	}
	var invws [4]float64
	for i, x := range w {
		invws[i] = 1.0 / float64(x)
	}
	ops := n.Operands(nil)
	var doc []docEntry
	var buf []Pos
	for _, op := range ops {
		first, cnt := findEntries(v, op)
		for e := first; e < first+cnt; e++ {
			if !v.HasPos(e) {
				continue // words without positions are left out
			}
			for _, p := range v.Positions(e, buf[:0]) {
				if op.Weight == 0 || op.Weight&(1<<p.Weight()) != 0 {
					doc = append(doc, docEntry{pos: p, idx: e, items: []*Node{op}})
				}
			}
		}
	}
	if len(doc) == 0 {
		return 0
	}
	slices.SortFunc(doc, func(a, b docEntry) int {
		if c := a.pos.Position() - b.pos.Position(); c != 0 {
			return c
		}
		if c := a.pos.Weight() - b.pos.Weight(); c != 0 {
			return c
		}
		return a.idx - b.idx
	})
	merged := doc[:1]
	for _, d := range doc[1:] {
		last := &merged[len(merged)-1]
		if d.pos == last.pos && d.idx == last.idx {
			last.items = append(last.items, d.items...)
			continue
		}
		merged = append(merged, d)
	}
	doc = merged

	state := make(map[*Node]*coverOperand, len(ops))
	for _, op := range ops {
		state[op] = &coverOperand{}
	}
	reset := func() {
		for _, o := range state {
			o.exists, o.pos = false, o.pos[:0]
		}
	}
	fill := func(d docEntry, reverse bool) {
		p := d.pos.Position()
		for _, it := range d.items {
			o := state[it]
			o.exists = true
			switch {
			case len(o.pos) == 0:
				o.pos = append(o.pos, p)
			case reverse && o.pos[0] != p:
				o.pos = slices.Insert(o.pos, 0, p)
			case !reverse && o.pos[len(o.pos)-1] != p:
				o.pos = append(o.pos, p)
			}
		}
	}
	chk := func(op *Node, data *phraseData) ternary {
		o := state[op]
		if !o.exists {
			return tsNo
		}
		if data != nil {
			data.pos = slices.Clone(o.pos)
		}
		return tsYes
	}

	var wdoc, sumDist, prevExtPos float64
	nExtent := 0
	from := 0
	for {
		// Find the cover's end: the first entry from 'from' at which the
		// query matches what was seen.
		reset()
		p, q, begin, end := math.MaxInt, 0, 0, 0
		last, found := from, false
		for i := from; i < len(doc); i++ {
			fill(doc[i], false)
			if execute(n, chk) != tsNo {
				if doc[i].pos.Position() > q {
					q, end, last, found = doc[i].pos.Position(), i, i, true
				}
				break
			}
		}
		if !found {
			break
		}
		// Then its start, scanning back from the end.
		reset()
		i := last
		for ; i >= from; i-- {
			fill(doc[i], true)
			if execute(n, chk) != tsNo {
				if doc[i].pos.Position() < p {
					begin, p = i, doc[i].pos.Position()
				}
				break
			}
		}
		if p > q {
			from++
			continue
		}
		from = i + 1

		invSum := 0.0
		for k := begin; k <= end; k++ {
			invSum += invws[doc[k].pos.Weight()]
		}
		cpos := float64(end-begin+1) / invSum
		// In a long document positions saturate and q may equal p: the
		// noise is then taken as half the cover.
		noise := (q - p) - (end - begin)
		if noise < 0 {
			noise = (end - begin) / 2
		}
		wdoc += cpos / float64(1+noise)
		cur := float64(q+p) / 2.0
		if nExtent > 0 && cur > prevExtPos {
			sumDist += 1.0 / (cur - prevExtPos)
		}
		prevExtPos = cur
		nExtent++
	}

	if method&normLogLength != 0 && v.Len() > 0 {
		wdoc /= math.Log(float64(countLength(v) + 1))
	}
	if method&normLength != 0 {
		if l := countLength(v); l > 0 {
			wdoc /= float64(l)
		}
	}
	if method&normExtDist != 0 && nExtent > 0 && sumDist > 0 {
		wdoc /= float64(nExtent) / sumDist
	}
	if method&normUniq != 0 && v.Len() > 0 {
		wdoc /= float64(v.Len())
	}
	if method&normLogUniq != 0 && v.Len() > 0 {
		wdoc /= math.Log(float64(v.Len()+1)) / math.Log(2.0)
	}
	if method&normRDivRPlus != 0 {
		wdoc /= wdoc + 1
	}
	return float32(wdoc)
}
