package value

import "unicode/utf8"

// name, PostgreSQL's type of identifiers (the catalogs' relname, attname,
// typname…): a string of at most 63 bytes, held as a string kind. Its
// input and every cast to it truncate silently to the longest prefix of
// whole characters within 63 bytes (namein, text_name); it compares
// byte by byte, as the C collation it always has; it converts to text
// implicitly and from text, varchar and char implicitly too, so that a
// common type of name and text is the first of them, as select_common_type
// finds it; to varchar and char only by assignment.

// NameType is name's type.
var NameType = Type{Name, -1}

// NameDataLen is PostgreSQL's NAMEDATALEN: a name holds one byte less.
const NameDataLen = 64

// NewName returns the name of s, truncated as namein truncates.
func NewName(s string) Value { return NewText(Name, TruncateName(s)) }

// TruncateName cuts s to at most NameDataLen-1 bytes, at a character
// boundary (pg_mbcliplen).
func TruncateName(s string) string {
	if len(s) < NameDataLen {
		return s
	}
	cut := NameDataLen - 1
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// NameImplicit reports whether from converts to to implicitly when one
// of them is name: name to text, and text, varchar and char to name; name
// to varchar and char is an assignment cast only.
func NameImplicit(from, to Kind) bool {
	switch {
	case from == Name:
		return to == Name || to == Text
	case to == Name:
		return from == Text || from == Varchar || from == Char || from == Unknown
	}
	return true
}
