package value

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ParseRecord reads a record of type t (whose fields are known) from its
// text form, as PostgreSQL's record_in does: (1,,"a b"), an empty
// unquoted field NULL, quotes around any part of a field, a doubled quote
// inside quotes and a backslash escaping the next character; each field
// read with its type's input.
func ParseRecord(s string, t Type) (Value, error) {
	return ParseRecordIn(s, t, IntervalPostgres)
}

// ParseRecordIn is ParseRecord reading interval fields under
// IntervalStyle of st (ParseIntervalIn).
func ParseRecordIn(s string, t Type, st TextStyle) (Value, error) {
	d := t.RecordDesc()
	bad := func(detail string) (Value, error) {
		return Null, pgerr.New(pgerr.InvalidTextRep, "malformed record literal: \"%s\"", s).WithDetail("%s", detail)
	}
	p := strings.TrimLeft(s, " \t\n\r\v\f")
	if d == nil || !strings.HasPrefix(p, "(") {
		return bad("Missing left parenthesis.")
	}
	p = p[1:]
	fields := make([]Value, len(d.Fields))
	var buf strings.Builder
	for i, f := range d.Fields {
		if i > 0 {
			if strings.HasPrefix(p, ")") {
				return bad("Too few columns.")
			}
			p = p[1:] // the comma
		}
		if p != "" && (p[0] == ',' || p[0] == ')') {
			continue // NULL
		}
		buf.Reset()
		inQuote := false
		for inQuote || p == "" || p[0] != ',' && p[0] != ')' {
			if p == "" {
				return bad("Unexpected end of input.")
			}
			c := p[0]
			p = p[1:]
			switch {
			case c == '\\':
				if p == "" {
					return bad("Unexpected end of input.")
				}
				buf.WriteByte(p[0])
				p = p[1:]
			case c == '"' && !inQuote:
				inQuote = true
			case c == '"' && strings.HasPrefix(p, `"`):
				buf.WriteByte('"')
				p = p[1:]
			case c == '"':
				inQuote = false
			default:
				buf.WriteByte(c)
			}
		}
		v, err := ParseIntervalIn(buf.String(), f.Type, st)
		if err != nil {
			return Null, err
		}
		fields[i] = v
	}
	if !strings.HasPrefix(p, ")") {
		return bad("Too many columns.")
	}
	if strings.TrimLeft(p[1:], " \t\n\r\v\f") != "" {
		return bad("Junk after right parenthesis.")
	}
	return NewRecord(fields), nil
}
