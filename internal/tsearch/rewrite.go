package tsearch

import "strings"

// qtn is a query node with its operands flattened, as PostgreSQL rewrites
// queries (its QTNode): an AND or OR holds all the operands of a chain of
// itself, children in PostgreSQL's order (a binary node's right operand
// first).
type qtn struct {
	n        *Node // the operator or operand (its L and R unused)
	child    []*qtn
	noChange bool // a substitute, not searched again
}

func toQTN(n *Node) *qtn {
	t := &qtn{n: n}
	if n.Op != opValue {
		t.child = append(t.child, toQTN(n.R))
		if n.Op != OpNot {
			t.child = append(t.child, toQTN(n.L))
		}
	}
	return t
}

// ternary flattens chains of AND and of OR (QTNTernary).
func (t *qtn) ternary() {
	if t.n.Op == opValue {
		return
	}
	for _, c := range t.child {
		c.ternary()
	}
	if t.n.Op != OpAnd && t.n.Op != OpOr {
		return
	}
	var out []*qtn
	for _, c := range t.child {
		if c.n.Op == t.n.Op {
			out = append(out, c.child...)
		} else {
			out = append(out, c)
		}
	}
	t.child = out
}

// sort orders the operands of each AND and OR (QTNSort).
func (t *qtn) sort() {
	if t.n.Op == opValue {
		return
	}
	for _, c := range t.child {
		c.sort()
	}
	if len(t.child) > 1 && t.n.Op != OpPhrase {
		pgSort(t.child, compareQTN)
	}
}

// compareQTN is PostgreSQL's QTNodeCompare: operators before operands,
// higher operator numbers and more children first, operands by CRC
// (higher first) then bytes; weights and prefix marks do not count.
func compareQTN(a, b *qtn) int {
	av, bv := a.n.Op == opValue, b.n.Op == opValue
	switch {
	case av != bv:
		if bv {
			return -1
		}
		return 1
	case !av:
		if a.n.Op != b.n.Op {
			return cmpDesc(int(a.n.Op), int(b.n.Op))
		}
		if len(a.child) != len(b.child) {
			return cmpDesc(len(a.child), len(b.child))
		}
		for i := range a.child {
			if r := compareQTN(a.child[i], b.child[i]); r != 0 {
				return r
			}
		}
		if a.n.Op == OpPhrase && a.n.Distance != b.n.Distance {
			return cmpDesc(a.n.Distance, b.n.Distance)
		}
		return 0
	}
	if ca, cb := legacyCRC32(a.n.Word), legacyCRC32(b.n.Word); ca != cb {
		return cmpDesc(int(ca), int(cb))
	}
	return strings.Compare(a.n.Word, b.n.Word)
}

func cmpDesc(a, b int) int {
	if a > b {
		return -1
	}
	return 1
}

// findEq replaces t by subs when it equals ex, or the children of t that
// match ex's when ex is an AND or OR of a subset of them (findeq).
func (t *qtn) findEq(ex, subs *qtn) *qtn {
	if t.noChange || (t.n.Op == opValue) != (ex.n.Op == opValue) {
		return t
	}
	if t.n.Op != opValue && t.n.Op != ex.n.Op {
		return t
	}
	if t.n.Op == opValue || len(t.child) == len(ex.child) {
		if compareQTN(t, ex) == 0 {
			return subs.copy()
		}
		return t
	}
	if len(t.child) < len(ex.child) || len(ex.child) == 0 {
		return t
	}
	matched := make([]bool, len(t.child))
	n, i, j := 0, 0, 0
	for i < len(t.child) && j < len(ex.child) {
		r := compareQTN(t.child[i], ex.child[j])
		if r > 0 {
			break
		}
		if r == 0 {
			matched[i] = true
			n++
			j++
		}
		i++
	}
	if n != len(ex.child) {
		return t
	}
	var kept []*qtn
	for i, c := range t.child {
		if !matched[i] {
			kept = append(kept, c)
		}
	}
	if s := subs.copy(); s != nil {
		kept = append(kept, s)
	}
	t.child = kept
	// PostgreSQL sorts the node again, the substitute's operands too.
	t.sort()
	return t
}

