package expr

import (
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// ColumnSize is pg_column_size(x) as the binder builds it: a call with x,
// whether x is a value stored in a table (a varlena value of 126 bytes or
// fewer then has a 1-byte header, as PostgreSQL packs it, where a computed
// one has 4 bytes), and, for a stored value, the other values of its row,
// whose total tells whether PostgreSQL would have compressed or moved the
// row's values (TOAST). The figures are PostgreSQL's datum sizes: fixed
// widths, a varlena header and its bytes (numeric's base-10000 digits,
// arrays' header and elements). What PostgreSQL's figure rests on and this
// cannot tell (a compressed value, a stored record, jsonb's binary form) is
// 0A000.
var ColumnSize = &FuncDef{Name: "pg_column_size", Params: []value.Kind{value.Unknown, value.Bool}, Variadic: true, Result: value.Int4Type,
	Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		stored := a[1].Bool()
		n, varlena, err := datumSize(a[0])
		if err != nil {
			return value.Null, err
		}
		if stored && len(a) > 2 {
			// The row's data, each value counted with a 4-byte header
			// and 8-byte alignment: more than PostgreSQL's, so that what
			// passes is below its TOAST threshold (2032 bytes) for sure.
			total := 24 + (n+7)&^7
			for _, v := range a[2:] {
				m, _, err := datumSize(v)
				if err != nil {
					return value.Null, err
				}
				total += (m + 7) &^ 7
			}
			if total > 2000 {
				return value.Null, pgerr.New(pgerr.FeatureNotSupported, "pg_column_size of a value of a row of more than 2000 bytes is not supported").
					WithHint("PostgreSQL compresses or moves such rows' values (TOAST), which changes their sizes")
			}
		}
		if stored && varlena && n-4 <= 126 {
			n -= 3 // a 1-byte header
		}
		return value.NewInt(value.Int4, int64(n)), nil
	}}

// fixedWidth are the sizes and alignments of the fixed-width types.
var fixedWidth = map[value.Kind][2]int{
	value.Bool: {1, 1}, value.Int2: {2, 2}, value.Int4: {4, 4}, value.Int8: {8, 8}, value.Float4: {4, 4}, value.Float8: {8, 8},
	value.Date: {4, 4}, value.Timestamp: {8, 8}, value.TimestampTZ: {8, 8}, value.Interval: {16, 8}, value.UUID: {16, 1},
	value.Time: {8, 8}, value.TimeTZ: {12, 8}, value.MacAddr: {6, 4}, value.MacAddr8: {8, 4}, value.Money: {8, 8},
	value.Enum: {4, 4}, value.Point: {16, 8}, value.LSeg: {32, 8}, value.Box: {32, 8}, value.Line: {24, 8}, value.Circle: {24, 8},
	value.Oid: {4, 4}, value.RegClass: {4, 4}, value.RegType: {4, 4}, value.RegProc: {4, 4}, value.RegProcedure: {4, 4},
	value.RegNamespace: {4, 4}, value.RegRole: {4, 4}, value.RegOper: {4, 4}, value.RegOperator: {4, 4}, value.RegCollation: {4, 4}, value.RegConfig: {4, 4},
	value.Tid: {6, 2}, value.Xid: {4, 4}, value.Cid: {4, 4},
}

// datumSize is the size of v's datum, and whether it is a varlena.
func datumSize(v value.Value) (int, bool, error) {
	k := v.Kind()
	if v.IsNull() {
		return 0, false, nil
	}
	if w, ok := fixedWidth[k]; ok {
		return w[0], false, nil
	}
	switch {
	case k.IsString() || k == value.Bytea || k == value.XML:
		return 4 + len(v.Str()), true, nil
	case k == value.JSON:
		return 4 + len(v.JSONText()), true, nil
	case k == value.Numeric:
		return 4 + numericSize(v.Decimal()), true, nil
	case k == value.JSONB:
		return jsonbDatumSize(v.JSONB()), true, nil
	case k.IsArray():
		if n, ok := arraySize(v); ok {
			return n, true, nil
		}
	case k == value.Record:
		n, err := recordSize(v)
		return n, true, err
	}
	return 0, false, pgerr.New(pgerr.FeatureNotSupported, "pg_column_size of a value of type %s is not supported", value.Type{Kind: k, Mod: -1})
}

