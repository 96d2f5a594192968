// Array types with a modifier: varchar(3)[], numeric(5,2)[] and the
// like carry their elements' modifier in Mod, as PostgreSQL's atttypmod
// of an array column is its element's, and apply it to each element.
package value

// TakesModifier reports whether a type of kind k, a scalar kind, can
// carry a modifier that limits its values: a length, a precision, a
// scale or an interval's fields.
func TakesModifier(k Kind) bool {
	switch k {
	case Varchar, Char, Numeric, Timestamp, TimestampTZ, Time, TimeTZ, Interval, Bit, Varbit:
		return true
	}
	return false
}

// ElemTypeMod returns the element type of an array type with the
// array's modifier, which is its elements': numeric(5,2) for
// numeric(5,2)[]. Subscripts and input give their elements this type;
// ElemType is the element type without it, as functions over arrays
// return.
func (t Type) ElemTypeMod() Type {
	if t.Mod >= 0 && t.Kind.IsArray() && TakesModifier(t.Kind.Elem()) {
		return Type{t.Kind.Elem(), t.Mod}
	}
	return t.ElemType()
}

// Unmodified is t without a modifier that limits its values or its
// elements'; a record's, an enum's or a user range's modifier, which
// says which type it is, stays.
func (t Type) Unmodified() Type {
	k := t.Kind
	if k.IsArray() {
		k = k.Elem()
	}
	if TakesModifier(k) {
		return Type{t.Kind, -1}
	}
	return t
}

// coerceArray applies an array type's modifier to each of v's elements;
// NULL elements stay NULL and the shape is kept.
func coerceArray(v Value, t Type, explicit bool) (Value, error) {
	et := t.ElemTypeMod()
	src := v.Elems()
	var out []Value
	for i, e := range src {
		c, err := Coerce(e, et, explicit)
		if err != nil {
			return Null, err
		}
		if out == nil && c != e {
			out = make([]Value, len(src))
			copy(out, src[:i])
		}
		if out != nil {
			out[i] = c
		}
	}
	if out == nil {
		return v, nil
	}
	return NewArrayDims(v.kind, out, v.Dims()), nil
}
