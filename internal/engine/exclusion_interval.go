package engine

import "github.com/deltaview/deltaview/internal/value"

// ivlTree keeps the rows of one group of an EXCLUDE constraint by the
// range (or multirange's outer span) of its `&&` element: a treap ordered
// by lower bound then row id, each node holding the greatest upper bound
// of its subtree, so that the rows whose span overlaps a range are found
// in O(log n + matches). Nodes live in one slice, reused through a free
// list, so that a write allocates nothing once the slice has grown.
type ivlTree struct {
	nodes []ivlNode
	root  int32 // -1 for none
	free  []int32
	n     int
	seed  uint32
}

// ivlNode is one row's span; max is the index of the node of its
// subtree with the greatest upper bound.
type ivlNode struct {
	lo, hi      value.RangeBound
	id          uint64
	left, right int32
	max         int32
	prio        uint32
}

func newIvlTree() *ivlTree { return &ivlTree{root: -1, seed: 2463534242} }

// span returns the bounds of a range or of a multirange's outer span;
// ok is false for an empty one, which overlaps nothing.
func span(v value.Value) (lo, hi value.RangeBound, ok bool) {
	rs := v.Ranges()
	if len(rs) == 0 {
		return lo, hi, false
	}
	lo, _ = rs[0].RangeBounds()
	_, hi = rs[len(rs)-1].RangeBounds()
	return lo, hi, true
}

// cmpKey orders node i against (lo, id).
func (t *ivlTree) cmpKey(i int32, lo value.RangeBound, id uint64) int {
	n := &t.nodes[i]
	if c := value.CmpRangeBounds(n.lo, lo); c != 0 {
		return c
	}
	switch {
	case n.id < id:
		return -1
	case n.id > id:
		return 1
	}
	return 0
}

// fix recomputes node i's max from its children.
func (t *ivlTree) fix(i int32) {
	n := &t.nodes[i]
	m := i
	for _, c := range [2]int32{n.left, n.right} {
		if c >= 0 && value.CmpRangeBounds(t.nodes[t.nodes[c].max].hi, t.nodes[m].hi) > 0 {
			m = t.nodes[c].max
		}
	}
	n.max = m
}

// split parts the subtree at i into the nodes below (lo, id) and the
// others.
func (t *ivlTree) split(i int32, lo value.RangeBound, id uint64) (int32, int32) {
	if i < 0 {
		return -1, -1
	}
	if t.cmpKey(i, lo, id) < 0 {
		l, r := t.split(t.nodes[i].right, lo, id)
		t.nodes[i].right = l
		t.fix(i)
		return i, r
	}
	l, r := t.split(t.nodes[i].left, lo, id)
	t.nodes[i].left = r
	t.fix(i)
	return l, i
}

// merge joins two subtrees, every node of a below every node of b.
func (t *ivlTree) merge(a, b int32) int32 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	if t.nodes[a].prio > t.nodes[b].prio {
		t.nodes[a].right = t.merge(t.nodes[a].right, b)
		t.fix(a)
		return a
	}
	t.nodes[b].left = t.merge(a, t.nodes[b].left)
	t.fix(b)
	return b
}

// insert adds the span [lo, hi] of row id.
func (t *ivlTree) insert(lo, hi value.RangeBound, id uint64) {
	t.seed ^= t.seed << 13 // xorshift: the priorities need only be spread
	t.seed ^= t.seed >> 17
	t.seed ^= t.seed << 5
	nd := ivlNode{lo: lo, hi: hi, id: id, left: -1, right: -1, prio: t.seed}
	var i int32
	if k := len(t.free); k > 0 {
		i = t.free[k-1]
		t.free = t.free[:k-1]
		t.nodes[i] = nd
	} else {
		i = int32(len(t.nodes))
		t.nodes = append(t.nodes, nd)
	}
	t.nodes[i].max = i
	l, r := t.split(t.root, lo, id)
	t.root = t.merge(t.merge(l, i), r)
	t.n++
}

// remove drops the span of row id whose lower bound is lo, if there.
func (t *ivlTree) remove(lo value.RangeBound, id uint64) {
	l, r := t.split(t.root, lo, id)
	m, r := t.split(r, lo, id+1) // m is the row's node, or none
	if m >= 0 {
		t.nodes[m] = ivlNode{}
		t.free = append(t.free, m)
		t.n--
	}
	t.root = t.merge(l, r)
}

// appendOverlapping appends to dst the ids of the rows whose span
// overlaps [lo, hi], in order of lower bound.
func (t *ivlTree) appendOverlapping(dst []uint64, lo, hi value.RangeBound) []uint64 {
	return t.visit(dst, t.root, lo, hi)
}

func (t *ivlTree) visit(dst []uint64, i int32, lo, hi value.RangeBound) []uint64 {
	for i >= 0 {
		n := &t.nodes[i]
		if value.CmpRangeBounds(t.nodes[n.max].hi, lo) < 0 {
			return dst // every span here ends before lo
		}
		dst = t.visit(dst, n.left, lo, hi)
		if value.CmpRangeBounds(n.lo, hi) > 0 {
			return dst // this span and those right of it start after hi
		}
		if value.CmpRangeBounds(n.hi, lo) >= 0 {
			dst = append(dst, n.id)
		}
		i = n.right
	}
	return dst
}