// numericSize is the size of a numeric's data after its varlena header:
// a 2-byte header (4 for a weight or scale the short form cannot hold)
// and 2 bytes per base-10000 digit, leading and trailing zero digits
// left out.
func numericSize(d *apd.Decimal) int {
	if d.Form != apd.Finite {
		return 2
	}
	coeff := d.Coeff.String()
	if coeff == "0" {
		return 2
	}
	dscale := 0
	if d.Exponent < 0 {
		dscale = int(-d.Exponent)
	}
	var intPart, frac string
	switch e := int(d.Exponent); {
	case e >= 0:
		intPart = coeff + strings.Repeat("0", e)
	case -e >= len(coeff):
		frac = strings.Repeat("0", -e-len(coeff)) + coeff
	default:
		intPart, frac = coeff[:len(coeff)+e], coeff[len(coeff)+e:]
	}
	intPart = strings.TrimLeft(intPart, "0")
	frac = strings.TrimRight(frac, "0")
	if pad := (4 - len(intPart)%4) % 4; pad > 0 {
		intPart = strings.Repeat("0", pad) + intPart
	}
	if pad := (4 - len(frac)%4) % 4; pad > 0 {
		frac += strings.Repeat("0", pad)
	}
	digits := intPart + frac
	groups := len(digits) / 4
	weight := len(intPart)/4 - 1
	first, last := 0, groups
	for first < groups && digits[first*4:first*4+4] == "0000" {
		first++
	}
	for last > first && digits[last*4-4:last*4] == "0000" {
		last--
	}
	weight -= first
	header := 2
	if dscale > 63 || weight < -64 || weight > 63 {
		header = 4
	}
	return header + 2*(last-first)
}

// arraySize is the size of an array of a fixed-width element type: its
// header (with a null bitmap when an element is NULL) aligned to 8
// bytes, and its elements, each aligned; ok is false for another.
func arraySize(v value.Value) (int, bool) {
	w, ok := fixedWidth[v.Kind().Elem()]
	if !ok {
		return 0, false
	}
	elems := v.Elems()
	dims := len(v.Dims())
	if len(elems) == 0 {
		return 16, true
	}
	nulls := false
	for _, e := range elems {
		nulls = nulls || e.IsNull()
	}
	head := 16 + 8*dims
	if nulls {
		head += (len(elems) + 7) / 8
	}
	n := (head + 7) &^ 7
	for _, e := range elems {
		if !e.IsNull() {
			n = (n+w[1]-1)/w[1]*w[1] + w[0]
		}
	}
	return n, true
}

// recordSize is the size of a row value's datum, as heap_form_tuple
// builds it: the tuple header (23 bytes and the null bitmap when a field
// is NULL) aligned to 8 bytes, then each field aligned to its type, a
// varlena of 126 bytes or fewer (jsonb's binary form too) with a 1-byte
// header and unaligned. A row value is not compressed.
func recordSize(v value.Value) (int, error) {
	fs := v.Fields()
	head := 23
	for _, f := range fs {
		if f.IsNull() {
			head += (len(fs) + 7) / 8
			break
		}
	}
	n := (head + 7) &^ 7
	for _, f := range fs {
		if f.IsNull() {
			continue
		}
		m, varlena, err := datumSize(f)
		if err != nil {
			return 0, err
		}
		align := 1
		switch w, fixed := fixedWidth[f.Kind()]; {
		case fixed:
			align = w[1]
		case varlena && m-4 <= 126:
			m -= 3 // a 1-byte header
		case f.Kind() == value.Record:
			align = 8
		case f.Kind().IsArray():
			align = 4
			if e, ok := fixedWidth[f.Kind().Elem()]; ok && e[1] == 8 {
				align = 8
			}
		default:
			align = 4
		}
		n = (n+align-1)/align*align + m
	}
	return n, nil
}
