package pgbinary

import (
	"encoding/binary"
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's type OIDs of the kinds deltaview supports.
const (
	oidBool        = 16
	oidInt8        = 20
	oidInt2        = 21
	oidInt4        = 23
	oidText        = 25
	oidFloat4      = 700
	oidFloat8      = 701
	oidUnknown     = 705
	oidBpchar      = 1042
	oidVarchar     = 1043
	oidDate        = 1082
	oidTimestamp   = 1114
	oidTimestampTZ = 1184
	oidNumeric     = 1700
	oidInterval    = 1186
	oidTime        = 1083
	oidTimeTZ      = 1266
	oidMoney       = 790
)

var kindOIDs = [...]uint32{
	value.Unknown:     oidText, // an untyped NULL or literal reads as text, as in PostgreSQL
	value.Bool:        oidBool,
	value.Int2:        oidInt2,
	value.Int4:        oidInt4,
	value.Int8:        oidInt8,
	value.Numeric:     oidNumeric,
	value.Float4:      oidFloat4,
	value.Float8:      oidFloat8,
	value.Text:        oidText,
	value.Varchar:     oidVarchar,
	value.Char:        oidBpchar,
	value.Date:        oidDate,
	value.Timestamp:   oidTimestamp,
	value.TimestampTZ: oidTimestampTZ,
	value.Bytea:       oidBytea,
	value.Bit:         oidBit,
	value.Varbit:      oidVarbit,
	value.UUID:        oidUUID,
	value.Interval:    oidInterval,
	value.Time:        oidTime,
	value.TimeTZ:      oidTimeTZ,
	value.Inet:        oidInet,
	value.Cidr:        oidCidr,
	value.MacAddr:     oidMacAddr,
	value.MacAddr8:    oidMacAddr8,
	value.Money:       oidMoney,
	value.Point:       oidPoint,
	value.LSeg:        oidLSeg,
	value.Path:        oidPath,
	value.Box:         oidBox,
	value.Polygon:     oidPolygon,
	value.Line:        oidLine,
	value.Circle:      oidCircle,
	value.XML:         oidXML,

	value.Oid:          26,
	value.RegClass:     2205,
	value.RegType:      2206,
	value.RegProc:      24,
	value.RegProcedure: 2202,
	value.RegNamespace: 4089,
	value.RegRole:      4096,
	value.RegCollation: 4191,
	value.RegConfig:    3734,
	value.RegOper:      2203,
	value.RegOperator:  2204,
	value.Tid:          27,
	value.Xid:          28,
	value.Cid:          29,
	value.PgLSN:        3220,
	value.InternalChar: 18,
	value.Int2Vector:   22,
	value.OidVector:    30,
	value.Name:         19,
	value.Xid8:         5069,
	value.ACLItem:      1033,
	value.PgSnapshot:   5038,
	value.TxidSnapshot: 2970,
	value.RefCursor:    1790,
	value.Cstring:      2275,
	value.Void:         2278,
	value.Trigger:      2279,
	value.EventTrigger: 3838,
}

// arrayOIDs are the OIDs of the array types, by element kind.
var arrayOIDs = [...]uint32{
	value.Unknown:     1009, // text[]
	value.Bool:        1000,
	value.Int2:        1005,
	value.Int4:        1007,
	value.Int8:        1016,
	value.Numeric:     1231,
	value.Float4:      1021,
	value.Float8:      1022,
	value.Text:        1009,
	value.Varchar:     1015,
	value.Char:        1014,
	value.Date:        1182,
	value.Timestamp:   1115,
	value.TimestampTZ: 1185,
	value.Bytea:       1001,
	value.Bit:         1561,
	value.Varbit:      1563,
	value.UUID:        2951,
	value.Interval:    1187,
	value.Time:        1183,
	value.TimeTZ:      1270,
	value.Inet:        1041,
	value.Cidr:        651,
	value.MacAddr:     1040,
	value.MacAddr8:    775,
	value.Money:       791,
	value.Point:       1017,
	value.LSeg:        1018,
	value.Path:        1019,
	value.Box:         1020,
	value.Polygon:     1027,
	value.Line:        629,
	value.Circle:      719,
	value.XML:         143,

	value.Oid:          1028,
	value.RegClass:     2210,
	value.RegType:      2211,
	value.RegProc:      1008,
	value.RegProcedure: 2207,
	value.RegNamespace: 4090,
	value.RegRole:      4097,
	value.RegCollation: 4192,
	value.RegConfig:    3735,
	value.RegOper:      2208,
	value.RegOperator:  2209,
	value.Tid:          1010,
	value.Xid:          1011,
	value.Cid:          1012,
	value.PgLSN:        3221,
	value.InternalChar: 1002,
	value.Int2Vector:   1006,
	value.OidVector:    1013,
	value.Name:         1003,
	value.Xid8:         271,
	value.ACLItem:      1034,
	value.PgSnapshot:   5039,
	value.TxidSnapshot: 2949,
	value.RefCursor:    2201,
	value.Cstring:      1263,
}

// TypeOID returns the OID of t's type.
func TypeOID(t value.Type) uint32 {
	if d := t.Enum(); d != nil {
		// A user-defined type has the numbers CREATE TYPE gave it.
		if t.Kind.IsArray() {
			return d.ArrayOID
		}
		return d.OID
	}
	if d := t.RecordDesc(); d != nil && d.OID != 0 {
		// A composite type has the numbers CREATE TYPE gave it.
		if t.Kind.IsArray() {
			return d.ArrayOID
		}
		return d.OID
	}
	if t.Kind == value.ArrayOf(value.Record) {
		return oidRecordArray
	}
	if oid := JSONOID(t.Kind); oid != 0 {
		return oid
	}
	if oid := tsearchOID(t.Kind); oid != 0 {
		return oid
	}
	if oid := rangeOID(t); oid != 0 {
		return oid
	}
	if e := t.Kind.Elem(); t.Kind.IsArray() && !t.Kind.IsVector() {
		if int(e) < len(arrayOIDs) {
			return arrayOIDs[e]
		}
		return arrayOIDs[value.Text] // the element reads as text, as it does alone
	}
	if t.Kind == value.Record {
		return oidRecord
	}
	if int(t.Kind) < len(kindOIDs) {
		return kindOIDs[t.Kind]
	}
	return oidText
}

// TypeSize returns pg_type.typlen of t's type: -1 for variable length.
func TypeSize(t value.Type) int16 {
	switch t.Kind {
	case value.Bool, value.InternalChar:
		return 1
	case value.Int2:
		return 2
	case value.Int4, value.Float4, value.Date, value.Void, value.Trigger, value.EventTrigger:
		return 4
	case value.Oid, value.RegClass, value.RegType, value.RegProc, value.RegProcedure, value.RegNamespace, value.RegRole, value.RegCollation, value.RegConfig, value.RegOper, value.RegOperator:
		return 4
	case value.Xid, value.Cid:
		return 4
	case value.Tid:
		return 6
	case value.Int8, value.Float8, value.Timestamp, value.TimestampTZ, value.Money, value.PgLSN, value.Xid8:
		return 8
	case value.ACLItem:
		return 12
	case value.Time:
		return 8
	case value.TimeTZ:
		return 12
	case value.Interval, value.UUID:
		return 16
	case value.MacAddr:
		return 6
	case value.MacAddr8:
		return 8
	case value.Name:
		return value.NameDataLen
	case value.Point:
		return 16
	case value.LSeg, value.Box:
		return 32
	case value.Line, value.Circle:
		return 24
	}
	return -1
}

// TypeModifier returns t's atttypmod as PostgreSQL reports it: the length
// plus 4 for varchar(n) and char(n), (precision<<16 | scale) + 4 for
// numeric(p,s), the precision for timestamp(p), otherwise -1.
func TypeModifier(t value.Type) int32 {
	if t.Mod < 0 {
		return -1
	}
	if t.Kind.IsArray() && value.TakesModifier(t.Kind.Elem()) {
		return TypeModifier(t.ElemTypeMod()) // an array's modifier is its elements'
	}
	switch t.Kind {
	case value.Varchar, value.Char, value.Numeric:
		return t.Mod + 4
	case value.Timestamp, value.TimestampTZ, value.Bit, value.Varbit:
		return t.Mod
	case value.Time, value.TimeTZ:
		return t.Mod
	}
	return -1
}

// AppendBinary appends v in PostgreSQL's binary format of type k.
func AppendBinary(buf []byte, v value.Value, k value.Kind) []byte {
	switch k {
	case value.Bool:
		if v.Bool() {
			return append(buf, 1)
		}
		return append(buf, 0)
	case value.Int2:
		return binary.BigEndian.AppendUint16(buf, uint16(v.Int()))
	case value.Int4:
		return binary.BigEndian.AppendUint32(buf, uint32(v.Int()))
	case value.Int8, value.Money: // money's binary form is its cents as a bigint's
		return binary.BigEndian.AppendUint64(buf, uint64(v.Int()))
	case value.Oid, value.RegClass, value.RegType, value.RegProc, value.RegProcedure, value.RegNamespace, value.RegRole, value.RegCollation, value.RegConfig, value.RegOper, value.RegOperator:
		return binary.BigEndian.AppendUint32(buf, v.OID())
	case value.Xid, value.Cid:
		return binary.BigEndian.AppendUint32(buf, uint32(v.Int()))
	case value.PgLSN:
		return binary.BigEndian.AppendUint64(buf, v.LSN())
	case value.Xid8:
		return binary.BigEndian.AppendUint64(buf, v.Xid8())
	case value.InternalChar: // charsend: the byte
		return append(buf, v.CharByte())
	case value.Tid: // the block, then the offset
		return binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint32(buf, uint32(v.Int()>>16)), uint16(v.Int()))
	case value.Float4:
		if math.IsNaN(v.Float()) {
			return binary.BigEndian.AppendUint32(buf, 0x7FC00000) // PostgreSQL's NaN, whatever the payload
		}
		return binary.BigEndian.AppendUint32(buf, math.Float32bits(float32(v.Float())))
	case value.Float8:
		if math.IsNaN(v.Float()) {
			return binary.BigEndian.AppendUint64(buf, 0x7FF8000000000000)
		}
		return binary.BigEndian.AppendUint64(buf, math.Float64bits(v.Float()))
	case value.Date:
		// Days since 2000-01-01, PostgreSQL's epoch; the infinities are
		// the same extreme values.
		return binary.BigEndian.AppendUint32(buf, uint32(int32(v.Int())))
	case value.Timestamp, value.TimestampTZ:
		return binary.BigEndian.AppendUint64(buf, uint64(v.Int()))
	case value.Numeric:
		return appendNumericBinary(buf, v)
	case value.JSONB, value.JSONPath:
		return value.AppendText(append(buf, jsonbBinaryVersion), v)
	case value.Time, value.TimeTZ, value.Interval:
		return appendTimeBinary(buf, v)
	case value.TSVector:
		return appendTSVectorBinary(buf, v.TSVector())
	case value.TSQuery:
		return appendTSQueryBinary(buf, v.TSQuery())
	case value.Int4Range, value.Int8Range, value.NumRange, value.DateRange, value.TSRange, value.TSTZRange, value.UserRange:
		return appendRangeBinary(buf, v)
	case value.Int4Multirange, value.Int8Multirange, value.NumMultirange, value.DateMultirange, value.TSMultirange, value.TSTZMultirange, value.UserMultirange:
		return appendMultirangeBinary(buf, v)
	case value.PgSnapshot, value.TxidSnapshot:
		return appendSnapshotBinary(buf, v)
	}
	if k.IsArray() {
		return appendArrayBinary(buf, v, k.Elem())
	}
	if k == value.Record {
		return appendRecordBinary(buf, v)
	}
	if k.IsBytes() {
		return appendBytesBinary(buf, v, k)
	}
	if k.IsNetwork() {
		return appendNetworkBinary(buf, v, k)
	}
	if k.IsGeometric() {
		return appendGeometricBinary(buf, v, k)
	}
	return value.AppendText(buf, v)
}

