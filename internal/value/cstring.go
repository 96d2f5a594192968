package value

// cstring is the pseudo-type of the text that types' input functions
// read and output functions print (int4in, int4out): a value is held as
// its text, prints as it, and has no comparison and no column, as in
// PostgreSQL. Casts reach it only through the string types' I/O: an
// explicit cast from a string type, an assignment cast to one.

// CstringType is cstring.
var CstringType = Type{Cstring, -1}

// cstringCastable reports whether a cast between from and to, one of them
// cstring, exists: PostgreSQL's CoerceViaIO, allowed to a string type at
// assignment and from one explicitly, cstring having no pg_cast rows.
func cstringCastable(from, to Kind, explicit bool) bool {
	switch {
	case from == Cstring:
		return to.IsString() && explicit
	case to == Cstring:
		return from.IsString() && explicit
	}
	return false
}
