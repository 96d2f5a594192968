package value

import (
	"strings"
	"unicode/utf8"
)

// XMLWellFormed reports whether s is a well-formed XML document
// (document) or XML content, as PostgreSQL's parser (libxml2) accepts it.
// A document is an optional XML declaration, comments, processing
// instructions and white space around one element, with an optional
// DOCTYPE before it. Content is an optional XML declaration (of which
// PostgreSQL reads the version, encoding and standalone itself) followed by
// any text, elements, references, CDATA sections, comments and processing
// instructions; content with a DOCTYPE is read as a document. Entities are
// those of XML and of the internal subset, whose replacement text must
// itself be well-formed content; a DOCTYPE with an external subset allows
// undeclared entities. Namespaces are not checked, as PostgreSQL leaves
// them out of well-formedness.
func XMLWellFormed(s string, document bool) bool {
	if !document {
		rest, ok := xmlContentDecl(s)
		if !ok {
			return false
		}
		if !xmlHasDoctype(rest) {
			p := &xmlParser{s: rest}
			return p.content(true) && p.i == len(p.s)
		}
		document = true
	}
	p := &xmlParser{s: s}
	return p.document()
}

// xmlParser reads s from i.
type xmlParser struct {
	s        string
	i        int
	ents     map[string]string // the internal subset's general entities
	external bool              // the DOCTYPE has an external subset (or a parameter entity reference)
	depth    int               // of entity expansion
}

