package expr

import "github.com/deltaview/deltaview/internal/value"

// pg_char_to_encoding(name) and pg_encoding_to_char(code) translate
// between an encoding's name and its code, as PostgreSQL's do: -1 for a
// name that names no encoding, ” for a code that numbers none. psql's
// \dc and \dO call them.
func init() {
	strict("pg_char_to_encoding", kinds(value.Text), value.Int4Type, func(a []value.Value) (value.Value, error) {
		enc, ok := pgEncodingByName(textOf(a[0]))
		if !ok {
			enc = -1
		}
		return value.NewInt(value.Int4, int64(enc)), nil
	})
	strict("pg_encoding_to_char", kinds(value.Int4), value.TextType, func(a []value.Value) (value.Value, error) {
		enc := a[0].Int()
		if enc < 0 || enc >= int64(len(pgEncodings)) {
			return value.NewText(value.Text, ""), nil
		}
		return value.NewText(value.Text, pgEncodings[enc]), nil
	})
}
