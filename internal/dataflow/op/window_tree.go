package op

import (
	"slices"
	"unsafe"
)

// winTree keeps a partition's elements in order in a B-tree counted by
// elements: leaves of up to winLeafMax elements, inner nodes of up to
// winKidsMax children, each node holding its element count and, for an
// aggregate, the aggregate of its elements' arguments (the exact sums and
// counts, or the best value for MIN and MAX). The element at a position,
// the position of an element, an insertion and a deletion cost
// O(log n); so does the aggregate of any range of positions: the sums are
// invertible, so a prefix is a node's total less the children after it.
type winTree struct {
	root *winNode
	// proto is the aggregate of the nodes' summaries (nil: no summaries);
	// minmax says it keeps the best value, refolded from the children
	// when one changes, rather than adding and subtracting.
	proto  *winAcc
	minmax bool
	sc     *winScratch
}

// winNode is a node of a winTree: a leaf holds elements, an inner node
// children.
type winNode struct {
	n     int
	elems []*winElem
	kids  []*winNode
	acc   *winAcc
}

// The nodes' sizes; variables so that tests can build deep trees of few
// rows.
var (
	winLeafMax = 64
	winKidsMax = 16
)

// winNodeBytes is a node's cost, shared by the elements under it.
const winNodeBytes = int64(unsafe.Sizeof(winNode{}))

func (t *winTree) len() int {
	if t.root == nil {
		return 0
	}
	return t.root.n
}

func (t *winTree) newNode(leaf bool) *winNode {
	nd := &winNode{}
	if leaf {
		nd.elems = make([]*winElem, 0, winLeafMax/2+1)
	}
	if t.proto != nil {
		nd.acc = &winAcc{f: t.proto.f, typ: t.proto.typ}
		nd.acc.reset()
	}
	return nd
}

// refresh recomputes a node's count and summary from its elements or
// children.
func (t *winTree) refresh(nd *winNode) {
	if nd.kids == nil {
		nd.n = len(nd.elems)
	} else {
		nd.n = 0
		for _, k := range nd.kids {
			nd.n += k.n
		}
	}
	if nd.acc == nil {
		return
	}
	nd.acc.reset()
	if nd.kids == nil {
		for _, e := range nd.elems {
			_ = nd.acc.add(e.arg, 1, t.sc)
		}
		return
	}
	for _, k := range nd.kids {
		if t.minmax {
			nd.acc.fold(k.acc)
		} else {
			nd.acc.plus(k.acc, 1, t.sc)
		}
	}
}

// at returns the element at position i, through r, which remembers the
// last leaf read so that reading along the partition costs O(1) a row.
func (t *winTree) at(r *winReader, i int) *winElem {
	if r.leaf != nil && i >= r.base && i < r.base+len(r.leaf.elems) {
		return r.leaf.elems[i-r.base]
	}
	nd, base := t.root, 0
	for nd.kids != nil {
		for _, k := range nd.kids {
			if i < base+k.n {
				nd = k
				break
			}
			base += k.n
		}
	}
	r.leaf, r.base = nd, base
	return nd.elems[i-base]
}

// winReader is a position in a winTree: the leaf last read and the
// position of its first element. A change to the tree invalidates it.
type winReader struct {
	leaf *winNode
	base int
}

func lastElem(nd *winNode) *winElem {
	for nd.kids != nil {
		nd = nd.kids[len(nd.kids)-1]
	}
	return nd.elems[len(nd.elems)-1]
}

// search returns the position of the first element not before e, and
// whether it equals e.
func (t *winTree) search(e *winElem, cmp func(a, b *winElem) int) (int, bool) {
	if t.root == nil {
		return 0, false
	}
	nd, base := t.root, 0
	for nd.kids != nil {
		// The first child whose last element is not before e.
		k, _ := slices.BinarySearchFunc(nd.kids, e, func(c *winNode, e *winElem) int { return cmp(lastElem(c), e) })
		if k == len(nd.kids) {
			return t.root.n, false
		}
		for _, c := range nd.kids[:k] {
			base += c.n
		}
		nd = nd.kids[k]
	}
	i, found := slices.BinarySearchFunc(nd.elems, e, cmp)
	return base + i, found
}

