package pgbinary

import (
	"encoding/binary"
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's OIDs of the geometric types.
const (
	oidPoint   = 600
	oidLSeg    = 601
	oidPath    = 602
	oidBox     = 603
	oidPolygon = 604
	oidLine    = 628
	oidCircle  = 718
)

// appendGeometricBinary appends a geometric value in PostgreSQL's binary
// format: its floats, big-endian, in stored order, after a path's closed
// byte and point count or a polygon's point count.
func appendGeometricBinary(buf []byte, v value.Value, k value.Kind) []byte {
	switch k {
	case value.Path:
		closed := byte(0)
		if v.GeoPath().Closed {
			closed = 1
		}
		buf = binary.BigEndian.AppendUint32(append(buf, closed), uint32(value.GeoCount(v)))
	case value.Polygon:
		buf = binary.BigEndian.AppendUint32(buf, uint32(value.GeoCount(v)))
	}
	for _, f := range value.GeoFloats(v) {
		buf = binary.BigEndian.AppendUint64(buf, math.Float64bits(f))
	}
	return buf
}

// geoFixedFloats are the floats of the fixed-size geometric types.
var geoFixedFloats = map[value.Kind]int{value.Point: 2, value.LSeg: 4, value.Box: 4, value.Line: 3, value.Circle: 3}

// decodeGeometricParam reads a binary geometric parameter.
func decodeGeometricParam(b []byte, k value.Kind, n int) (value.Value, error) {
	bad := func() (value.Value, error) {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format in bind parameter %d", n)
	}
	closed := false
	count := geoFixedFloats[k] / 2
	switch k {
	case value.Path:
		if len(b) < 5 {
			return bad()
		}
		closed = b[0] != 0
		b = b[1:]
		fallthrough
	case value.Polygon:
		if len(b) < 4 {
			return bad()
		}
		count = int(binary.BigEndian.Uint32(b))
		b = b[4:]
	}
	nf := 2 * count
	if k == value.Line || k == value.Circle {
		nf = 3
	}
	if len(b) != 8*nf {
		return bad()
	}
	fs := make([]float64, nf)
	for i := range fs {
		fs[i] = math.Float64frombits(binary.BigEndian.Uint64(b[8*i:]))
	}
	return value.GeoFromFloats(k, closed, fs)
}
