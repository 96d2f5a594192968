package dataflow

import (
	"unsafe"

	"github.com/deltaview/deltaview/internal/value"
)

// prefixTree keeps a long run's entries, in Arrangement.cmp's order, in a
// B+tree whose nodes hold the entries' 64-bit order summaries (k0) apart
// from their rows: a descent's binary searches read 8-byte keys, eight to a
// cache line, and read a row only to break a tie between equal summaries.
// Entries live in the leaves; an inner node holds separators, each a copy
// of an entry (summary and row) no greater than every entry of the child on
// its right and greater than every entry of the child on its left. A
// separator may outlive its entry, and so keep a deleted row reachable,
// until its node splits, merges or rebalances.
type prefixTree struct {
	root   *ptNode
	height int // levels above the leaves: 0 when the root is a leaf
	n      int // entries
	leaves int
	inner  int
}

// ptOrder is the most entries a leaf holds and the most separators an
// inner node holds. A node other than the root and the last leaf holds at
// least ptMin.
const (
	ptOrder = 64
	ptMin   = ptOrder / 4
)

// ptMaxHeight bounds a descent: every node but the root holds ptMin or
// more, so 24 levels would hold far more entries than memory can.
const ptMaxHeight = 24

type ptNode struct {
	n    int
	keys [ptOrder]uint64
	rows [ptOrder]rowRef
	ws   [ptOrder]int64        // a leaf's weights
	kids *[ptOrder + 1]*ptNode // an inner node's children; nil in a leaf
}

// ptStep is one inner node of a descent and the child taken.
type ptStep struct {
	nd *ptNode
	i  int
}

const (
	ptNodeBytes = int64(unsafe.Sizeof(ptNode{}))
	ptKidsBytes = int64(unsafe.Sizeof([ptOrder + 1]*ptNode{}))
)

func newPrefixTree() *prefixTree {
	return &prefixTree{root: &ptNode{}, leaves: 1}
}

func (t *prefixTree) len() int { return t.n }

// last returns the tree's last entry; the tree holds one at least.
func (t *prefixTree) last() arrEntry {
	nd := t.root
	for range t.height {
		nd = nd.kids[nd.n]
	}
	return arrEntry{k0: nd.keys[nd.n-1], r: nd.rows[nd.n-1], w: nd.ws[nd.n-1]}
}

// storeBytes is the memory of the tree's nodes.
func (t *prefixTree) storeBytes() int64 {
	return int64(t.leaves+t.inner)*ptNodeBytes + int64(t.inner)*ptKidsBytes
}

// cmpAt orders nd's i-th entry or separator against e.
func (a *Arrangement) cmpAt(nd *ptNode, i int, e *arrEntry) int {
	if k := nd.keys[i]; k != e.k0 {
		if k < e.k0 {
			return -1
		}
		return 1
	}
	return a.cmp(&arrEntry{k0: nd.keys[i], r: nd.rows[i]}, e)
}

