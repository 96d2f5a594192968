package value

import (
	"unsafe"
)

// Records. A record is a row value, PostgreSQL's anonymous composite type
// "record", or a table's row type: what ROW(1, 'a') and a table reference
// used as a value (SELECT t FROM t) are. The Value points at its fields
// (immutable once built) and holds their count; the fields' names and
// types are its type's (record_type.go), each non-NULL field carries its
// own kind.

// RecordType is the type of a record whose fields are not known when
// binding; RecordTypeOf gives a record type its fields (record_type.go).
var RecordType = Type{Record, -1}

// NewRecord returns a record holding fields, which must not be modified
// afterwards.
func NewRecord(fields []Value) Value {
	return Value{kind: Record, p: unsafe.Pointer(unsafe.SliceData(fields)), n: int64(len(fields))}
}

// Fields returns a record's fields, which must not be modified; nil for an
// empty record or another kind.
func (v Value) Fields() []Value {
	if v.kind != Record || v.n == 0 {
		return nil
	}
	return unsafe.Slice((*Value)(v.p), int(v.n))
}

// RecordNullTest is row IS NULL (not false) or row IS NOT NULL (not true)
// of a record, as PostgreSQL defines them: IS NULL when every field is
// NULL, IS NOT NULL when none is; a row with some NULL fields is neither.
func RecordNullTest(v Value, not bool) bool {
	if v.kind == Unknown {
		return !not
	}
	for _, f := range v.Fields() {
		if f.IsNull() != !not {
			return false
		}
	}
	return true
}

// compareRecords is PostgreSQL's btree order of records (record_cmp):
// field by field, a NULL field after every value and equal to NULL, then
// the shorter first.
func compareRecords(a, b Value) int {
	x, y := a.Fields(), b.Fields()
	for i := 0; i < len(x) && i < len(y); i++ {
		if c := Compare(x[i], y[i]); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(x)), int64(len(y)))
}

// appendRecordKey writes the record kind's byte, then each field's key
// after a 1 byte, then a 0 byte: a proper prefix of a record sorts first,
// as in compareRecords. It also encodes an array of records, as
// appendArrayKey would (no kind byte). Records nest, in records and
// arrays; the encoder keeps its own stack rather than recursing, so that
// AppendKey does not recurse and a caller's stack buffer stays on the
// stack.
func appendRecordKey(buf []byte, v Value) []byte {
	type frame struct {
		fs  []Value
		i   int
		arr Value // an array of records, whose shape follows its elements
	}
	var stack []frame
	push := func(v Value) {
		if v.kind == Record {
			buf = append(buf, byte(Record))
			stack = append(stack, frame{fs: v.Fields()})
			return
		}
		stack = append(stack, frame{fs: v.Elems(), arr: v})
	}
	push(v)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.i == len(top.fs) {
			buf = appendArrayShapeKey(append(buf, 0), top.arr)
			stack = stack[:len(stack)-1]
			continue
		}
		f := top.fs[top.i]
		top.i++
		buf = append(buf, 1)
		switch {
		case f.kind == Record, f.kind == ArrayOf(Record):
			push(f)
		case f.kind.IsArray():
			buf = appendArrayKey(buf, f)
		default:
			buf = appendScalarKey(buf, f)
		}
	}
	return buf
}

// appendRecord writes PostgreSQL's text output of a record (record_out):
// (1,,"a b"). A NULL field is empty; a field is quoted when it is empty or
// holds a quote, a backslash, a parenthesis, a comma or white space, and
// within quotes a quote or backslash is doubled.
func appendRecord(buf []byte, v Value, st TextStyle, z Zone) []byte {
	buf = append(buf, '(')
	var tmp []byte
	for i, f := range v.Fields() {
		if i > 0 {
			buf = append(buf, ',')
		}
		if f.kind == Unknown {
			continue
		}
		tmp = AppendTextZone(tmp[:0], f, st, z)
		quote := len(tmp) == 0
		for _, c := range tmp {
			if c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' || isSpace(c) {
				quote = true
				break
			}
		}
		if !quote {
			buf = append(buf, tmp...)
			continue
		}
		buf = append(buf, '"')
		for _, c := range tmp {
			if c == '"' || c == '\\' {
				buf = append(buf, c)
			}
			buf = append(buf, c)
		}
		buf = append(buf, '"')
	}
	return append(buf, ')')
}

// RecordBytes is the memory a record's fields take beyond its Value.
func RecordBytes(v Value) int64 {
	fs := v.Fields()
	n := int64(len(fs)) * int64(unsafe.Sizeof(Value{}))
	for _, f := range fs {
		switch {
		case f.kind.IsString():
			n += (f.n + 7) &^ 7
		case f.kind.IsArray():
			n += ArrayBytes(f)
		case f.kind == Record:
			n += RecordBytes(f)
		case f.kind == Interval:
			n += 16
		}
	}
	return n
}