// insert puts e at position i.
func (t *winTree) insert(i int, e *winElem) {
	if t.root == nil {
		t.root = t.newNode(true)
	}
	if right := t.ins(t.root, i, e); right != nil {
		root := t.newNode(false)
		root.kids = []*winNode{t.root, right}
		t.refresh(root)
		t.root = root
	}
}

// ins inserts e at position i under nd and returns the node split off
// nd's right, if nd overflowed.
func (t *winTree) ins(nd *winNode, i int, e *winElem) *winNode {
	nd.n++
	if nd.acc != nil && !t.minmax {
		_ = nd.acc.add(e.arg, 1, t.sc)
	}
	if nd.kids == nil {
		nd.elems = slices.Insert(nd.elems, i, e)
		if len(nd.elems) > winLeafMax {
			right := t.newNode(true)
			right.elems = moveHalf(&nd.elems, right.elems)
			t.refresh(nd)
			t.refresh(right)
			return right
		}
		if t.minmax {
			t.refresh(nd)
		}
		return nil
	}
	k := 0
	for ; k < len(nd.kids)-1 && i > nd.kids[k].n; k++ {
		i -= nd.kids[k].n
	}
	if right := t.ins(nd.kids[k], i, e); right != nil {
		nd.kids = slices.Insert(nd.kids, k+1, right)
		if len(nd.kids) > winKidsMax {
			r := t.newNode(false)
			r.kids = moveHalf(&nd.kids, r.kids)
			t.refresh(nd)
			t.refresh(r)
			return r
		}
	}
	if t.minmax {
		t.refresh(nd)
	}
	return nil
}

// delete removes and returns the element at position i.
func (t *winTree) delete(i int) *winElem {
	e := t.del(t.root, i)
	for t.root.kids != nil && len(t.root.kids) == 1 {
		t.root = t.root.kids[0]
	}
	if t.root.n == 0 {
		t.root = nil
	}
	return e
}

func (t *winTree) del(nd *winNode, i int) *winElem {
	nd.n--
	var e *winElem
	if nd.kids == nil {
		e = nd.elems[i]
		nd.elems = slices.Delete(nd.elems, i, i+1)
	} else {
		k := 0
		for ; i >= nd.kids[k].n; k++ {
			i -= nd.kids[k].n
		}
		e = t.del(nd.kids[k], i)
		t.rebalance(nd, k)
	}
	if nd.acc != nil {
		if t.minmax {
			t.refresh(nd)
		} else {
			_ = nd.acc.add(e.arg, -1, t.sc)
		}
	}
	return e
}

// rebalance drops nd's child k when empty, or merges it with a
// neighbour when both fit in one node, so that deletions leave no trail
// of near-empty nodes.
func (t *winTree) rebalance(nd *winNode, k int) {
	c := nd.kids[k]
	if c.n == 0 {
		nd.kids = slices.Delete(nd.kids, k, k+1)
		return
	}
	size := func(x *winNode) int {
		if x.kids == nil {
			return len(x.elems)
		}
		return len(x.kids)
	}
	limit := winKidsMax
	if c.kids == nil {
		limit = winLeafMax
	}
	if size(c) >= limit/4 {
		return
	}
	j := k + 1
	if j == len(nd.kids) {
		j = k - 1
	}
	if j < 0 || size(nd.kids[j])+size(c) > limit*3/4 {
		return
	}
	l, r := min(j, k), max(j, k)
	a, b := nd.kids[l], nd.kids[r]
	if a.kids == nil {
		a.elems = append(a.elems, b.elems...)
	} else {
		a.kids = append(a.kids, b.kids...)
	}
	t.refresh(a)
	nd.kids = slices.Delete(nd.kids, r, r+1)
}