func (p *xmlParser) eof() bool              { return p.i >= len(p.s) }
func (p *xmlParser) has(prefix string) bool { return strings.HasPrefix(p.s[p.i:], prefix) }
func (p *xmlParser) peek() (rune, int)      { return utf8.DecodeRuneInString(p.s[p.i:]) }
func isXMLSpace(c byte) bool                { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
func (p *xmlParser) skipSpace() (skipped bool) {
	for p.i < len(p.s) && isXMLSpace(p.s[p.i]) {
		p.i++
		skipped = true
	}
	return skipped
}

func isXMLChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

func isNameStart(r rune) bool {
	return r == ':' || r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= 0xC0 && r <= 0xD6 || r >= 0xD8 && r <= 0xF6 ||
		r >= 0xF8 && r <= 0x2FF || r >= 0x370 && r <= 0x37D || r >= 0x37F && r <= 0x1FFF || r >= 0x200C && r <= 0x200D ||
		r >= 0x2070 && r <= 0x218F || r >= 0x2C00 && r <= 0x2FEF || r >= 0x3001 && r <= 0xD7FF || r >= 0xF900 && r <= 0xFDCF ||
		r >= 0xFDF0 && r <= 0xFFFD || r >= 0x10000 && r <= 0xEFFFF
}

func isNameChar(r rune) bool {
	return isNameStart(r) || r == '-' || r == '.' || r >= '0' && r <= '9' || r == 0xB7 || r >= 0x300 && r <= 0x36F || r >= 0x203F && r <= 0x2040
}

// name reads a Name; "" when there is none.
func (p *xmlParser) name() string {
	start := p.i
	r, n := p.peek()
	if p.eof() || !isNameStart(r) {
		return ""
	}
	p.i += n
	for !p.eof() {
		r, n := p.peek()
		if !isNameChar(r) {
			break
		}
		p.i += n
	}
	return p.s[start:p.i]
}

// document reads prolog, element, Misc* to the end.
func (p *xmlParser) document() bool {
	if p.has("<?xml") && p.i+5 < len(p.s) && isXMLSpace(p.s[p.i+5]) {
		if !p.xmlDecl() {
			return false
		}
	}
	if !p.misc() {
		return false
	}
	if p.has("<!DOCTYPE") {
		if !p.doctype() || !p.misc() {
			return false
		}
	}
	if !p.has("<") || !p.element() {
		return false
	}
	return p.misc() && p.eof()
}

// misc reads comments, processing instructions and white space.
func (p *xmlParser) misc() bool {
	for {
		p.skipSpace()
		switch {
		case p.has("<!--"):
			if !p.comment() {
				return false
			}
		case p.has("<?"):
			if !p.pi() {
				return false
			}
		default:
			return true
		}
	}
}

// xmlDecl reads <?xml version … ?> at the start of a document.
func (p *xmlParser) xmlDecl() bool {
	p.i += 5
	attrs, ok := p.declAttrs()
	if !ok || len(attrs) == 0 || attrs[0][0] != "version" {
		return false
	}
	v := attrs[0][1]
	if !strings.HasPrefix(v, "1.") || strings.Trim(v[2:], "0123456789") != "" {
		return false
	}
	rest := attrs[1:]
	if len(rest) > 0 && rest[0][0] == "encoding" {
		if !xmlKnownEncoding(rest[0][1]) {
			return false
		}
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0][0] == "standalone" {
		if rest[0][1] != "yes" && rest[0][1] != "no" {
			return false
		}
		rest = rest[1:]
	}
	return len(rest) == 0
}

// declAttrs reads the pseudo-attributes of an XML declaration and its
// end, ?>.
func (p *xmlParser) declAttrs() ([][2]string, bool) {
	var out [][2]string
	for {
		sp := p.skipSpace()
		if p.has("?>") {
			p.i += 2
			return out, true
		}
		if !sp {
			return nil, false
		}
		n := p.name()
		if n == "" {
			return nil, false
		}
		p.skipSpace()
		if !p.has("=") {
			return nil, false
		}
		p.i++
		p.skipSpace()
		v, ok := p.quoted()
		if !ok {
			return nil, false
		}
		out = append(out, [2]string{n, v})
	}
}

// quoted reads a string in single or double quotes.
func (p *xmlParser) quoted() (string, bool) {
	if p.eof() || p.s[p.i] != '"' && p.s[p.i] != '\'' {
		return "", false
	}
	q := p.s[p.i]
	j := strings.IndexByte(p.s[p.i+1:], q)
	if j < 0 {
		return "", false
	}
	v := p.s[p.i+1 : p.i+1+j]
	p.i += j + 2
	return v, p.chars(v)
}

// chars reports whether every character of s is an XML Char.
func (p *xmlParser) chars(s string) bool {
	for _, r := range s {
		if !isXMLChar(r) {
			return false
		}
	}
	return true
}

// xmlKnownEncoding reports whether libxml2 reads a document that
// declares the encoding name (the text itself is UTF-8).
func xmlKnownEncoding(name string) bool {
	if name == "" || !(name[0] >= 'A' && name[0] <= 'Z' || name[0] >= 'a' && name[0] <= 'z') {
		return false
	}
	switch strings.ToUpper(name) {
	case "UTF-8", "UTF8", "UTF-16", "UTF16", "ISO-10646-UCS-2", "UCS-2", "UCS2", "ISO-10646-UCS-4", "UCS-4", "UCS4",
		"ISO-8859-1", "ISO-LATIN-1", "ISO LATIN 1", "LATIN1", "ISO-8859-2", "ISO-LATIN-2", "LATIN2",
		"ASCII", "US-ASCII", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6", "ISO-8859-7",
		"ISO-8859-8", "ISO-8859-9", "ISO-8859-10", "ISO-8859-11", "ISO-8859-13", "ISO-8859-14", "ISO-8859-15",
		"ISO-8859-16", "ISO-2022-JP", "SHIFT_JIS", "EUC-JP", "HTML", "WINDOWS-1252", "CP1252", "WINDOWS-1250",
		"KOI8-R", "BIG5", "GB2312", "GBK", "EUC-KR", "LATIN9":
		return true
	}
	return false
}

// xmlContentDecl reads an XML declaration at the start of content as
// PostgreSQL does (its parse_xml_decl), and returns the rest.
func xmlContentDecl(s string) (string, bool) {
	if !strings.HasPrefix(s, "<?xml") || len(s) <= 5 || !isXMLSpace(s[5]) {
		return s, true
	}
	p := &xmlParser{s: s, i: 5}
	attrs, ok := p.declAttrs()
	if !ok || len(attrs) == 0 || attrs[0][0] != "version" {
		return "", false
	}
	for _, a := range attrs {
		for _, c := range []byte(a[1]) {
			if c >= 0x80 {
				return "", false
			}
		}
	}
	rest := attrs[1:]
	if len(rest) > 0 && rest[0][0] == "encoding" {
		rest = rest[1:]
	}
	if len(rest) > 0 && rest[0][0] == "standalone" {
		if rest[0][1] != "yes" && rest[0][1] != "no" {
			return "", false
		}
		rest = rest[1:]
	}
	if len(rest) > 0 {
		return "", false
	}
	return s[p.i:], true
}

// xmlHasDoctype reports whether content holds a DOCTYPE after white
// space, comments and processing instructions: PostgreSQL reads it as a
// document.
func xmlHasDoctype(s string) bool {
	p := &xmlParser{s: s}
	if !p.misc() {
		return false
	}
	return p.has("<!DOCTYPE")
}

// comment reads <!-- … -->: no -- inside.
func (p *xmlParser) comment() bool {
	p.i += 4
	j := strings.Index(p.s[p.i:], "--")
	if j < 0 || !strings.HasPrefix(p.s[p.i+j:], "-->") {
		return false
	}
	ok := p.chars(p.s[p.i : p.i+j])
	p.i += j + 3
	return ok
}

// pi reads <?target data?>; the target is not xml in any case.
func (p *xmlParser) pi() bool {
	p.i += 2
	target := p.name()
	if target == "" || strings.EqualFold(target, "xml") {
		return false
	}
	if p.has("?>") {
		p.i += 2
		return true
	}
	if !p.skipSpace() {
		return false
	}
	j := strings.Index(p.s[p.i:], "?>")
	if j < 0 {
		return false
	}
	ok := p.chars(p.s[p.i : p.i+j])
	p.i += j + 2
	return ok
}

// doctype reads <!DOCTYPE name [ExternalID] [internal subset]>.
func (p *xmlParser) doctype() bool {
	p.i += len("<!DOCTYPE")
	p.skipSpace()
	if p.name() == "" {
		return false
	}
	sp := p.skipSpace()
	if sp && (p.has("SYSTEM") || p.has("PUBLIC")) {
		if !p.externalID() {
			return false
		}
		p.external = true
		p.skipSpace()
	}
	if p.has("[") {
		p.i++
		if !p.internalSubset() {
			return false
		}
		p.skipSpace()
	}
	if !p.has(">") {
		return false
	}
	p.i++
	return true
}

// externalID reads SYSTEM "uri" or PUBLIC "id" "uri".
func (p *xmlParser) externalID() bool {
	public := p.has("PUBLIC")
	p.i += 6
	if !p.skipSpace() {
		return false
	}
	if public {
		id, ok := p.quoted()
		if !ok || strings.Trim(id, " \r\nabcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'()+,./:=?;!*#@$_%") != "" {
			return false
		}
		if !p.skipSpace() {
			return false
		}
	}
	_, ok := p.quoted()
	return ok
}

// internalSubset reads the declarations up to ]: ENTITY declarations are
// kept, ELEMENT, ATTLIST and NOTATION read to their end.
func (p *xmlParser) internalSubset() bool {
	for {
		p.skipSpace()
		switch {
		case p.has("]"):
			p.i++
			return true
		case p.has("<!--"):
			if !p.comment() {
				return false
			}
		case p.has("<?"):
			if !p.pi() {
				return false
			}
		case p.has("%"):
			p.i++
			if p.name() == "" || !p.has(";") {
				return false
			}
			p.i++
			p.external = true
		case p.has("<!ENTITY"):
			if !p.entityDecl() {
				return false
			}
		case p.has("<!ELEMENT"):
			if !p.elementDecl() {
				return false
			}
		case p.has("<!ATTLIST"):
			if !p.attlistDecl() {
				return false
			}
		case p.has("<!NOTATION"):
			if !p.notationDecl() {
				return false
			}
		default:
			return false
		}
	}
}

// entityDecl reads <!ENTITY [%] name (value | ExternalID [NDATA n])>.
func (p *xmlParser) entityDecl() bool {
	p.i += len("<!ENTITY")
	if !p.skipSpace() {
		return false
	}
	param := false
	if p.has("%") {
		p.i++
		if !p.skipSpace() {
			return false
		}
		param = true
	}
	n := p.name()
	if n == "" || !p.skipSpace() {
		return false
	}
	if p.has("SYSTEM") || p.has("PUBLIC") {
		if !p.externalID() {
			return false
		}
		if p.skipSpace() && p.has("NDATA") {
			p.i += 5
			if !p.skipSpace() || p.name() == "" {
				return false
			}
		}
		if !param {
			p.setEntity(n, "", true)
		}
	} else {
		v, ok := p.quoted()
		if !ok || strings.ContainsRune(v, '%') {
			return false
		}
		if v, ok = expandCharRefs(v); !ok || !refsWellFormed(v) {
			return false
		}
		if !param {
			p.setEntity(n, v, false)
		}
	}
	p.skipSpace()
	if !p.has(">") {
		return false
	}
	p.i++
	return true
}

// setEntity declares a general entity; the first declaration binds. An
// external one is marked by a value starting with NUL, which no text holds.
func (p *xmlParser) setEntity(name, v string, external bool) {
	if p.ents == nil {
		p.ents = map[string]string{}
	}
	if _, ok := p.ents[name]; ok {
		return
	}
	if external {
		v = "\x00"
	}
	p.ents[name] = v
}

// element reads an element, its content and its end tag.
func (p *xmlParser) element() bool {
	p.i++
	n := p.name()
	if n == "" {
		return false
	}
	var seen []string
	for {
		sp := p.skipSpace()
		if p.has("/>") {
			p.i += 2
			return true
		}
		if p.has(">") {
			p.i++
			break
		}
		if !sp {
			return false
		}
		a := p.name()
		if a == "" {
			return false
		}
		for _, s := range seen {
			if s == a {
				return false
			}
		}
		seen = append(seen, a)
		p.skipSpace()
		if !p.has("=") {
			return false
		}
		p.i++
		p.skipSpace()
		if !p.attValue() {
			return false
		}
	}
	if !p.content(false) || !p.has("</") {
		return false
	}
	p.i += 2
	if p.name() != n {
		return false
	}
	p.skipSpace()
	if !p.has(">") {
		return false
	}
	p.i++
	return true
}

// attValue reads a quoted attribute value: no <, references valid.
func (p *xmlParser) attValue() bool {
	if p.eof() || p.s[p.i] != '"' && p.s[p.i] != '\'' {
		return false
	}
	q := p.s[p.i]
	p.i++
	for !p.eof() {
		switch c := p.s[p.i]; {
		case c == q:
			p.i++
			return true
		case c == '<':
			return false
		case c == '&':
			if !p.reference(true) {
				return false
			}
		default:
			r, n := p.peek()
			if !isXMLChar(r) {
				return false
			}
			p.i += n
		}
	}
	return false
}

// reference reads &name; or a character reference; an entity's
// replacement text must be well-formed content (in an attribute: hold no
// <), and an entity must be declared unless the DOCTYPE has an external
// subset.
func (p *xmlParser) reference(inAttr bool) bool {
	p.i++
	if p.has("#") {
		p.i++
		hex := p.has("x")
		if hex {
			p.i++
		}
		start := p.i
		var v int64
		for !p.eof() && p.s[p.i] != ';' {
			c := p.s[p.i]
			var d int64
			switch {
			case c >= '0' && c <= '9':
				d = int64(c - '0')
			case hex && c >= 'a' && c <= 'f':
				d = int64(c-'a') + 10
			case hex && c >= 'A' && c <= 'F':
				d = int64(c-'A') + 10
			default:
				return false
			}
			if hex {
				v = v*16 + d
			} else {
				v = v*10 + d
			}
			if v > 0x10FFFF {
				v = 0x110000
			}
			p.i++
		}
		if p.eof() || p.i == start {
			return false
		}
		p.i++
		return isXMLChar(rune(v))
	}
	n := p.name()
	if n == "" || !p.has(";") {
		return false
	}
	p.i++
	switch n {
	case "lt", "gt", "amp", "apos", "quot":
		return true
	}
	v, ok := p.ents[n]
	if !ok {
		return p.external
	}
	if v == "\x00" {
		return !inAttr
	}
	if p.depth >= 40 {
		return false
	}
	sub := &xmlParser{s: v, ents: p.ents, external: p.external, depth: p.depth + 1}
	if inAttr {
		if strings.ContainsRune(v, '<') {
			return false
		}
		for !sub.eof() {
			if sub.s[sub.i] == '&' {
				if !sub.reference(true) {
					return false
				}
				continue
			}
			sub.i++
		}
		return true
	}
	return sub.content(true) && sub.eof()
}

// content reads character data, elements, references, CDATA sections,
// comments and processing instructions up to an end tag (or, top, the end
// of the text).
func (p *xmlParser) content(top bool) bool {
	for !p.eof() {
		switch {
		case p.has("</"):
			return !top
		case p.has("<!--"):
			if !p.comment() {
				return false
			}
		case p.has("<![CDATA["):
			p.i += len("<![CDATA[")
			j := strings.Index(p.s[p.i:], "]]>")
			if j < 0 || !p.chars(p.s[p.i:p.i+j]) {
				return false
			}
			p.i += j + 3
		case p.has("<?"):
			if !p.pi() {
				return false
			}
		case p.has("<"):
			if !p.element() {
				return false
			}
		case p.has("&"):
			if !p.reference(false) {
				return false
			}
		case p.has("]]>"):
			return false
		default:
			r, n := p.peek()
			if !isXMLChar(r) {
				return false
			}
			p.i += n
		}
	}
	return top
}

// expandCharRefs replaces the character references of an entity's value
// (which are expanded where the entity is declared); other references
// stay, checked where the entity is used.
func expandCharRefs(v string) (string, bool) {
	if !strings.Contains(v, "&#") {
		return v, true
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		if !strings.HasPrefix(v[i:], "&#") {
			b.WriteByte(v[i])
			i++
			continue
		}
		p := &xmlParser{s: v, i: i}
		if !p.reference(false) {
			return "", false
		}
		ref := v[i+2 : p.i-1]
		var r int64
		for _, c := range []byte(strings.TrimPrefix(ref, "x")) {
			d := int64(c - '0')
			if strings.HasPrefix(ref, "x") {
				switch {
				case c >= 'a' && c <= 'f':
					d = int64(c-'a') + 10
				case c >= 'A' && c <= 'F':
					d = int64(c-'A') + 10
				}
				r = r*16 + d
			} else {
				r = r*10 + d
			}
		}
		b.WriteRune(rune(r))
		i = p.i
	}
	return b.String(), true
}

// word reads the keyword w.
func (p *xmlParser) word(w string) bool {
	if p.has(w) {
		p.i += len(w)
		return true
	}
	return false
}

// nmtoken reads one or more name characters.
func (p *xmlParser) nmtoken() bool {
	start := p.i
	for !p.eof() {
		r, n := p.peek()
		if !isNameChar(r) {
			break
		}
		p.i += n
	}
	return p.i > start
}

// end reads S? >.
func (p *xmlParser) end() bool {
	p.skipSpace()
	return p.word(">")
}

// elementDecl reads <!ELEMENT name contentspec>.
func (p *xmlParser) elementDecl() bool {
	p.i += len("<!ELEMENT")
	if !p.skipSpace() || p.name() == "" || !p.skipSpace() {
		return false
	}
	switch {
	case p.word("EMPTY"), p.word("ANY"):
		return p.end()
	case !p.word("("):
		return false
	}
	p.skipSpace()
	if p.word("#PCDATA") {
		p.skipSpace()
		if p.word(")") {
			p.word("*")
			return p.end()
		}
		for {
			p.skipSpace()
			if p.word(")*") {
				return p.end()
			}
			if !p.word("|") {
				return false
			}
			p.skipSpace()
			if p.name() == "" {
				return false
			}
		}
	}
	return p.group() && p.end()
}

// group reads the rest of a choice or sequence after its (, and its
// occurrence.
func (p *xmlParser) group() bool {
	sep := byte(0)
	for {
		p.skipSpace()
		if p.word("(") {
			if !p.group() {
				return false
			}
		} else if p.name() == "" {
			return false
		} else if !p.eof() && strings.IndexByte("?*+", p.s[p.i]) >= 0 {
			p.i++
		}
		p.skipSpace()
		if p.word(")") {
			if !p.eof() && strings.IndexByte("?*+", p.s[p.i]) >= 0 {
				p.i++
			}
			return true
		}
		if p.eof() || p.s[p.i] != '|' && p.s[p.i] != ',' || sep != 0 && p.s[p.i] != sep {
			return false
		}
		sep = p.s[p.i]
		p.i++
	}
}

// attlistDecl reads <!ATTLIST name (S name S type S default)* S? >.
func (p *xmlParser) attlistDecl() bool {
	p.i += len("<!ATTLIST")
	if !p.skipSpace() || p.name() == "" {
		return false
	}
	for {
		sp := p.skipSpace()
		if p.word(">") {
			return true
		}
		if !sp || p.name() == "" || !p.skipSpace() {
			return false
		}
		switch {
		case p.word("CDATA"), p.word("IDREFS"), p.word("IDREF"), p.word("ID"), p.word("ENTITY"), p.word("ENTITIES"),
			p.word("NMTOKENS"), p.word("NMTOKEN"):
		case p.word("NOTATION"):
			if !p.skipSpace() || !p.word("(") || !p.enumeration(true) {
				return false
			}
		case p.word("("):
			if !p.enumeration(false) {
				return false
			}
		default:
			return false
		}
		if !p.skipSpace() {
			return false
		}
		switch {
		case p.word("#REQUIRED"), p.word("#IMPLIED"):
		default:
			if p.word("#FIXED") && !p.skipSpace() {
				return false
			}
			if !p.attValue() {
				return false
			}
		}
	}
}

// enumeration reads the rest of ( a | b … ) after its (.
func (p *xmlParser) enumeration(names bool) bool {
	for {
		p.skipSpace()
		if names && p.name() == "" || !names && !p.nmtoken() {
			return false
		}
		p.skipSpace()
		if p.word(")") {
			return true
		}
		if !p.word("|") {
			return false
		}
	}
}

// notationDecl reads <!NOTATION name (ExternalID | PUBLIC "id")>.
func (p *xmlParser) notationDecl() bool {
	p.i += len("<!NOTATION")
	if !p.skipSpace() || p.name() == "" || !p.skipSpace() {
		return false
	}
	switch {
	case p.has("SYSTEM"):
		if !p.externalID() {
			return false
		}
	case p.word("PUBLIC"):
		if !p.skipSpace() {
			return false
		}
		if _, ok := p.quoted(); !ok {
			return false
		}
		if p.skipSpace() && !p.has(">") {
			if _, ok := p.quoted(); !ok {
				return false
			}
		}
	default:
		return false
	}
	return p.end()
}

// refsWellFormed reports whether every & of an entity's value (its
// character references expanded) starts an entity reference, &name;.
func refsWellFormed(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] != '&' {
			continue
		}
		p := &xmlParser{s: v, i: i + 1}
		if p.has("#") {
			continue // a reference the expansion made: checked where it is used
		}
		if p.name() == "" || !p.has(";") {
			return false
		}
	}
	return true
}
