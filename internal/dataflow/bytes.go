package dataflow

import (
	"unsafe"

	"github.com/cockroachdb/apd/v3"
	"github.com/deltaview/deltaview/internal/value"
)

// Sizes used in memory accounting.
const (
	rowHeaderBytes = int64(unsafe.Sizeof(value.Row(nil)))
	valueBytes     = int64(unsafe.Sizeof(value.Value{}))
	decimalBytes   = int64(unsafe.Sizeof(apd.Decimal{}))
	// inlineCoeffBits is how large a coefficient apd keeps inside the
	// Decimal without a separate big.Int allocation.
	inlineCoeffBits = 128
	// bigIntBytes is the header of the big.Int apd allocates beyond that.
	bigIntBytes = 32
)

// heldInValue marks the kinds whose values the Value holds whole: the
// commonest, tested first by a lookup.
var heldInValue = func() (h [256]bool) {
	for _, k := range []value.Kind{value.Unknown, value.Bool, value.Int2, value.Int4, value.Int8, value.Float4,
		value.Float8, value.Date, value.Timestamp, value.TimestampTZ, value.Time} {
		h[k] = true
	}
	return h
}()

// RowBytes approximates the memory a row held in an operator's state takes:
// the slice header, the Value structs, the bytes of strings (rounded up to words) and the
// decimals of numerics too large to be held inline (each counted as if unshared). An index's per-entry
// overhead is the index's to add.
func RowBytes(r value.Row) int64 {
	n := rowHeaderBytes + int64(len(r))*valueBytes
	for i := range r {
		v := &r[i] // not copied: a row's values are read in place
		if heldInValue[v.Kind()] {
			continue
		}
		n += outsideBytes(v)
	}
	return n
}

// RowBytesAt is RowBytes of r, a row whose values outside cols are all of
// kinds the Value holds whole (HeldWhole): a table's row, whose columns'
// types say which can hold bytes outside it. It reads only cols' values,
// so that a row read for its size alone (a table's replaced row) is not
// read whole.
func RowBytesAt(r value.Row, cols []int32) int64 {
	n := rowHeaderBytes + int64(len(r))*valueBytes
	for _, i := range cols {
		switch v := &r[i]; {
		case heldInValue[v.Kind()]:
		case v.Kind() == value.Text: // the commonest, outsideBytes's first case
			n += (int64(len(v.Str())) + 7) &^ 7
		default:
			n += outsideBytes(v)
		}
	}
	return n
}

// HeldWhole reports whether every value of kind k is held whole by the
// Value, NULL aside: a column of that type adds nothing to RowBytes.
func HeldWhole(k value.Kind) bool { return k != value.Unknown && heldInValue[k] }

// outsideBytes is what v, of a kind not heldInValue, holds outside the
// Value.
func outsideBytes(v *value.Value) int64 {
	switch k := v.Kind(); k {
	case value.Text, value.Varchar, value.Char, value.Bytea, value.Bit, value.Varbit, value.UUID,
		value.Inet, value.Cidr, value.MacAddr, value.MacAddr8, value.XML, value.HStore, value.CIText, value.ACLItem, value.PgSnapshot, value.TxidSnapshot, value.RefCursor, value.Cstring,
		value.Point, value.LSeg, value.Path, value.Box, value.Polygon, value.Line, value.Circle:
		return (int64(len(v.Str())) + 7) &^ 7 // allocations come in words
	case value.Interval:
		return 16 // the Span behind the pointer
	default:
		var n int64
		if k.IsArray() {
			n += value.ArrayBytes(*v)
		}
		if k == value.Record {
			n += value.RecordBytes(*v)
		}
		return n + value.JSONBytes(*v) + value.RangeBytes(*v) + value.MultirangeBytes(*v)
	case value.Numeric:
		if _, _, small := v.SmallNumeric(); small {
			return 0 // held in the Value
		}
		n := decimalBytes
		if bits := v.Decimal().Coeff.BitLen(); bits > inlineCoeffBits {
			n += bigIntBytes + int64(bits+63)/64*8
		}
		return n
	}
}
