package pgbinary

import (
	"encoding/binary"

	"github.com/deltaview/deltaview/internal/tsearch"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's OIDs of tsvector and tsquery and of their arrays.
const (
	oidTSVector      = 3614
	oidTSQuery       = 3615
	oidTSVectorArray = 3643
	oidTSQueryArray  = 3645
)

// appendTSVectorBinary writes tsvectorsend's format: the number of
// lexemes, then each lexeme, 0-terminated, its number of positions and
// each position (weight<<14 | position).
func appendTSVectorBinary(buf []byte, tv tsearch.Vector) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(tv.Len()))
	var ps []tsearch.Pos
	for i := 0; i < tv.Len(); i++ {
		buf = append(append(buf, tv.Word(i)...), 0)
		ps = tv.Positions(i, ps[:0])
		buf = binary.BigEndian.AppendUint16(buf, uint16(len(ps)))
		for _, p := range ps {
			buf = binary.BigEndian.AppendUint16(buf, uint16(p))
		}
	}
	return buf
}

// appendTSQueryBinary writes tsquerysend's format: the number of nodes,
// then the nodes in prefix order (an operator's right operand first): an
// operand as 1, its weight mask, its prefix flag and its lexeme,
// 0-terminated; an operator as 2, its number and for <N> the distance.
func appendTSQueryBinary(buf []byte, q tsearch.Query) []byte {
	buf = binary.BigEndian.AppendUint32(buf, uint32(q.Size()))
	var walk func(n *tsearch.Node)
	walk = func(n *tsearch.Node) {
		if n == nil {
			return
		}
		if n.Op == 0 {
			prefix := byte(0)
			if n.Prefix {
				prefix = 1
			}
			buf = append(append(append(buf, 1, n.Weight, prefix), n.Word...), 0)
			return
		}
		buf = append(buf, 2, n.Op)
		if n.Op == tsearch.OpPhrase {
			buf = binary.BigEndian.AppendUint16(buf, uint16(n.Distance))
		}
		walk(n.R)
		if n.Op != tsearch.OpNot {
			walk(n.L)
		}
	}
	walk(q.Tree())
	return buf
}

// tsearchOID returns the OID of a tsvector or tsquery type or of an array
// of them; 0 for other kinds.
func tsearchOID(k value.Kind) uint32 {
	switch k {
	case value.TSVector:
		return oidTSVector
	case value.TSQuery:
		return oidTSQuery
	case value.ArrayOf(value.TSVector):
		return oidTSVectorArray
	case value.ArrayOf(value.TSQuery):
		return oidTSQueryArray
	}
	return 0
}
