package value

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// XML values. An xml value keeps the text it was given, checked to be
// well-formed XML content (or a document, by XMLPARSE (DOCUMENT …)), as
// PostgreSQL's xml does; its output leaves out an XML declaration that
// says no more than PostgreSQL's defaults (version 1.0, no standalone).
// PostgreSQL has no equality or order for xml: Compare and the key order
// its text, for the engine's own bookkeeping only.

// XMLType is the xml type.
var XMLType = Type{XML, -1}

// NewXML returns an xml value holding s, which must be well-formed XML
// content.
func NewXML(s string) Value {
	return Value{kind: XML, p: unsafe.Pointer(unsafe.StringData(s)), n: int64(len(s))}
}

// ParseXML returns s as an xml value after checking that it is XML content,
// or a document: 2200N "invalid XML content" or 2200M "invalid XML
// document" otherwise.
func ParseXML(s string, document bool) (Value, error) {
	if XMLWellFormed(s, document) {
		return NewXML(s), nil
	}
	if document {
		return Null, pgerr.New(pgerr.InvalidXMLDocument, "invalid XML document")
	}
	return Null, pgerr.New(pgerr.InvalidXMLContent, "invalid XML content")
}

// XMLDecl is what an XML declaration says, as PostgreSQL reads it: its
// version ("" when absent) and standalone (1 yes, 0 no, -1 absent).
type XMLDecl struct {
	Version    string
	Standalone int
}

// SplitXMLDecl reads the XML declaration at the start of s as PostgreSQL's
// parse_xml_decl does and returns it with the text after it; without a
// declaration, the defaults and s. ok is false when s starts with a
// declaration PostgreSQL cannot read.
func SplitXMLDecl(s string) (d XMLDecl, rest string, ok bool) {
	d.Standalone = -1
	if !strings.HasPrefix(s, "<?xml") {
		return d, s, true
	}
	if r, _ := utf8.DecodeRuneInString(s[5:]); len(s) > 5 && isNameChar(r) {
		return d, s, true // a processing instruction such as <?xml-stylesheet …?>
	}
	p := &xmlParser{s: s, i: 5}
	if !p.skipSpace() || !p.has("version") {
		return d, s, false
	}
	p.i += len("version")
	v, ok := p.declValue()
	if !ok {
		return d, s, false
	}
	d.Version = v
	if save := p.i; !p.skipSpace() || !p.has("encoding") {
		p.i = save
	} else {
		p.i += len("encoding")
		if _, ok := p.declValue(); !ok {
			return d, s, false
		}
	}
	if save := p.i; !p.skipSpace() || !p.has("standalone") {
		p.i = save
	} else {
		p.i += len("standalone")
		switch v, ok := p.declValue(); {
		case ok && v == "yes":
			d.Standalone = 1
		case ok && v == "no":
			d.Standalone = 0
		default:
			return d, s, false
		}
	}
	p.skipSpace()
	if !p.has("?>") {
		return d, s, false
	}
	return d, s[p.i+2:], true
}

// declValue reads = and a quoted value after a declaration's name.
func (p *xmlParser) declValue() (string, bool) {
	p.skipSpace()
	if !p.has("=") {
		return "", false
	}
	p.i++
	p.skipSpace()
	if p.eof() || p.s[p.i] != '"' && p.s[p.i] != '\'' {
		return "", false
	}
	j := strings.IndexByte(p.s[p.i+1:], p.s[p.i])
	if j < 0 {
		return "", false
	}
	v := p.s[p.i+1 : p.i+1+j]
	p.i += j + 2
	return v, true
}

// AppendXMLDecl appends the declaration PostgreSQL's print_xml_decl
// prints for d: none when d says no more than version 1.0; printed
// reports whether it appended one.
func AppendXMLDecl(buf []byte, d XMLDecl) (_ []byte, printed bool) {
	if (d.Version == "" || d.Version == "1.0") && d.Standalone == -1 {
		return buf, false
	}
	v := d.Version
	if v == "" {
		v = "1.0"
	}
	buf = append(append(append(buf, `<?xml version="`...), v...), '"')
	switch d.Standalone {
	case 1:
		buf = append(buf, ` standalone="yes"`...)
	case 0:
		buf = append(buf, ` standalone="no"`...)
	}
	return append(buf, "?>"...), true
}

// appendXMLText appends an xml value's output: its text with its
// declaration reprinted by AppendXMLDecl, and one newline after a
// declaration that prints nothing dropped, as PostgreSQL's xml_out does.
func appendXMLText(buf []byte, s string) []byte {
	d, rest, ok := SplitXMLDecl(s)
	if !ok {
		return append(buf, s...)
	}
	buf, printed := AppendXMLDecl(buf, d)
	if !printed {
		rest = strings.TrimPrefix(rest, "\n")
	}
	return append(buf, rest...)
}

// IsXMLNameStart and IsXMLNameChar report whether r may start an XML
// name, or stand in one.
func IsXMLNameStart(r rune) bool { return isNameStart(r) }
func IsXMLNameChar(r rune) bool  { return isNameChar(r) }
