package pgbinary

import (
	"encoding/binary"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// rangeOIDs are PostgreSQL's OIDs of the range and multirange types and
// of their arrays.
var rangeOIDs = map[value.Kind][2]uint32{
	value.Int4Range:      {3904, 3905},
	value.NumRange:       {3906, 3907},
	value.TSRange:        {3908, 3909},
	value.TSTZRange:      {3910, 3911},
	value.DateRange:      {3912, 3913},
	value.Int8Range:      {3926, 3927},
	value.Int4Multirange: {4451, 6150},
	value.NumMultirange:  {4532, 6151},
	value.TSMultirange:   {4533, 6152},
	value.TSTZMultirange: {4534, 6153},
	value.DateMultirange: {4535, 6155},
	value.Int8Multirange: {4536, 6157},
}

// rangeOID returns the OID of a range or multirange type or of an array
// of them; 0 for other kinds. A user range type has the numbers CREATE
// TYPE gave it.
func rangeOID(t value.Type) uint32 {
	if d := t.UserRange(); d != nil {
		return map[value.Kind]uint32{value.UserRange: d.OID, value.ArrayOf(value.UserRange): d.ArrayOID,
			value.UserMultirange: d.MultiOID, value.ArrayOf(value.UserMultirange): d.MultiArrayOID}[t.Kind]
	}
	k := t.Kind
	if k.IsArray() {
		return rangeOIDs[k.Elem()][1]
	}
	return rangeOIDs[k][0]
}

// Range flags of range_send, as PostgreSQL's rangetypes.h defines them.
const (
	rangeSendEmpty    = 0x01
	rangeSendLowerInc = 0x02
	rangeSendUpperInc = 0x04
	rangeSendLowerInf = 0x08
	rangeSendUpperInf = 0x10
)

// appendRangeBinary writes range_send's format: a flags byte, then each
// finite bound as its length and its element's binary form.
func appendRangeBinary(buf []byte, v value.Value) []byte {
	if v.IsEmptyRange() {
		return append(buf, rangeSendEmpty)
	}
	lo, hi := v.RangeBounds()
	var flags byte
	for _, f := range []struct {
		on  bool
		bit byte
	}{{lo.Inc, rangeSendLowerInc}, {hi.Inc, rangeSendUpperInc}, {lo.Inf, rangeSendLowerInf}, {hi.Inf, rangeSendUpperInf}} {
		if f.on {
			flags |= f.bit
		}
	}
	buf = append(buf, flags)
	for _, b := range []value.RangeBound{lo, hi} {
		if b.Inf {
			continue
		}
		at := len(buf)
		buf = binary.BigEndian.AppendUint32(buf, 0)
		buf = AppendBinary(buf, b.Val, b.Val.Kind())
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf
}

// appendMultirangeBinary writes multirange_send's format: the number of
// ranges, then each as its length and range_send's format.
func appendMultirangeBinary(buf []byte, v value.Value) []byte {
	rs := v.Ranges()
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(rs)))
	for _, r := range rs {
		at := len(buf)
		buf = binary.BigEndian.AppendUint32(buf, 0)
		buf = appendRangeBinary(buf, r)
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf
}

// decodeMultirangeParam reads a multirange parameter in
// multirange_send's format.
func decodeMultirangeParam(b []byte, t value.Type, n int) (value.Value, error) {
	bad := func() (value.Value, error) {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format in bind parameter %d", n)
	}
	if len(b) < 4 {
		return bad()
	}
	count := int(binary.BigEndian.Uint32(b))
	b = b[4:]
	if count > len(b)/5 {
		return bad()
	}
	rs := make([]value.Value, 0, count)
	for range count {
		if len(b) < 4 {
			return bad()
		}
		size := int(binary.BigEndian.Uint32(b))
		b = b[4:]
		if size > len(b) {
			return bad()
		}
		r, err := decodeRangeParam(b[:size], t.RangeType(), n)
		if err != nil {
			return value.Null, err
		}
		rs = append(rs, r)
		b = b[size:]
	}
	if len(b) != 0 {
		return bad()
	}
	return value.MakeMultirange(t.Kind, rs)
}

// decodeRangeParam reads a range parameter in range_send's format
// (appendRangeBinary's).
func decodeRangeParam(b []byte, t value.Type, n int) (value.Value, error) {
	k := t.Kind
	bad := func() (value.Value, error) {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format in bind parameter %d", n)
	}
	if len(b) == 0 {
		return bad()
	}
	flags := b[0]
	b = b[1:]
	if flags&rangeSendEmpty != 0 {
		if len(b) != 0 {
			return bad()
		}
		return value.EmptyRange(k), nil
	}
	lo := value.RangeBound{Inc: flags&rangeSendLowerInc != 0, Inf: flags&rangeSendLowerInf != 0}
	hi := value.RangeBound{Inc: flags&rangeSendUpperInc != 0, Inf: flags&rangeSendUpperInf != 0}
	et := t.RangeSubtype()
	for _, bd := range []*value.RangeBound{&lo, &hi} {
		if bd.Inf {
			continue
		}
		if len(b) < 4 {
			return bad()
		}
		size := int(binary.BigEndian.Uint32(b))
		b = b[4:]
		if size > len(b) {
			return bad()
		}
		v, err := DecodeParam(b[:size], 1, et, n)
		if err != nil {
			return value.Null, err
		}
		bd.Val = v
		b = b[size:]
	}
	if len(b) != 0 {
		return bad()
	}
	return value.MakeRange(k, lo, hi, false)
}