// appendArrayBinary writes PostgreSQL's binary array format: the number of
// dimensions (0 when empty), a has-NULLs flag, the element type's OID, the
// length and lower bound of each dimension, then each element in
// row-major order as its length (-1 for NULL) and its binary form.
func appendArrayBinary(buf []byte, v value.Value, elem value.Kind) []byte {
	es := v.Elems()
	hasNull := uint32(0)
	for _, e := range es {
		if e.IsNull() {
			hasNull = 1
		}
	}
	dims := v.Dims()
	buf = binary.BigEndian.AppendUint32(buf, uint32(len(dims)))
	buf = binary.BigEndian.AppendUint32(buf, hasNull)
	buf = binary.BigEndian.AppendUint32(buf, TypeOID(value.Type{Kind: elem, Mod: -1}))
	for _, d := range dims {
		buf = binary.BigEndian.AppendUint32(buf, uint32(d.Len))
		buf = binary.BigEndian.AppendUint32(buf, uint32(int32(d.Lower)))
	}
	for _, e := range es {
		if e.IsNull() {
			buf = binary.BigEndian.AppendUint32(buf, ^uint32(0))
			continue
		}
		at := len(buf)
		buf = binary.BigEndian.AppendUint32(buf, 0)
		buf = AppendBinary(buf, e, elem)
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	return buf
}

// appendNumericBinary encodes a numeric as PostgreSQL's numeric_send
// (numeric_binary.go).
func appendNumericBinary(buf []byte, v value.Value) []byte {
	return appendNumeric(buf, v.Decimal())
}

// DecodeParam reads a parameter sent in format (0 text, 1 binary) as a
// value of type t. A text parameter is passed on as text: the engine reads
// it with t's input function, as PostgreSQL does.
func DecodeParam(b []byte, format int16, t value.Type, n int) (value.Value, error) {
	if b == nil {
		return value.Null, nil
	}
	if format == 0 {
		return value.NewText(value.Text, string(b)), nil
	}
	bad := func() (value.Value, error) {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format in bind parameter %d", n)
	}
	// width is the error of a value of a fixed-width type that is not w
	// bytes long: PostgreSQL's receive function reads w bytes, failing
	// with 08P01 when there are fewer, and the bytes left over are 22P03.
	width := func(w int) (value.Value, error) {
		switch {
		case len(b) >= w:
			return bad()
		case w == 1:
			return value.Null, pgerr.New(pgerr.ProtocolViolation, "no data left in message")
		}
		return value.Null, pgerr.New(pgerr.ProtocolViolation, "insufficient data left in message")
	}
	switch t.Kind {
	case value.Bool:
		if len(b) != 1 {
			return width(1)
		}
		return value.NewBool(b[0] != 0), nil
	case value.Int2:
		if len(b) != 2 {
			return width(2)
		}
		return value.NewInt(value.Int2, int64(int16(binary.BigEndian.Uint16(b)))), nil
	case value.Int4:
		if len(b) != 4 {
			return width(4)
		}
		return value.NewInt(value.Int4, int64(int32(binary.BigEndian.Uint32(b)))), nil
	case value.Int8:
		if len(b) != 8 {
			return width(8)
		}
		return value.NewInt(value.Int8, int64(binary.BigEndian.Uint64(b))), nil
	case value.Money:
		if len(b) != 8 {
			return width(8)
		}
		return value.NewMoney(int64(binary.BigEndian.Uint64(b))), nil
	case value.InternalChar:
		if len(b) != 1 {
			return width(1)
		}
		return value.NewInternalChar(b[0]), nil
	case value.PgLSN:
		if len(b) != 8 {
			return width(8)
		}
		return value.NewPgLSN(binary.BigEndian.Uint64(b)), nil
	case value.Xid8:
		if len(b) != 8 {
			return width(8)
		}
		return value.NewXid8(binary.BigEndian.Uint64(b)), nil
	case value.Oid:
		if len(b) != 4 {
			return width(4)
		}
		return value.NewOid(binary.BigEndian.Uint32(b)), nil
	case value.Float4:
		if len(b) != 4 {
			return width(4)
		}
		return value.NewFloat(value.Float4, float64(math.Float32frombits(binary.BigEndian.Uint32(b)))), nil
	case value.Float8:
		if len(b) != 8 {
			return width(8)
		}
		return value.NewFloat(value.Float8, math.Float64frombits(binary.BigEndian.Uint64(b))), nil
	case value.Date:
		if len(b) != 4 {
			return width(4)
		}
		return value.NewDate(int64(int32(binary.BigEndian.Uint32(b)))), nil
	case value.Timestamp, value.TimestampTZ:
		if len(b) != 8 {
			return width(8)
		}
		return value.NewTimestamp(t.Kind, int64(binary.BigEndian.Uint64(b))), nil
	case value.Time, value.TimeTZ, value.Interval:
		v, ok := decodeTimeBinary(b, t.Kind)
		if !ok {
			return bad()
		}
		return v, nil
	case value.Numeric:
		text, ok := numericText(b)
		if !ok {
			return bad()
		}
		return value.Parse(text, value.NumericType)
	case value.PgSnapshot, value.TxidSnapshot:
		v, ok := decodeSnapshotBinary(b, t.Kind)
		if !ok {
			return bad()
		}
		return v, nil
	}
	if t.Kind.IsVector() {
		return decodeVectorParam(b, t.Kind, n)
	}
	if t.Kind.IsArray() {
		return decodeArrayParam(b, t.Kind, n)
	}
	if t.Kind.IsRange() {
		return decodeRangeParam(b, t, n)
	}
	if t.Kind.IsMultirange() {
		return decodeMultirangeParam(b, t, n)
	}
	if t.Kind == value.JSONB || t.Kind == value.JSONPath {
		return decodeJSONBParam(b, n)
	}
	if t.Kind.IsBytes() {
		return decodeBytesParam(b, t.Kind, n)
	}
	if t.Kind.IsNetwork() {
		return decodeNetworkParam(b, t.Kind, n)
	}
	if t.Kind.IsGeometric() {
		return decodeGeometricParam(b, t.Kind, n)
	}
	// text, varchar, char: the bytes are the text.
	return value.NewText(value.Text, string(b)), nil
}

// decodeVectorParam reads an int2vector or oidvector parameter as
// PostgreSQL's int2vectorrecv and oidvectorrecv do: an array of one
// dimension from 0 without NULLs.
func decodeVectorParam(b []byte, k value.Kind, n int) (value.Value, error) {
	v, err := decodeArrayParam(b, k, n)
	if err != nil {
		return value.Null, err
	}
	d := v.Dims()
	bad := len(b) < 12 || binary.BigEndian.Uint32(b) != 1 || len(d) != 1 || d[0].Lower != 0
	for _, e := range v.Elems() {
		bad = bad || e.IsNull()
	}
	if bad {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "invalid %s data", k)
	}
	return value.NewVector(k, v.Elems()), nil
}