// lowerBound returns the first position of nd whose entry is not less
// than e.
func (a *Arrangement) lowerBound(nd *ptNode, e *arrEntry) int {
	lo, hi := 0, nd.n
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if a.cmpAt(nd, h, e) < 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// child returns which child of inner node nd holds e: the number of
// separators not greater than e.
func (a *Arrangement) child(nd *ptNode, e *arrEntry) int {
	lo, hi := 0, nd.n
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if a.cmpAt(nd, h, e) <= 0 {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo
}

// get returns the entry of e's row.
func (t *prefixTree) get(a *Arrangement, e *arrEntry) (arrEntry, bool) {
	nd := t.root
	for range t.height {
		nd = nd.kids[a.child(nd, e)]
	}
	if i := a.lowerBound(nd, e); i < nd.n && a.cmpAt(nd, i, e) == 0 {
		return arrEntry{k0: nd.keys[i], r: nd.rows[i], w: nd.ws[i]}, true
	}
	return arrEntry{}, false
}

// add adds e.w to the weight of e's row, inserting the row when absent
// and removing it when its weight reaches zero, in one descent. It returns
// the weight before.
func (t *prefixTree) add(a *Arrangement, e arrEntry) int64 {
	var path [ptMaxHeight]ptStep
	nd := t.root
	for h := range t.height {
		i := a.child(nd, &e)
		path[h] = ptStep{nd, i}
		nd = nd.kids[i]
	}
	i := a.lowerBound(nd, &e)
	if i < nd.n && a.cmpAt(nd, i, &e) == 0 {
		old := nd.ws[i]
		if old+e.w != 0 {
			nd.ws[i] += e.w
			return old
		}
		t.removeAt(nd, i, path[:t.height])
		return old
	}
	if e.w != 0 {
		t.insertAt(nd, i, &e, path[:t.height])
	}
	return 0
}

// ptFinger keeps the last descent of a batch of adds in order: the next
// add starts from the deepest node whose range holds its entry, not from
// the root, so that a sorted batch walks the tree once from left to right.
// A split or a merge makes it stale: the next add descends from the root.
type ptFinger struct {
	path [ptMaxHeight]ptStep
	leaf *ptNode
	ok   bool
}

// addFrom is add for an entry not before the last one added through f
// (in cmp's order), which it finds from f's descent.
func (t *prefixTree) addFrom(a *Arrangement, e arrEntry, f *ptFinger) int64 {
	r := 0
	if f.ok {
		r = f.resume(a, &e, t.height)
	}
	var nd *ptNode
	switch {
	case r == 0:
		nd = t.root
	case r < t.height:
		nd = f.path[r].nd
	default:
		nd = f.leaf
	}
	for h := r; h < t.height; h++ {
		i := a.child(nd, &e)
		f.path[h] = ptStep{nd, i}
		nd = nd.kids[i]
	}
	f.leaf, f.ok = nd, true
	path := f.path[:t.height]
	i := a.lowerBound(nd, &e)
	if i < nd.n && a.cmpAt(nd, i, &e) == 0 {
		old := nd.ws[i]
		if old+e.w != 0 {
			nd.ws[i] += e.w
			return old
		}
		f.ok = nd.n > ptMin // no rebalance follows
		t.removeAt(nd, i, path)
		return old
	}
	if e.w != 0 {
		f.ok = nd.n < ptOrder // no split follows
		t.insertAt(nd, i, &e, path)
	}
	return 0
}

// resume returns the first level of f's descent whose child must be
// chosen again for e: below it, every child taken still holds e, since e
// is not before the last entry and before the separator bounding the
// child on the right (the root's range is unbounded).
func (f *ptFinger) resume(a *Arrangement, e *arrEntry, height int) int {
	r := height
	for h := height - 1; h >= 0; h-- {
		st := f.path[h]
		if st.i == st.nd.n {
			continue // the last child: bounded as its parent is
		}
		if a.cmpAt(st.nd, st.i, e) > 0 {
			return r
		}
		r = h
	}
	return r
}

// insertAt inserts e at position i of leaf, splitting it when full.
func (t *prefixTree) insertAt(leaf *ptNode, i int, e *arrEntry, path []ptStep) {
	t.n++
	if leaf.n < ptOrder {
		leafInsert(leaf, i, e)
		return
	}
	// A full leaf splits in halves, except when e goes after the last
	// entry of the tree: then the new leaf starts with e alone, so that
	// entries added in order (a cold start) fill their leaves. The last
	// leaf is the one node that may hold fewer than ptMin.
	mid := ptOrder / 2
	if i == ptOrder && lastChild(path) {
		mid = ptOrder
	}
	right := &ptNode{n: leaf.n - mid}
	t.leaves++
	copy(right.keys[:], leaf.keys[mid:leaf.n])
	copy(right.rows[:], leaf.rows[mid:leaf.n])
	copy(right.ws[:], leaf.ws[mid:leaf.n])
	clear(leaf.rows[mid:leaf.n])
	leaf.n = mid
	if i <= mid && mid < ptOrder {
		leafInsert(leaf, i, e)
	} else {
		leafInsert(right, i-mid, e)
	}
	t.insertSep(path, right.keys[0], right.rows[0], right)
}

// lastChild reports whether a descent took the last child at every level.
func lastChild(path []ptStep) bool {
	for _, st := range path {
		if st.i != st.nd.n {
			return false
		}
	}
	return true
}

func leafInsert(nd *ptNode, i int, e *arrEntry) {
	copy(nd.keys[i+1:nd.n+1], nd.keys[i:nd.n])
	copy(nd.rows[i+1:nd.n+1], nd.rows[i:nd.n])
	copy(nd.ws[i+1:nd.n+1], nd.ws[i:nd.n])
	nd.keys[i], nd.rows[i], nd.ws[i] = e.k0, e.r, e.w
	nd.n++
}

// insertSep puts separator (k, row) and its right child kid into the
// parent at the end of path, splitting inner nodes up to the root as they
// fill.
func (t *prefixTree) insertSep(path []ptStep, k uint64, row rowRef, kid *ptNode) {
	if len(path) == 0 {
		root := &ptNode{n: 1, kids: new([ptOrder + 1]*ptNode)}
		t.inner++
		root.keys[0], root.rows[0] = k, row
		root.kids[0], root.kids[1] = t.root, kid
		t.root = root
		t.height++
		return
	}
	step := path[len(path)-1]
	nd, i := step.nd, step.i
	if nd.n < ptOrder {
		innerInsert(nd, i, k, row, kid)
		return
	}
	// Split: the middle separator moves up.
	mid := ptOrder / 2
	right := &ptNode{n: nd.n - mid - 1, kids: new([ptOrder + 1]*ptNode)}
	t.inner++
	upK, upRow := nd.keys[mid], nd.rows[mid]
	copy(right.keys[:], nd.keys[mid+1:nd.n])
	copy(right.rows[:], nd.rows[mid+1:nd.n])
	copy(right.kids[:], nd.kids[mid+1:nd.n+1])
	clear(nd.rows[mid:nd.n])
	clear(nd.kids[mid+1 : nd.n+1])
	nd.n = mid
	if i <= mid {
		innerInsert(nd, i, k, row, kid)
	} else {
		innerInsert(right, i-mid-1, k, row, kid)
	}
	t.insertSep(path[:len(path)-1], upK, upRow, right)
}

// innerInsert inserts separator (k, row) at position i of nd, with kid as
// the child on its right.
func innerInsert(nd *ptNode, i int, k uint64, row rowRef, kid *ptNode) {
	copy(nd.keys[i+1:nd.n+1], nd.keys[i:nd.n])
	copy(nd.rows[i+1:nd.n+1], nd.rows[i:nd.n])
	copy(nd.kids[i+2:nd.n+2], nd.kids[i+1:nd.n+1])
	nd.keys[i], nd.rows[i], nd.kids[i+1] = k, row, kid
	nd.n++
}

// removeAt removes the entry at position i of leaf.
func (t *prefixTree) removeAt(leaf *ptNode, i int, path []ptStep) {
	t.n--
	copy(leaf.keys[i:], leaf.keys[i+1:leaf.n])
	copy(leaf.rows[i:], leaf.rows[i+1:leaf.n])
	copy(leaf.ws[i:], leaf.ws[i+1:leaf.n])
	leaf.n--
	leaf.rows[leaf.n] = rowRef{}
	t.rebalance(leaf, path)
}

// rebalance restores the fill of nd, the last node of a descent along
// path, after a removal: a node under ptMin merges with a sibling or takes
// entries from it. A merge removes a separator from the parent, which may
// then need the same.
func (t *prefixTree) rebalance(nd *ptNode, path []ptStep) {
	if len(path) == 0 {
		if nd.kids != nil && nd.n == 0 { // an inner root with one child
			t.root = nd.kids[0]
			t.height--
			t.inner--
		}
		return
	}
	if nd.n >= ptMin || (nd.kids == nil && nd.n > 0 && lastChild(path)) {
		return
	}
	parent, ci := path[len(path)-1].nd, path[len(path)-1].i
	j := ci - 1 // the separator between the pair: left = kids[j], right = kids[j+1]
	if ci == 0 {
		j = 0
	}
	left, right := parent.kids[j], parent.kids[j+1]
	if nd.kids == nil {
		if left.n+right.n <= ptOrder {
			copy(left.keys[left.n:], right.keys[:right.n])
			copy(left.rows[left.n:], right.rows[:right.n])
			copy(left.ws[left.n:], right.ws[:right.n])
			left.n += right.n
			t.leaves--
			innerRemove(parent, j)
			t.rebalance(parent, path[:len(path)-1])
			return
		}
		shareLeaves(left, right)
		parent.keys[j], parent.rows[j] = right.keys[0], right.rows[0]
		return
	}
	if left.n+right.n+1 <= ptOrder {
		left.keys[left.n], left.rows[left.n] = parent.keys[j], parent.rows[j]
		copy(left.keys[left.n+1:], right.keys[:right.n])
		copy(left.rows[left.n+1:], right.rows[:right.n])
		copy(left.kids[left.n+1:], right.kids[:right.n+1])
		left.n += right.n + 1
		t.inner--
		innerRemove(parent, j)
		t.rebalance(parent, path[:len(path)-1])
		return
	}
	shareInner(left, right, parent, j)
}

// innerRemove removes separator j of nd and the child on its right.
func innerRemove(nd *ptNode, j int) {
	copy(nd.keys[j:], nd.keys[j+1:nd.n])
	copy(nd.rows[j:], nd.rows[j+1:nd.n])
	copy(nd.kids[j+1:], nd.kids[j+2:nd.n+1])
	nd.n--
	nd.rows[nd.n] = rowRef{}
	nd.kids[nd.n+1] = nil
}

// shareLeaves evens out two neighbouring leaves' entries.
func shareLeaves(left, right *ptNode) {
	total := left.n + right.n
	want := total / 2
	if left.n < want { // move right's first entries to left's end
		m := want - left.n
		copy(left.keys[left.n:], right.keys[:m])
		copy(left.rows[left.n:], right.rows[:m])
		copy(left.ws[left.n:], right.ws[:m])
		copy(right.keys[:], right.keys[m:right.n])
		copy(right.rows[:], right.rows[m:right.n])
		copy(right.ws[:], right.ws[m:right.n])
		clear(right.rows[right.n-m : right.n])
		left.n, right.n = want, right.n-m
		return
	}
	m := left.n - want // move left's last entries to right's front
	copy(right.keys[m:], right.keys[:right.n])
	copy(right.rows[m:], right.rows[:right.n])
	copy(right.ws[m:], right.ws[:right.n])
	copy(right.keys[:m], left.keys[want:left.n])
	copy(right.rows[:m], left.rows[want:left.n])
	copy(right.ws[:m], left.ws[want:left.n])
	clear(left.rows[want:left.n])
	left.n, right.n = want, right.n+m
}

// shareInner evens out two neighbouring inner nodes, separated by the
// parent's separator j, through the parent.
func shareInner(left, right, parent *ptNode, j int) {
	var keys [2*ptOrder + 1]uint64
	var rows [2*ptOrder + 1]rowRef
	var kids [2*ptOrder + 2]*ptNode
	n := copy(keys[:], left.keys[:left.n])
	copy(rows[:], left.rows[:left.n])
	copy(kids[:], left.kids[:left.n+1])
	keys[n], rows[n] = parent.keys[j], parent.rows[j]
	copy(keys[n+1:], right.keys[:right.n])
	copy(rows[n+1:], right.rows[:right.n])
	copy(kids[n+1:], right.kids[:right.n+1])
	total := left.n + right.n + 1
	ln := (total - 1) / 2
	clear(left.rows[:])
	clear(left.kids[:])
	clear(right.rows[:])
	clear(right.kids[:])
	copy(left.keys[:], keys[:ln])
	copy(left.rows[:], rows[:ln])
	copy(left.kids[:], kids[:ln+1])
	left.n = ln
	parent.keys[j], parent.rows[j] = keys[ln], rows[ln]
	rn := total - ln - 1
	copy(right.keys[:], keys[ln+1:total])
	copy(right.rows[:], rows[ln+1:total])
	copy(right.kids[:], kids[ln+1:total+1])
	right.n = rn
}

// scan calls fn for each entry in order (reversed when desc) until fn
// returns false, and reports whether fn never did.
func (t *prefixTree) scan(desc bool, fn func(row value.Row, w int64) bool) bool {
	return t.root.scan(t.height, desc, fn)
}

func (nd *ptNode) scan(height int, desc bool, fn func(row value.Row, w int64) bool) bool {
	if height == 0 {
		if desc {
			for i := nd.n - 1; i >= 0; i-- {
				if !fn(nd.rows[i].row(), nd.ws[i]) {
					return false
				}
			}
			return true
		}
		for i := range nd.n {
			if !fn(nd.rows[i].row(), nd.ws[i]) {
				return false
			}
		}
		return true
	}
	if desc {
		for i := nd.n; i >= 0; i-- {
			if !nd.kids[i].scan(height-1, desc, fn) {
				return false
			}
		}
		return true
	}
	for i := range nd.n + 1 {
		if !nd.kids[i].scan(height-1, desc, fn) {
			return false
		}
	}
	return true
}