// build replaces the tree by one of elems, in order.
func (t *winTree) build(elems []*winElem) {
	t.root = nil
	if len(elems) == 0 {
		return
	}
	leaf := max(1, winLeafMax*3/4)
	var level []*winNode
	for i := 0; i < len(elems); i += leaf {
		nd := t.newNode(true)
		nd.elems = append(nd.elems[:0], elems[i:min(i+leaf, len(elems))]...)
		t.refresh(nd)
		level = append(level, nd)
	}
	kids := max(2, winKidsMax*3/4)
	for len(level) > 1 {
		var up []*winNode
		for i := 0; i < len(level); i += kids {
			nd := t.newNode(false)
			nd.kids = slices.Clone(level[i:min(i+kids, len(level))])
			t.refresh(nd)
			up = append(up, nd)
		}
		level = up
	}
	t.root = level[0]
}

// appendAll appends the tree's elements, in order, to out.
func (t *winTree) appendAll(out []*winElem) []*winElem {
	if t.root == nil {
		return out
	}
	var walk func(nd *winNode)
	walk = func(nd *winNode) {
		if nd.kids == nil {
			out = append(out, nd.elems...)
			return
		}
		for _, k := range nd.kids {
			walk(k)
		}
	}
	walk(t.root)
	return out
}

// addPrefix adds to a, with sign, the aggregate of the first i
// elements, reading at each level the fewer of the children before the
// path (adding them) and those from it on (subtracting them from the
// node's total). Invertible aggregates only.
func (t *winTree) addPrefix(a *winAcc, i int, sign int64) {
	nd := t.root
	for nd != nil && i > 0 {
		if i >= nd.n {
			a.plus(nd.acc, sign, t.sc)
			return
		}
		if nd.kids == nil {
			if i <= len(nd.elems)/2 {
				for _, e := range nd.elems[:i] {
					_ = a.add(e.arg, sign, t.sc)
				}
			} else {
				a.plus(nd.acc, sign, t.sc)
				for _, e := range nd.elems[i:] {
					_ = a.add(e.arg, -sign, t.sc)
				}
			}
			return
		}
		k := 0
		for ; i >= nd.kids[k].n; k++ {
			i -= nd.kids[k].n
		}
		if k <= len(nd.kids)/2 {
			for _, c := range nd.kids[:k] {
				a.plus(c.acc, sign, t.sc)
			}
		} else {
			a.plus(nd.acc, sign, t.sc)
			for _, c := range nd.kids[k:] {
				a.plus(c.acc, -sign, t.sc)
			}
		}
		nd = nd.kids[k]
	}
}

// addRange adds to a the aggregate of the elements [s, e): for the sums
// a prefix less a prefix, for MIN and MAX a fold, in order, of the nodes
// the range covers.
func (t *winTree) addRange(a *winAcc, s, e int) {
	if s >= e {
		return
	}
	if !t.minmax {
		t.addPrefix(a, e, 1)
		t.addPrefix(a, s, -1)
		return
	}
	t.foldRange(t.root, a, s, e)
}

func (t *winTree) foldRange(nd *winNode, a *winAcc, s, e int) {
	if s <= 0 && e >= nd.n {
		a.fold(nd.acc)
		return
	}
	if nd.kids == nil {
		for _, x := range nd.elems[max(s, 0):min(e, len(nd.elems))] {
			_ = a.add(x.arg, 1, t.sc)
		}
		return
	}
	for _, k := range nd.kids {
		if s < k.n && e > 0 {
			t.foldRange(k, a, s, e)
		}
		s, e = s-k.n, e-k.n
		if e <= 0 {
			return
		}
	}
}

// moveHalf moves the upper half of *s onto dst, returning it, and shortens
// *s to the lower half, clearing what it no longer holds.
func moveHalf[T any](s *[]T, dst []T) []T {
	h := len(*s) / 2
	dst = append(dst, (*s)[h:]...)
	clear((*s)[h:])
	*s = (*s)[:h]
	return dst
}
