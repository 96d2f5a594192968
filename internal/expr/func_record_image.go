package expr

import (
	"encoding/binary"
	"math"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The binary-image comparison of records (record_image_ops: *=, *<>, *<,
// *<=, *>, *>=, and their functions record_image_eq, …,
// btrecordimagecmp), as PostgreSQL runs it on a little-endian machine:
// columns are equal when their stored bytes are, which tells apart
// values that = holds equal (1.0 and 1.00, '1 mon' and '30 days', -0 and
// 0). Equality compares the values' kinds and printed forms, which
// differ exactly when the stored bytes do; the order compares the bytes
// themselves (a by-value column as a machine word, so that -1 sorts after
// 1), and is refused for the types whose stored bytes are not kept here
// (numeric, arrays, jsonb, …). Stateless.
func init() {
	R := value.Record
	imageOp := func(op, fn string, holds func(int) bool) {
		eval := func(a []value.Value) (value.Value, error) {
			c, err := recordImageCmp(a[0], a[1], op == "*=" || op == "*<>")
			return value.NewBool(holds(c)), err
		}
		strict(fn, kinds(R, R), value.BoolType, eval)
		register(&FuncDef{Name: op, Strict: true, Params: kinds(R, R), Result: value.BoolType, Eval: eval,
			Print: func(args []Expr) string { return operand(args[0]) + " " + op + " " + operand(args[1]) }})
	}
	imageOp("*=", "record_image_eq", func(c int) bool { return c == 0 })
	imageOp("*<>", "record_image_ne", func(c int) bool { return c != 0 })
	imageOp("*<", "record_image_lt", func(c int) bool { return c < 0 })
	imageOp("*<=", "record_image_le", func(c int) bool { return c <= 0 })
	imageOp("*>", "record_image_gt", func(c int) bool { return c > 0 })
	imageOp("*>=", "record_image_ge", func(c int) bool { return c >= 0 })
	strict("btrecordimagecmp", kinds(R, R), value.Int4Type, func(a []value.Value) (value.Value, error) {
		c, err := recordImageCmp(a[0], a[1], false)
		return int4(int64(c)), err
	})
}

// recordImageCmp is record_image_cmp (record_image_eq when eqOnly, which
// answers 0 or 1 only): columns in turn, NULL after every value, the
// first unequal deciding; columns of different types fail when reached,
// different numbers of columns when the shared ones are equal.
func recordImageCmp(a, b value.Value, eqOnly bool) (int, error) {
	x, y := a.Fields(), b.Fields()
	for i := range min(len(x), len(y)) {
		l, r := x[i], y[i]
		if !l.IsNull() && !r.IsNull() && l.Kind() != r.Kind() {
			return 0, pgerr.New(pgerr.DatatypeMismatch, "cannot compare dissimilar column types %s and %s at record column %d",
				value.Type{Kind: l.Kind(), Mod: -1}, value.Type{Kind: r.Kind(), Mod: -1}, i+1)
		}
		switch {
		case l.IsNull() && r.IsNull():
			continue
		case l.IsNull():
			return 1, nil
		case r.IsNull():
			return -1, nil
		}
		if eqOnly {
			if l.String() != r.String() {
				return 1, nil
			}
			continue
		}
		c, err := imageCmp(l, r)
		if err != nil || c != 0 {
			return c, err
		}
	}
	if len(x) != len(y) {
		return 0, pgerr.New(pgerr.DatatypeMismatch, "cannot compare record types with different numbers of columns")
	}
	return 0, nil
}

// imageCmp orders two non-NULL values of one kind by their stored bytes:
// a by-value type's datum as an unsigned word (a signed integer
// sign-extended), the others' bytes as memcmp orders them, -1, 0 or 1.
func imageCmp(a, b value.Value) (int, error) {
	if wa, ok := imageWord(a); ok {
		wb, _ := imageWord(b)
		return cmpSign(wa, wb), nil
	}
	ia, ok := imageBytes(a)
	if !ok {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "ordering the binary images of type %s is not supported", value.Type{Kind: a.Kind(), Mod: -1})
	}
	ib, _ := imageBytes(b)
	c := memcmpDiff(ia, ib)
	return cmpSign(c, 0), nil
}

// imageWord is the datum of a by-value type, ok false for another.
func imageWord(v value.Value) (uint64, bool) {
	switch v.Kind() {
	case value.Bool:
		return uint64(boolDiff(v)), true
	case value.Int2, value.Int4, value.Int8, value.Date, value.Timestamp, value.TimestampTZ, value.Time, value.Money:
		return uint64(v.Int()), true
	case value.InternalChar:
		return uint64(int64(int8(v.CharByte()))), true // char is signed
	case value.Oid, value.RegClass, value.RegType, value.RegProc, value.RegProcedure, value.RegNamespace, value.RegRole,
		value.RegOper, value.RegOperator, value.RegCollation, value.RegConfig, value.Xid, value.Cid:
		return uint64(v.OID()), true
	case value.Float4:
		return uint64(int64(int32(math.Float32bits(float32(v.Float()))))), true
	case value.Float8:
		return math.Float64bits(v.Float()), true
	case value.PgLSN, value.Xid8:
		return uint64(v.Int()), true
	}
	return 0, false
}

// imageBytes is the stored bytes of a value of a type passed by
// reference, ok false for one whose bytes are not kept here.
func imageBytes(v value.Value) (string, bool) {
	switch v.Kind() {
	case value.Text, value.Varchar, value.Char, value.Bytea, value.UUID, value.JSON, value.XML, value.MacAddr, value.MacAddr8:
		return v.Str(), true
	case value.Name:
		b := make([]byte, 64)
		copy(b, v.Str())
		return string(b), true
	case value.Interval:
		s := v.Span()
		b := binary.LittleEndian.AppendUint64(nil, uint64(s.Micros))
		b = binary.LittleEndian.AppendUint32(b, uint32(s.Days))
		return string(binary.LittleEndian.AppendUint32(b, uint32(s.Months))), true
	}
	return "", false
}