// copy returns a substitute's copy, marked not to be searched again.
func (t *qtn) copy() *qtn {
	if t == nil {
		return nil
	}
	c := &qtn{n: t.n, noChange: true}
	for _, k := range t.child {
		k = k.copy()
		k.noChange = false
		c.child = append(c.child, k)
	}
	return c
}

// findSub replaces ex by subs in t, at t itself or else in its subtrees,
// dropping operators left without operands (dofindsubquery).
func (t *qtn) findSub(ex, subs *qtn) *qtn {
	t = t.findEq(ex, subs)
	if t == nil || t.noChange || t.n.Op == opValue {
		return t
	}
	kept := t.child[:0]
	for _, c := range t.child {
		if c = c.findSub(ex, subs); c != nil {
			kept = append(kept, c)
		}
	}
	t.child = kept
	switch {
	case len(kept) == 0:
		return nil
	case len(kept) == 1 && t.n.Op != OpNot:
		return kept[0]
	}
	return t
}

// binary turns t back into a tree of binary operators (QTNBinary, then
// QTN2QT): the first two operands of a longer AND or OR pair up, the last
// takes the second place, until two are left.
func (t *qtn) binary() *Node {
	if t.n.Op == opValue {
		return t.n
	}
	cs := make([]*Node, len(t.child))
	for i, c := range t.child {
		cs[i] = c.binary()
	}
	for len(cs) > 2 {
		nn := &Node{Op: t.n.Op, R: cs[0], L: cs[1]}
		cs[0], cs[1] = nn, cs[len(cs)-1]
		cs = cs[:len(cs)-1]
	}
	n := &Node{Op: t.n.Op, Distance: t.n.Distance, R: cs[0]}
	if len(cs) > 1 {
		n.L = cs[1]
	}
	return n
}

// Rewrite is ts_rewrite(q, target, substitute): each occurrence of target
// in q (operands compared as PostgreSQL compares them, without weights or
// prefix marks; an AND or OR also matching a subset of a longer one's
// operands) replaced by substitute, the rest of q in PostgreSQL's order
// of operands.
func (q Query) Rewrite(target, substitute Query) Query {
	if q.Size() == 0 || target.Size() == 0 {
		return q
	}
	t := toQTN(q.Tree())
	t.ternary()
	t.sort()
	ex := toQTN(target.Tree())
	ex.ternary()
	ex.sort()
	var subs *qtn
	if substitute.Size() > 0 {
		subs = toQTN(substitute.Tree())
	}
	if t = t.findSub(ex, subs); t == nil {
		return EncodeQuery(nil)
	}
	return EncodeQuery(t.binary())
}

// RewriteEach is ts_rewrite(q, select) over the select's rows: each rule,
// a target and its substitute, rewrites q in turn as Rewrite does, q
// flattened and put in order again between them as PostgreSQL does. Rules with
// an empty target change nothing; once nothing is left of q the rest are
// not read.
func (q Query) RewriteEach(rules [][2]Query) Query {
	if q.Size() == 0 {
		return q
	}
	t := toQTN(q.Tree())
	t.ternary()
	t.sort()
	for _, r := range rules {
		if t == nil {
			break
		}
		if r[0].Size() == 0 {
			continue
		}
		ex := toQTN(r[0].Tree())
		ex.ternary()
		ex.sort()
		var subs *qtn
		if r[1].Size() > 0 {
			subs = toQTN(r[1].Tree())
		}
		if t = t.findSub(ex, subs); t != nil {
			// Ready for the next rule, substitutes included.
			t.clearNoChange()
			t.ternary()
			t.sort()
		}
	}
	if t == nil {
		return EncodeQuery(nil)
	}
	return EncodeQuery(t.binary())
}

func (t *qtn) clearNoChange() {
	t.noChange = false
	for _, c := range t.child {
		c.clearNoChange()
	}
}
