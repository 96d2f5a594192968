package expr

import (
	"sort"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// The matcher of PostgreSQL's advanced regular expressions.
//
// A match is found as PostgreSQL finds it: the earliest position where
// the pattern matches, then the longest or the shortest match there,
// as the whole pattern is greedy or not (its first quantifier with a
// greediness decides; an alternation is greedy), then the extents of the
// subexpressions, decided in order from a tree of subexpressions built
// as PostgreSQL builds it. Each node of that tree tells where it can
// match regardless of back-references (a back-reference standing for
// any text its group could match); the extents are then chosen node by
// node — a concatenation splits its text where its first part's
// greediness prefers, an iteration gives each repetition the longest or
// shortest text, an alternation takes its first alternative that fits —
// checking back-references on the way and trying the next choice when
// one fails.
//
// The sets of positions where a node's match can end, from a given
// start, are computed once per node and start (polynomial time); only
// back-references make the choice of extents backtrack. The work is
// bounded: past areStepLimit steps a match fails with 54000.

const areStepLimit = 10_000_000

// areSub is a node of the tree of subexpressions.
type areSub struct {
	op       byte // '=' plain, '.' concatenation, '|' alternation, '*' iteration, 'b' back-reference, '(' capture
	flags    int
	ast      *areNode // where the node can match, back-references relaxed
	kids     []*areSub
	capno    int
	min, max int
	caps     []int // the capture numbers in the subtree
}

// areProg is a compiled advanced regular expression.
type areProg struct {
	root             *areNode
	tree             *areSub
	ncap             int
	fold             bool
	icu              bool // case mappings of an ICU collation (foldCases)
	nlStop, nlAnchor bool
	nids             int
}

func compileARE(pattern string, opt areOptions) (*areProg, error) {
	root, ps, err := parseARE(pattern, opt)
	if err != nil {
		return nil, err
	}
	p := &areProg{root: root, ncap: ps.ncap, fold: ps.opt.fold, icu: opt.icu, nlStop: ps.opt.nlStop, nlAnchor: ps.opt.nlAnchor}
	if p.fold {
		foldCases(root, opt.icu)
	}
	b := &areBuilder{ps: ps}
	p.tree = b.build(root)
	collectCaps(p.tree)
	p.nids = ps.nids
	return p, nil
}

type areBuilder struct {
	ps *areParser
}

func (b *areBuilder) node(n areNode) *areNode { return b.ps.node(n) }

// build makes the tree of subexpressions of an alternation (or of a
// single branch), as PostgreSQL's parser does.
func (b *areBuilder) build(n *areNode) *areSub {
	if n.op != areAlt {
		return b.branch(n)
	}
	flags := areLonger
	kids := make([]*areSub, len(n.subs))
	for i, s := range n.subs {
		kids[i] = b.branch(s)
		flags |= areUp(flags | kids[i].flags)
	}
	if !areMessy(flags) {
		return &areSub{op: '=', flags: flags, ast: n}
	}
	asts := make([]*areNode, len(kids))
	for i, k := range kids {
		asts[i] = k.ast
	}
	return &areSub{op: '|', flags: flags, ast: b.node(areNode{op: areAlt, subs: asts}), kids: kids}
}

// atomFlags are the flags of an atom (a quantifier's operand).
func (b *areBuilder) atom(a *areNode) (*areSub, int) {
	switch a.op {
	case areGroup:
		s := b.build(a.subs[0])
		if a.capno > 0 {
			if s.capno > 0 {
				s = &areSub{op: '(', flags: s.flags, ast: s.ast, kids: []*areSub{s}}
			}
			s.capno = a.capno
			s.flags |= areCap
		}
		return s, s.flags
	case areBackref:
		return &areSub{op: 'b', flags: areBackr, ast: b.relaxed(b.ps.caps[a.capno].subs[0]), capno: a.capno, min: 1, max: 1}, areBackr
	}
	return nil, 0
}

// branch builds the subexpressions of a concatenation of quantified
// atoms: plain text is gathered into plain nodes; a capturing group, a
// back-reference or a change of greediness starts a concatenation of the
// part before, that atom, and the rest of the branch.
func (b *areBuilder) branch(n *areNode) *areSub {
	items := n.subs
	if n.op != areConcat {
		items = []*areNode{n}
	}
	var prefix []*areNode
	pflags := 0
	for idx, it := range items {
		a, m, mx, qprefer := it, 1, 1, 0
		if it.op == areRepeat {
			a, m, mx, qprefer = it.subs[0], it.min, it.max, it.pref
		}
		if m == 0 && mx == 0 {
			prefix = append(prefix, it)
			continue
		}
		as, aflags := b.atom(a)
		f := pflags | qprefer | aflags
		capOrBackref := a.op == areBackref || a.op == areGroup && a.capno > 0
		if !capOrBackref && !areMessy(areUp(f)) {
			prefix = append(prefix, it)
			pflags = f
			continue
		}
		if as == nil {
			as = &areSub{op: '=', ast: a}
		}
		var t *areSub
		tflags := areCombine(qprefer, aflags)
		switch {
		case a.op == areBackref:
			as.min, as.max = m, mx
			as.flags |= areCombine(qprefer, as.flags)
			as.ast = b.node(areNode{op: areRepeat, subs: []*areNode{as.ast}, min: m, max: mx})
			t = as
		case m == 1 && mx == 1 && (qprefer == 0 || as.flags&(areLonger|areShorter|areMixed) == 0 || qprefer == as.flags&(areLonger|areShorter|areMixed)):
			t = as
		case as.flags&(areCap|areBackr) == 0:
			t = &areSub{op: '=', flags: tflags, ast: it}
		case m > 0 && as.flags&areBackr == 0:
			// x{m,n} is x{m-1,n-1}x with the captures in the last x only.
			pmax := mx
			if mx > 0 {
				pmax = mx - 1
			}
			pre := b.node(areNode{op: areRepeat, subs: []*areNode{a}, min: m - 1, max: pmax})
			left := &areSub{op: '=', flags: tflags & (areLonger | areShorter), ast: pre}
			t = &areSub{op: '.', flags: tflags, ast: b.node(areNode{op: areConcat, subs: []*areNode{pre, as.ast}}), kids: []*areSub{left, as}}
		default:
			t = &areSub{op: '*', flags: tflags, ast: b.node(areNode{op: areRepeat, subs: []*areNode{as.ast}, min: m, max: mx}), kids: []*areSub{as}, min: m, max: mx}
		}
		inner := t
		if idx+1 < len(items) {
			rest := b.branch(b.node(areNode{op: areConcat, subs: items[idx+1:]}))
			cflags := tflags
			cflags |= areCombine(cflags, rest.flags)
			if len(prefix) > 0 && t.op == '=' && rest.op == '=' && !areMessy(areUp(t.flags|rest.flags)) {
				inner = &areSub{op: '=', flags: areCombine(t.flags, rest.flags), ast: b.node(areNode{op: areConcat, subs: []*areNode{t.ast, rest.ast}})}
			} else {
				inner = &areSub{op: '.', flags: cflags, ast: b.node(areNode{op: areConcat, subs: []*areNode{t.ast, rest.ast}}), kids: []*areSub{t, rest}}
			}
		}
		if len(prefix) == 0 {
			if inner.op == '.' && idx+1 < len(items) {
				inner.flags = areCombine(0, inner.flags)
			}
			return inner
		}
		left := &areSub{op: '=', flags: pflags, ast: b.node(areNode{op: areConcat, subs: prefix})}
		flags := pflags | areCombine(pflags, inner.flags)
		return &areSub{op: '.', flags: flags, ast: b.node(areNode{op: areConcat, subs: []*areNode{left.ast, inner.ast}}), kids: []*areSub{left, inner}}
	}
	return &areSub{op: '=', flags: pflags, ast: n}
}

// relaxed copies a group's pattern for a back-reference's approximate
// match: its constraints always hold and it captures nothing.
func (b *areBuilder) relaxed(n *areNode) *areNode {
	switch n.op {
	case areBOL, areEOL, areBOT, areEOT, areWordStart, areWordEnd, areWordB, areNotWordB, areLook:
		return b.node(areNode{op: areEmpty})
	case areBackref:
		return b.relaxed(b.ps.caps[n.capno].subs[0])
	case areLit, areAny, areClass, areEmpty:
		return n
	}
	c := *n
	c.capno = 0
	c.subs = make([]*areNode, len(n.subs))
	for i, s := range n.subs {
		c.subs[i] = b.relaxed(s)
	}
	return b.node(c)
}

func collectCaps(t *areSub) []int {
	var caps []int
	if t.capno > 0 && t.op != 'b' {
		caps = append(caps, t.capno)
	}
	for _, k := range t.kids {
		caps = append(caps, collectCaps(k)...)
	}
	t.caps = caps
	return caps
}

// areRun matches one compiled pattern against one subject.
type areRun struct {
	p      *areProg
	s      []rune
	memo   map[int64][]int
	behind map[int][]bool // lookbehind node id: where it holds
	caps   []int          // 2 per capture, rune positions, -1 unset
	steps  int
	mark   []int // scratch: generation marks per position
	gen    int
	err    error
}

func (p *areProg) newRun(s string) *areRun {
	rs := []rune(s)
	return &areRun{p: p, s: rs, memo: map[int64][]int{}, behind: map[int][]bool{}, caps: make([]int, 2*(p.ncap+1)), mark: make([]int, len(rs)+1)}
}

var errARETooComplex = pgerr.New(pgerr.ProgramLimitExceeded, "regular expression is too complex to match").
	WithHint("the matcher of back-references, lookaround and mixed greediness stops after %d steps", areStepLimit)

func (r *areRun) step(n int) bool {
	r.steps += n
	if r.steps > areStepLimit {
		r.err = errARETooComplex
		return false
	}
	return true
}

func (r *areRun) isWord(i int) bool {
	return i >= 0 && i < len(r.s) && inClass("word", r.s[i], r.p.icu)
}

func foldRune(c rune) rune {
	switch {
	case c >= 'a' && c <= 'z':
		return c - 32
	case c >= 'A' && c <= 'Z':
		return c + 32
	}
	return c
}

func (r *areRun) litMatch(n *areNode, c rune) bool {
	return c == n.r || r.p.fold && foldRune(c) == n.r
}

func (r *areRun) classMatch(cls *areCharClass, c rune) bool {
	in := func(c rune) bool {
		for i := 0; i < len(cls.ranges); i += 2 {
			if c >= cls.ranges[i] && c <= cls.ranges[i+1] {
				return true
			}
		}
		for _, name := range cls.classes {
			if inClass(name, c, r.p.icu) {
				return true
			}
		}
		return false
	}
	m := in(c) || r.p.fold && in(foldRune(c))
	if cls.neg {
		return !m && !(cls.noNL && c == '\n')
	}
	return m
}

// holds reports whether the constraint n holds at position i.
func (r *areRun) holds(n *areNode, i int) bool {
	switch n.op {
	case areBOL:
		return i == 0 || r.p.nlAnchor && r.s[i-1] == '\n'
	case areEOL:
		return i == len(r.s) || r.p.nlAnchor && r.s[i] == '\n'
	case areBOT:
		return i == 0
	case areEOT:
		return i == len(r.s)
	case areWordStart:
		return !r.isWord(i-1) && r.isWord(i)
	case areWordEnd:
		return r.isWord(i-1) && !r.isWord(i)
	case areWordB:
		return r.isWord(i-1) != r.isWord(i)
	case areNotWordB:
		return r.isWord(i-1) == r.isWord(i)
	case areLook:
		var ok bool
		if n.ahead {
			ok = len(r.ends(n.subs[0], i)) > 0
		} else {
			at, done := r.behind[n.id]
			if !done {
				at = make([]bool, len(r.s)+1)
				for k := 0; k <= len(r.s); k++ {
					for _, e := range r.ends(n.subs[0], k) {
						at[e] = true
					}
				}
				r.behind[n.id] = at
			}
			ok = at[i]
		}
		return ok != n.neg
	}
	return true
}

// ends returns, in increasing order, the positions where a match of n
// starting at i can end (back-references relaxed).
func (r *areRun) ends(n *areNode, i int) []int {
	if r.err != nil {
		return nil
	}
	switch n.op {
	case areLit, areAny, areClass:
		if i >= len(r.s) {
			return nil
		}
		c := r.s[i]
		ok := false
		switch n.op {
		case areLit:
			ok = r.litMatch(n, c)
		case areAny:
			ok = !(r.p.nlStop && c == '\n')
		default:
			ok = r.classMatch(n.cls, c)
		}
		if ok {
			return single(i + 1)
		}
		return nil
	case areEmpty:
		return single(i)
	case areBOL, areEOL, areBOT, areEOT, areWordStart, areWordEnd, areWordB, areNotWordB, areLook:
		if r.holds(n, i) {
			return single(i)
		}
		return nil
	case areGroup:
		return r.ends(n.subs[0], i)
	case areBackref:
		// Only inside a relaxed copy, which has none: unreachable.
		return nil
	}
	key := int64(n.id)*int64(len(r.s)+2) + int64(i)
	if e, ok := r.memo[key]; ok {
		return e
	}
	var out []int
	switch n.op {
	case areConcat:
		cur := single(i)
		for _, s := range n.subs {
			cur = r.union(cur, func(p int) []int { return r.ends(s, p) })
			if len(cur) == 0 {
				break
			}
		}
		out = cur
	case areAlt:
		out = r.unionOf(len(n.subs), func(k int) []int { return r.ends(n.subs[k], i) })
	case areRepeat:
		out = r.repeat(n, i)
	}
	if !r.step(len(out) + 1) {
		return nil
	}
	r.memo[key] = out
	return out
}

// posTable[i] is i, so that a one-position result needs no allocation.
var posTable = func() []int {
	t := make([]int, 1<<16)
	for i := range t {
		t[i] = i
	}
	return t
}()

func single(i int) []int {
	if i < len(posTable) {
		return posTable[i : i+1 : i+1]
	}
	return []int{i}
}

// union returns the sorted union of f(p) over p in from.
func (r *areRun) union(from []int, f func(int) []int) []int {
	return r.unionOf(len(from), func(k int) []int { return f(from[k]) })
}

func (r *areRun) unionOf(n int, f func(int) []int) []int {
	if n == 1 {
		return f(0)
	}
	lists := make([][]int, n)
	for k := range lists {
		lists[k] = f(k)
		if !r.step(len(lists[k])) {
			return nil
		}
	}
	// Marks are set after the calls above, which may use them too.
	r.gen++
	gen := r.gen
	var out []int
	for _, es := range lists {
		for _, e := range es {
			if r.mark[e] != gen {
				r.mark[e] = gen
				out = append(out, e)
			}
		}
	}
	sort.Ints(out)
	return out
}

func (r *areRun) repeat(n *areNode, i int) []int {
	sub := n.subs[0]
	// Positions from i on, as bits: those in the result, and those a
	// repetition past the minimum already started from.
	words := (len(r.s)-i)/64 + 1
	bits := make([]uint64, 2*words)
	seen, visited := bits[:words], bits[words:]
	var out []int
	add := func(p int) {
		if seen[(p-i)/64]&(1<<((p-i)%64)) == 0 {
			seen[(p-i)/64] |= 1 << ((p - i) % 64)
			out = append(out, p)
		}
	}
	if n.min == 0 {
		add(i)
	}
	cur := single(i)
	for k := 1; n.max < 0 || k <= n.max; k++ {
		next := r.union(cur, func(p int) []int { return r.ends(sub, p) })
		if r.err != nil {
			return nil
		}
		if k >= n.min {
			var fresh []int
			for _, p := range next {
				add(p)
				if n.max < 0 {
					w, b := (p-i)/64, uint64(1)<<((p-i)%64)
					if visited[w]&b != 0 {
						continue
					}
					visited[w] |= b
				}
				fresh = append(fresh, p)
			}
			next = fresh
		}
		if len(next) == 0 {
			break
		}
		cur = next
	}
	sort.Ints(out)
	return out
}

// longest is the last end of n from begin no further than end, or -1.
func (r *areRun) longest(n *areNode, begin, end int) int {
	es := r.ends(n, begin)
	k := sort.SearchInts(es, end+1)
	if k == 0 {
		return -1
	}
	return es[k-1]
}

// shortest is the first end of n from begin in [lo, hi], or -1.
func (r *areRun) shortest(n *areNode, begin, lo, hi int) int {
	es := r.ends(n, begin)
	k := sort.SearchInts(es, lo)
	if k == len(es) || es[k] > hi {
		return -1
	}
	return es[k]
}

func (r *areRun) has(n *areNode, begin, end int) bool { return r.longest(n, begin, end) == end }

func (r *areRun) zap(t *areSub) {
	for _, c := range t.caps {
		r.caps[2*c], r.caps[2*c+1] = -1, -1
	}
}

// dissect decides the extents of t's subexpressions in [begin, end),
// which t's pattern matches with back-references relaxed; false when
// its back-references cannot hold.
func (r *areRun) dissect(t *areSub, begin, end int) bool {
	if !r.step(1) {
		return false
	}
	ok := true
	switch t.op {
	case 'b':
		ok = r.backref(t, begin, end)
	case '.':
		ok = r.concat(t, begin, end)
	case '|':
		ok = false
		for _, k := range t.kids {
			if r.has(k.ast, begin, end) && r.dissect(k, begin, end) {
				ok = true
				break
			}
			if r.err != nil {
				return false
			}
		}
	case '*':
		if t.kids[0].flags&areShorter != 0 {
			ok = r.iterShort(t, begin, end)
		} else {
			ok = r.iterLong(t, begin, end)
		}
	case '(':
		ok = r.dissect(t.kids[0], begin, end)
	}
	if ok && t.capno > 0 && t.op != 'b' {
		r.caps[2*t.capno], r.caps[2*t.capno+1] = begin, end
	}
	return ok && r.err == nil
}

func (r *areRun) concat(t *areSub, begin, end int) bool {
	left, right := t.kids[0], t.kids[1]
	short := left.flags&areShorter != 0
	var mid int
	if short {
		mid = r.shortest(left.ast, begin, begin, end)
	} else {
		mid = r.longest(left.ast, begin, end)
	}
	for mid >= 0 && r.err == nil {
		if r.has(right.ast, mid, end) {
			if r.dissect(left, begin, mid) {
				if r.dissect(right, mid, end) {
					return true
				}
				r.zap(left)
			}
		}
		if short {
			if mid == end {
				return false
			}
			mid = r.shortest(left.ast, begin, mid+1, end)
		} else {
			if mid == begin {
				return false
			}
			mid = r.longest(left.ast, begin, mid-1)
		}
	}
	return false
}

func (r *areRun) backref(t *areSub, begin, end int) bool {
	lo, hi := r.caps[2*t.capno], r.caps[2*t.capno+1]
	if lo < 0 {
		return false
	}
	n := hi - lo
	if n == 0 {
		return begin == end && (t.max < 0 || t.min <= t.max)
	}
	if begin == end {
		return t.min == 0
	}
	if (end-begin)%n != 0 {
		return false
	}
	reps := (end - begin) / n
	if reps < t.min || t.max >= 0 && reps > t.max {
		return false
	}
	for p := begin; p < end; p += n {
		for k := 0; k < n; k++ {
			a, b := r.s[lo+k], r.s[p+k]
			if a != b && !(r.p.fold && r.p.foldEqual(a, b)) {
				return false
			}
		}
	}
	return true
}

// verifyReps dissects the repetitions after the first verified ones, up to
// k, each between its end points, and returns how many are verified in a
// row from the first.
func (r *areRun) verifyReps(child *areSub, endpts []int, verified, k int) int {
	for i := verified + 1; i <= k; i++ {
		r.zap(child)
		if !r.dissect(child, endpts[i-1], endpts[i]) {
			return i - 1
		}
	}
	return k
}

// iterLong gives each repetition the longest text that lets the rest
// match, backtracking when a repetition's back-references fail.
func (r *areRun) iterLong(t *areSub, begin, end int) bool {
	child := t.kids[0]
	minM := t.min
	if minM <= 0 {
		minM = 1
	}
	maxM := end - begin
	if t.max >= 0 && maxM > t.max {
		maxM = t.max
	}
	if maxM < minM {
		maxM = minM
	}
	endpts := make([]int, maxM+1)
	endpts[0] = begin
	verified, k, limit := 0, 1, end
	for k > 0 && r.err == nil {
		endpts[k] = r.longest(child.ast, endpts[k-1], limit)
		if endpts[k] < 0 {
			k--
			goto backtrack
		}
		if verified >= k {
			verified = k - 1
		}
		if endpts[k] != end {
			if k >= maxM {
				k--
				goto backtrack
			}
			if endpts[k] == endpts[k-1] && (k >= minM || minM-k < end-endpts[k]) {
				goto backtrack
			}
			k++
			limit = end
			continue
		}
		if k < minM {
			goto backtrack
		}
		verified = r.verifyReps(child, endpts, verified, k)
		if r.err != nil {
			return false
		}
		if verified == k {
			return true
		}
		k = verified + 1
	backtrack:
		for k > 0 {
			prev := endpts[k-1]
			if endpts[k] > prev {
				limit = endpts[k] - 1
				if limit > prev || k < minM && minM-k >= end-prev {
					break
				}
			}
			k--
		}
	}
	return r.err == nil && t.min == 0 && begin == end
}

// iterShort is iterLong for non-greedy repetitions: each repetition
// gets the shortest text that lets the rest match.
func (r *areRun) iterShort(t *areSub, begin, end int) bool {
	child := t.kids[0]
	minM := t.min
	if minM <= 0 {
		if begin == end {
			return true
		}
		minM = 1
	}
	maxM := end - begin
	if t.max >= 0 && maxM > t.max {
		maxM = t.max
	}
	if maxM < minM {
		maxM = minM
	}
	endpts := make([]int, maxM+1)
	endpts[0] = begin
	verified, k, limit := 0, 1, begin
	for k > 0 && r.err == nil {
		if limit == endpts[k-1] && limit != end && (k >= minM || minM-k < end-limit) {
			limit++
		}
		if k >= maxM {
			limit = end
		}
		endpts[k] = r.shortest(child.ast, endpts[k-1], limit, end)
		if endpts[k] < 0 {
			k--
			goto backtrack
		}
		if verified >= k {
			verified = k - 1
		}
		if endpts[k] != end {
			if k >= maxM {
				k--
				goto backtrack
			}
			k++
			limit = endpts[k-1]
			continue
		}
		if k < minM {
			goto backtrack
		}
		verified = r.verifyReps(child, endpts, verified, k)
		if r.err != nil {
			return false
		}
		if verified == k {
			return true
		}
		k = verified + 1
	backtrack:
		for k > 0 {
			if endpts[k] < end {
				limit = endpts[k] + 1
				break
			}
			k--
		}
	}
	return false
}

// find returns the first match starting at or after rune position
// from: the extents of the match and of each capture (rune positions,
// -1 for a capture that took no part), or nil.
//
// As in PostgreSQL, the search goes by rounds: each finds the earliest
// end of a possible match (back-references relaxed) and tries the
// starts up to it, each with its possible ends in order of preference,
// until one holds; the next round searches after that end, unless it
// was the last character (so that a match that can only be empty at the
// end of the text is not found after a failed round).
func (r *areRun) find(from int) ([]int, error) {
	shortest := r.p.tree.flags&areShorter != 0
	ast := r.p.tree.ast
	for close := from; ; {
		// The earliest end of a possible match from close on.
		e := -1
		for b := close; b <= len(r.s) && (e < 0 || b <= e); b++ {
			if es := r.ends(ast, b); len(es) > 0 && (e < 0 || es[0] < e) {
				e = es[0]
			}
		}
		if r.err != nil {
			return nil, r.err
		}
		if e < 0 {
			return nil, nil
		}
		for begin := close; begin <= e; begin++ {
			es := r.ends(ast, begin)
			for k := range es {
				end := es[len(es)-1-k]
				if shortest {
					end = es[k]
				}
				for j := range r.caps {
					r.caps[j] = -1
				}
				if r.dissect(r.p.tree, begin, end) {
					m := append([]int(nil), r.caps...)
					m[0], m[1] = begin, end
					return m, nil
				}
				if r.err != nil {
					return nil, r.err
				}
			}
		}
		if close = e + 1; close >= len(r.s) {
			return nil, nil
		}
	}
}

// findAll returns the matches from byte offset start on, as PostgreSQL
// finds them one after the other (the next search starts where a match
// ended, one character further after an empty one), as byte offsets;
// at most limit of them unless limit is negative.
func (p *areProg) findAll(s string, start, limit int) ([][]int, error) {
	if start > len(s) {
		return nil, nil
	}
	r := p.newRun(s)
	// Byte offset of each rune position.
	off := make([]int, 0, len(r.s)+1)
	for i := range s {
		off = append(off, i)
	}
	off = append(off, len(s))
	pos := sort.SearchInts(off, start)
	var out [][]int
	for pos <= len(r.s) && (limit < 0 || len(out) < limit) {
		m, err := r.find(pos)
		if err != nil {
			return nil, err
		}
		if m == nil {
			break
		}
		bm := make([]int, len(m))
		for j, v := range m {
			bm[j] = -1
			if v >= 0 {
				bm[j] = off[v]
			}
		}
		out = append(out, bm)
		if m[1] == m[0] {
			pos = m[1] + 1
		} else {
			pos = m[1]
		}
	}
	return out, nil
}

// match reports whether p matches somewhere in s.
func (p *areProg) match(s string) (bool, error) {
	m, err := p.newRun(s).find(0)
	return m != nil, err
}