// decodeArrayParam reads an array parameter in PostgreSQL's binary array
// format (appendArrayBinary's): up to value.MaxDims dimensions, each
// element in its type's binary format.
func decodeArrayParam(b []byte, k value.Kind, n int) (value.Value, error) {
	bad := func() (value.Value, error) {
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "incorrect binary data format in bind parameter %d", n)
	}
	if len(b) < 12 {
		return bad()
	}
	ndim := int32(binary.BigEndian.Uint32(b))
	b = b[12:]
	switch {
	case ndim == 0:
		return value.NewArray(k, nil), nil
	case ndim < 0:
		return value.Null, pgerr.New(pgerr.InvalidBinaryRep, "invalid number of dimensions: %d", ndim)
	case ndim > value.MaxDims:
		return value.Null, value.CheckDims(int(ndim))
	case len(b) < 8*int(ndim):
		return bad()
	}
	dims := make([]value.Dim, ndim)
	count := 1
	for i := range dims {
		n, lb := int32(binary.BigEndian.Uint32(b)), int32(binary.BigEndian.Uint32(b[4:]))
		b = b[8:]
		if n < 0 || int64(lb)+int64(n) > 1<<31 {
			return bad()
		}
		dims[i] = value.Dim{Len: int(n), Lower: int(lb)}
		if count *= int(n); count > len(b)/4 {
			return bad()
		}
	}
	et := value.Type{Kind: k.Elem(), Mod: -1}
	elems := make([]value.Value, count)
	for i := range elems {
		if len(b) < 4 {
			return bad()
		}
		size := int32(binary.BigEndian.Uint32(b))
		b = b[4:]
		if size < 0 {
			continue // NULL
		}
		if int(size) > len(b) {
			return bad()
		}
		v, err := DecodeParam(b[:size], 1, et, n)
		if err != nil {
			return value.Null, err
		}
		if v, err = value.Cast(v, et, false); err != nil {
			return value.Null, err
		}
		if et.Kind.IsString() {
			if err := value.CheckText(v.Str()); err != nil {
				return value.Null, err
			}
		}
		elems[i] = v
		b = b[size:]
	}
	if len(b) != 0 {
		return bad()
	}
	return value.NewArrayDims(k, elems, dims), nil
}

// OIDType is the type of a type oid a client declares (a parameter's at
// Parse), if deltaview knows it; 0 and unknown's oid declare none.
func OIDType(oid uint32) (value.Type, bool) {
	if oid == 0 || oid == oidUnknown {
		return value.Type{}, false
	}
	for _, k := range []value.Kind{value.JSON, value.JSONB, value.JSONPath} {
		if JSONOID(k) == oid {
			return value.Type{Kind: k, Mod: -1}, true
		}
	}
	for k, oids := range rangeOIDs {
		if oids[0] == oid {
			return value.Type{Kind: k, Mod: -1}, true
		}
	}
	for k, o := range kindOIDs {
		if o == oid && value.Kind(k) != value.Unknown {
			return value.Type{Kind: value.Kind(k), Mod: -1}, true
		}
	}
	return value.Type{}, false
}
