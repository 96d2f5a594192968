package explainfmt

import "strings"

// Format is one of EXPLAIN's output formats.
type Format int

// EXPLAIN's formats; Text is deltaview's own lines, which this package
// does not write.
const (
	Text Format = iota
	JSON
	XML
	YAML
)

// ParseFormat reads FORMAT's value as PostgreSQL does: the lower-case
// names only (an unquoted identifier is lower-cased before).
func ParseFormat(s string) (Format, bool) {
	switch s {
	case "text":
		return Text, true
	case "json":
		return JSON, true
	case "xml":
		return XML, true
	case "yaml":
		return YAML, true
	}
	return Text, false
}

// String is the format's name as FORMAT takes it.
func (f Format) String() string {
	return [...]string{"text", "json", "xml", "yaml"}[f]
}

// escapeJSON quotes s as a JSON string (PostgreSQL's escape_json; YAML
// uses it too).
func escapeJSON(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if r < ' ' {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[r>>4])
				b.WriteByte("0123456789abcdef"[r&15])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// escapeXML escapes s as PostgreSQL's escape_xml does: &, <, > and
// carriage returns.
func escapeXML(b *strings.Builder, s string) {
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\r':
			b.WriteString("&#x0d;")
		default:
			b.WriteRune(r)
		}
	}
}
