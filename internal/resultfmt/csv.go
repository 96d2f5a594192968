package resultfmt

import "bytes"

// appendCSV appends s in psql's --csv format, then an empty line. As psql
// does, a field is quoted when it contains a comma, a double quote, a
// carriage return or a newline, or is exactly `\.`; quotes inside are
// doubled. NULL prints as o.Null (quoted by the same rule) and an empty
// string as an empty field.
func appendCSV(buf []byte, s *Set, o Options) []byte {
	for i, c := range s.Columns {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = AppendCSVField(buf, []byte(c.Name))
	}
	buf = append(buf, '\n')
	var field []byte
	for _, r := range s.Rows {
		if len(r) == 0 {
			continue // psql prints nothing for a row without columns
		}
		for i, v := range r {
			if i > 0 {
				buf = append(buf, ',')
			}
			field = text(field[:0], v, o)
			buf = AppendCSVField(buf, field)
		}
		buf = append(buf, '\n')
	}
	return append(buf, '\n')
}

// AppendCSVField appends f as one field of psql's CSV format, quoted
// when it must be.
func AppendCSVField(buf, f []byte) []byte {
	if !bytes.ContainsAny(f, ",\"\r\n") && string(f) != `\.` {
		return append(buf, f...)
	}
	buf = append(buf, '"')
	for _, c := range f {
		if c == '"' {
			buf = append(buf, '"')
		}
		buf = append(buf, c)
	}
	return append(buf, '"')
}
