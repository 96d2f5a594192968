package pgbinary

import (
	"encoding/binary"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's OIDs of bytea, bit, bit varying and uuid, and of their
// arrays.
const (
	oidBytea  = 17
	oidBit    = 1560
	oidVarbit = 1562
	oidUUID   = 2950
)

// appendBytesBinary appends a bytea, bit string or uuid in PostgreSQL's
// binary format: a bytea's and a uuid's bytes as they are; a bit string's
// length in bits as an int32, then its bits packed eight to a byte, the
// first bit highest, the last byte padded with zeros.
func appendBytesBinary(buf []byte, v value.Value, k value.Kind) []byte {
	s := v.Str()
	if !k.IsBits() {
		return append(buf, s...)
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(s)))
	for i := 0; i < len(s); i += 8 {
		var b byte
		for j := 0; j < 8; j++ {
			b <<= 1
			if i+j < len(s) && s[i+j] == '1' {
				b |= 1
			}
		}
		buf = append(buf, b)
	}
	return buf
}

// decodeBytesParam reads a binary bytea, bit string or uuid parameter.
func decodeBytesParam(b []byte, k value.Kind, n int) (value.Value, error) {
	bad := func() (value.Value, error) {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format in bind parameter %d", n)
	}
	switch k {
	case value.Bytea:
		return value.NewBytea(append([]byte(nil), b...)), nil
	case value.UUID:
		if len(b) != 16 {
			return bad()
		}
		return value.NewUUID([16]byte(b)), nil
	}
	if len(b) < 4 {
		return bad()
	}
	bits := int(int32(binary.BigEndian.Uint32(b)))
	b = b[4:]
	if bits < 0 || (bits+7)/8 != len(b) {
		return bad()
	}
	s := make([]byte, bits)
	for i := range s {
		s[i] = '0' + b[i/8]>>(7-i%8)&1
	}
	return value.NewBits(k, string(s)), nil
}
