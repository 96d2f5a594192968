package tsearch

import (
	"encoding/binary"
	"strconv"
	"strings"
	"sync/atomic"
)

// Query is a tsquery in deltaview's stored form, a string whose bytewise
// order is PostgreSQL's btree order of tsqueries (tsquery_cmp): its number
// of nodes, its size as PostgreSQL stores it, then its tree in prefix
// order, each operator's right operand before its left one as PostgreSQL
// compares them; the operands' weights and prefix marks follow the tree:
//
//	count uint32, size uint32, tree, flags, operands uint32
//	operator: 0, ^op, right, [left], [^distance uint16 for <N>]
//	operand:  1, ^crc32 (sign flipped), bytes, 0
//	flags:    weight<<1|prefix of each operand in the tree's order
//
// PostgreSQL ignores weights and prefix marks when it compares queries
// ('a:A' = 'a'); OrderKey, the string without them, is that order, and the
// whole string (a tree's encoding is never a prefix of another's) orders
// such equal queries by their marks.
type Query string

// OrderKey returns the part of q that PostgreSQL's order reads: q without
// its operands' weights and prefix marks.
func (q Query) OrderKey() string {
	if len(q) < 12 {
		return string(q)
	}
	ops := u32(string(q), len(q)-4)
	return string(q[:len(q)-4-ops])
}

// Operators of a query, with PostgreSQL's numbers.
const (
	OpNot    = 1
	OpAnd    = 2
	OpOr     = 3
	OpPhrase = 4
	opStop   = 5 // a stop word's placeholder while a query is built
	opValue  = 0
)

// priority is PostgreSQL's operator priority (tsearch_op_priority).
func priority(op uint8) int {
	return [...]int{OpNot: 4, OpAnd: 2, OpOr: 1, OpPhrase: 3}[op]
}

// Node is a node of a query tree while it is built or rewritten.
type Node struct {
	Op       uint8 // 0 for an operand
	Distance int   // of <N>
	L, R     *Node // R alone for !
	Word     string
	Weight   uint8 // bit 3 A … bit 0 D; 0 for any
	Prefix   bool
}

// Value returns an operand node.
func Value(word string, weight uint8, prefix bool) *Node {
	return &Node{Word: word, Weight: weight, Prefix: prefix}
}

// count returns the number of nodes and the bytes of the operands with a
// terminator each, as PostgreSQL sizes a query.
func (n *Node) count() (nodes, bytes int) {
	if n == nil {
		return 0, 0
	}
	if n.Op == opValue {
		return 1, len(n.Word) + 1
	}
	a, b := n.L.count()
	c, d := n.R.count()
	return 1 + a + c, b + d
}

// legacyCRC32 is PostgreSQL's legacy CRC-32 of an operand (valcrc), the
// first key of operands in its order of queries.
func legacyCRC32(s string) int32 {
	crc := ^uint32(0)
	for i := 0; i < len(s); i++ {
		crc = crcTable[byte(crc>>24)^s[i]] ^ crc<<8
	}
	return int32(^crc)
}

var crcTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i)
		for j := 0; j < 8; j++ {
			if c&1 != 0 {
				c = c>>1 ^ 0xEDB88320
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return
}()

// EncodeQuery stores the tree n (nil for an empty query).
func EncodeQuery(n *Node) Query {
	nodes, bytes := n.count()
	b := make([]byte, 8, 8+4*nodes+bytes+4*nodes)
	binary.BigEndian.PutUint32(b, uint32(nodes))
	size := 8
	if nodes > 0 {
		size += 12*nodes + bytes
	}
	binary.BigEndian.PutUint32(b[4:], uint32(size))
	if n == nil {
		return Query(b)
	}
	b = appendNode(b, n)
	ops := len(b)
	b = appendFlags(b, n)
	return Query(binary.BigEndian.AppendUint32(b, uint32(len(b)-ops)))
}

// appendFlags appends the weight and prefix mark of each operand of n in
// appendNode's order.
func appendFlags(b []byte, n *Node) []byte {
	if n.Op == opValue {
		flags := n.Weight << 1
		if n.Prefix {
			flags |= 1
		}
		return append(b, flags)
	}
	b = appendFlags(b, n.R)
	if n.Op != OpNot {
		b = appendFlags(b, n.L)
	}
	return b
}

func appendNode(b []byte, n *Node) []byte {
	if n == nil {
		return b
	}
	if n.Op == opValue {
		b = append(b, 1)
		b = binary.BigEndian.AppendUint32(b, ^(uint32(legacyCRC32(n.Word)) ^ 1<<31))
		return append(append(b, n.Word...), 0)
	}
	b = append(b, 0, ^n.Op)
	b = appendNode(b, n.R)
	if n.Op != OpNot {
		b = appendNode(b, n.L)
	}
	if n.Op == OpPhrase {
		b = binary.BigEndian.AppendUint16(b, ^uint16(n.Distance))
	}
	return b
}

// Size returns the number of nodes of q (numnode).
func (q Query) Size() int {
	if len(q) < 8 {
		return 0
	}
	return u32(string(q), 0)
}

// Tree decodes q; nil for an empty query. The tree is shared: callers
// must not modify it. The last tree decoded is kept, so that matching many
// rows with one query decodes it once.
func (q Query) Tree() *Node {
	if q.Size() == 0 {
		return nil
	}
	if c := lastTree.Load(); c != nil && c.q == string(q) {
		return c.n
	}
	own := strings.Clone(string(q))
	flags := len(own) - 4 - u32(own, len(own)-4)
	n, _, _ := decodeNode(own, 8, flags)
	lastTree.Store(&decoded{q: own, n: n})
	return n
}

type decoded struct {
	q string
	n *Node
}

var lastTree atomic.Pointer[decoded]

// decodeNode decodes the node at at, whose first operand's flags are at
// flags; it returns the offsets past the node and past its operands' flags.
func decodeNode(s string, at, flags int) (*Node, int, int) {
	if s[at] == 1 {
		at += 5
		end := at
		for s[end] != 0 {
			end++
		}
		f := s[flags]
		return &Node{Word: s[at:end], Weight: f >> 1, Prefix: f&1 != 0}, end + 1, flags + 1
	}
	n := &Node{Op: ^s[at+1]}
	n.R, at, flags = decodeNode(s, at+2, flags)
	if n.Op != OpNot {
		n.L, at, flags = decodeNode(s, at, flags)
	}
	if n.Op == OpPhrase {
		n.Distance = int(^(uint16(s[at])<<8 | uint16(s[at+1])))
		at += 2
	}
	return n, at, flags
}

// AppendText writes tsquery_out's form.
func (q Query) AppendText(b []byte) []byte {
	return AppendTree(b, q.Tree())
}

// AppendTree writes n as tsquery_out writes a query, with the fewest
// parentheses its operators' priorities need.
func AppendTree(b []byte, n *Node) []byte {
	if n == nil {
		return b
	}
	return appendInfix(b, n, -1, false)
}

func appendInfix(b []byte, n *Node, parent int, rightOfPhrase bool) []byte {
	switch n.Op {
	case opValue:
		b = appendQuoted(b, n.Word)
		if n.Weight != 0 || n.Prefix {
			b = append(b, ':')
			if n.Prefix {
				b = append(b, '*')
			}
			for i, c := range "ABCD" {
				if n.Weight&(8>>i) != 0 {
					b = append(b, byte(c))
				}
			}
		}
		return b
	case OpNot:
		pr := priority(OpNot)
		if pr < parent {
			b = append(b, "( "...)
		}
		b = appendInfix(append(b, '!'), n.R, pr, false)
		if pr < parent {
			b = append(b, " )"...)
		}
		return b
	}
	pr := priority(n.Op)
	paren := pr < parent || n.Op == OpPhrase && rightOfPhrase
	if paren {
		b = append(b, "( "...)
	}
	b = appendInfix(b, n.L, pr, false)
	switch n.Op {
	case OpOr:
		b = append(b, " | "...)
	case OpAnd:
		b = append(b, " & "...)
	case OpPhrase:
		if n.Distance != 1 {
			b = strconv.AppendInt(append(b, " <"...), int64(n.Distance), 10)
			b = append(b, "> "...)
		} else {
			b = append(b, " <-> "...)
		}
	}
	b = appendInfix(b, n.R, pr, n.Op == OpPhrase)
	if paren {
		b = append(b, " )"...)
	}
	return b
}

// Operands appends the operands of n in PostgreSQL's item order (each
// operator's right operand first).
func (n *Node) Operands(out []*Node) []*Node {
	if n == nil {
		return out
	}
	if n.Op == opValue {
		return append(out, n)
	}
	out = n.R.Operands(out)
	if n.Op != OpNot {
		out = n.L.Operands(out)
	}
	return out
}

// WithoutNot returns n without its negations, as querytree shows a query
// (PostgreSQL's clean_NOT): a NOT goes, an AND or a phrase keeps the sides
// left, an OR goes with either side. nil when nothing is left.
func WithoutNot(n *Node) *Node {
	switch n.Op {
	case opValue:
		return n
	case OpNot:
		return nil
	case OpOr:
		l := WithoutNot(n.L)
		if l == nil {
			return nil
		}
		r := WithoutNot(n.R)
		if r == nil {
			return nil
		}
		return &Node{Op: OpOr, L: l, R: r}
	}
	l, r := WithoutNot(n.L), WithoutNot(n.R)
	switch {
	case l == nil:
		return r
	case r == nil:
		return l
	}
	c := *n
	c.L, c.R = l, r
	return &c
}

// Contains is q @> r: q has at least as many nodes as r, and each operand
// of r is among q's, compared as PostgreSQL compares them, by their CRC.
func (q Query) Contains(r Query) bool {
	if q.Size() < r.Size() {
		return false
	}
	have := map[int32]bool{}
	for _, o := range q.Tree().Operands(nil) {
		have[legacyCRC32(o.Word)] = true
	}
	for _, o := range r.Tree().Operands(nil) {
		if !have[legacyCRC32(o.Word)] {
			return false
		}
	}
	return true
}
