// Package xpath evaluates XPath 1.0 over XML documents as PostgreSQL's
// xpath() does through libxml2: the document's tree (tree.go), the
// expression's syntax (lex.go, parse.go), its evaluation (eval.go,
// funcs.go), and the printing of the nodes and values it selects
// (serialize.go, number.go).
//
//	doc, _ := xpath.ParseDocument(`<a><b>1</b><b>2</b></a>`)
//	e, _ := xpath.Compile(`//b[2]`, nil)
//	v, _ := e.Eval(doc) // a node set holding the second b
package xpath

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is a node's kind.
type Kind uint8

// The node kinds of XPath's data model; CDATA sections stay apart from
// text as libxml2 keeps them (text() selects both).
const (
	Root Kind = iota
	Element
	Attribute
	Text
	CDATA
	Comment
	PI
	Namespace
)

// XMLNamespace is the namespace the prefix xml is bound to.
const XMLNamespace = "http://www.w3.org/XML/1998/namespace"

// Node is a node of a document's tree.
type Node struct {
	Kind   Kind
	Prefix string
	// Local is an element's or attribute's local name, a processing
	// instruction's target, a namespace node's prefix.
	Local string
	// URI is an element's or attribute's namespace, a namespace node's URI.
	URI string
	// Data is a text's, comment's, processing instruction's or attribute's
	// value; the root's document type declaration, as written.
	Data     string
	Parent   *Node
	Children []*Node
	Attrs    []*Node
	// NSDecls are the namespaces an element declares, as Namespace nodes.
	NSDecls []*Node
	// ord is the node's place in document order.
	ord int
}

// QName is an element's or attribute's name as written.
func (n *Node) QName() string {
	if n.Prefix == "" {
		return n.Local
	}
	return n.Prefix + ":" + n.Local
}

// StringValue is the node's string-value: the text of an element's or
// the root's text descendants, a leaf's own value.
func (n *Node) StringValue() string {
	switch n.Kind {
	case Root, Element:
		var b strings.Builder
		n.appendText(&b)
		return b.String()
	case Namespace:
		return n.URI
	}
	return n.Data
}

func (n *Node) appendText(b *strings.Builder) {
	for _, c := range n.Children {
		switch c.Kind {
		case Text, CDATA:
			b.WriteString(c.Data)
		case Element:
			c.appendText(b)
		}
	}
}

// lookupNS returns the URI bound to prefix ("" for the default namespace)
// at n, searching n and its ancestors.
func (n *Node) lookupNS(prefix string) (string, bool) {
	if prefix == "xml" {
		return XMLNamespace, true
	}
	for e := n; e != nil; e = e.Parent {
		for _, d := range e.NSDecls {
			if d.Local == prefix {
				return d.URI, true
			}
		}
	}
	return "", false
}

// ParseDocument builds the tree of s, an XML document without its XML
// declaration that the caller has checked to be well-formed (an error
// reports what this reader cannot take).
func ParseDocument(s string) (*Node, error) {
	p := &treeParser{s: normalizeNewlines(s)}
	root := &Node{Kind: Root}
	if err := p.nodes(root, true); err != nil {
		return nil, err
	}
	number(root, 0)
	return root, nil
}

// number sets the document order of n's subtree from i and returns the
// next free number.
func number(n *Node, i int) int {
	n.ord = i
	i++
	for _, d := range n.NSDecls {
		d.ord = i
		i++
	}
	for _, a := range n.Attrs {
		a.ord = i
		i++
	}
	for _, c := range n.Children {
		i = number(c, i)
	}
	return i
}

// normalizeNewlines turns CR LF and lone CR into LF, as an XML parser
// must before anything else.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

type treeParser struct {
	s string
	i int
}

type parseError string

func (e parseError) Error() string { return string(e) }

func (p *treeParser) has(prefix string) bool { return strings.HasPrefix(p.s[p.i:], prefix) }

// upTo returns the text before the next end and moves past end.
func (p *treeParser) upTo(end string) (string, error) {
	j := strings.Index(p.s[p.i:], end)
	if j < 0 {
		return "", parseError("unterminated " + end)
	}
	t := p.s[p.i : p.i+j]
	p.i += j + len(end)
	return t, nil
}

// nodes reads content into parent up to its end tag (or the end of the
// text at the top, where text between the markup is white space to drop).
func (p *treeParser) nodes(parent *Node, top bool) error {
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 && !top {
			parent.Children = append(parent.Children, &Node{Kind: Text, Data: text.String(), Parent: parent})
		}
		text.Reset()
	}
	for p.i < len(p.s) {
		switch {
		case p.has("</"):
			if top {
				return parseError("unexpected end tag")
			}
			flush()
			if _, err := p.upTo(">"); err != nil {
				return err
			}
			return nil
		case p.has("<!--"):
			flush()
			p.i += 4
			t, err := p.upTo("-->")
			if err != nil {
				return err
			}
			parent.Children = append(parent.Children, &Node{Kind: Comment, Data: t, Parent: parent})
		case p.has("<![CDATA["):
			flush()
			p.i += 9
			t, err := p.upTo("]]>")
			if err != nil {
				return err
			}
			parent.Children = append(parent.Children, &Node{Kind: CDATA, Data: t, Parent: parent})
		case p.has("<?"):
			flush()
			p.i += 2
			t, err := p.upTo("?>")
			if err != nil {
				return err
			}
			target, data := t, ""
			if k := strings.IndexAny(t, " \t\n"); k >= 0 {
				target, data = t[:k], strings.TrimLeft(t[k:], " \t\n")
			}
			parent.Children = append(parent.Children, &Node{Kind: PI, Local: target, Data: data, Parent: parent})
		case p.has("<!"):
			start := p.i
			if err := p.skipDoctype(); err != nil {
				return err
			}
			parent.Data = p.s[start:p.i]
		case p.has("<"):
			flush()
			if err := p.element(parent); err != nil {
				return err
			}
		case p.s[p.i] == '&':
			r, err := p.reference()
			if err != nil {
				return err
			}
			text.WriteString(r)
		default:
			j := strings.IndexAny(p.s[p.i:], "<&")
			if j < 0 {
				j = len(p.s) - p.i
			}
			text.WriteString(p.s[p.i : p.i+j])
			p.i += j
		}
	}
	if !top {
		return parseError("unterminated element")
	}
	return nil
}

// skipDoctype moves past a document type declaration, its internal subset
// included.
func (p *treeParser) skipDoctype() error {
	depth, quote := 0, byte(0)
	for ; p.i < len(p.s); p.i++ {
		c := p.s[p.i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '>' && depth == 0:
			p.i++
			return nil
		}
	}
	return parseError("unterminated document type declaration")
}

// reference reads an entity or character reference. An entity the
// document declares itself is kept as written.
func (p *treeParser) reference() (string, error) {
	j := strings.IndexByte(p.s[p.i:], ';')
	if j < 0 {
		return "", parseError("unterminated reference")
	}
	ref := p.s[p.i+1 : p.i+j]
	p.i += j + 1
	switch ref {
	case "lt":
		return "<", nil
	case "gt":
		return ">", nil
	case "amp":
		return "&", nil
	case "apos":
		return "'", nil
	case "quot":
		return `"`, nil
	}
	if strings.HasPrefix(ref, "#") {
		var n uint64
		var err error
		if strings.HasPrefix(ref, "#x") {
			n, err = strconv.ParseUint(ref[2:], 16, 32)
		} else {
			n, err = strconv.ParseUint(ref[1:], 10, 32)
		}
		if err != nil || !utf8.ValidRune(rune(n)) {
			return "", parseError("bad character reference")
		}
		return string(rune(n)), nil
	}
	return "&" + ref + ";", nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *treeParser) skipSpace() {
	for p.i < len(p.s) && isSpace(p.s[p.i]) {
		p.i++
	}
}

func (p *treeParser) name() string {
	j := p.i
	for j < len(p.s) && !isSpace(p.s[j]) && !strings.ContainsRune("/>=", rune(p.s[j])) {
		j++
	}
	n := p.s[p.i:j]
	p.i = j
	return n
}

func splitQName(q string) (prefix, local string) {
	if pr, l, ok := strings.Cut(q, ":"); ok {
		return pr, l
	}
	return "", q
}

// element reads an element and its content into parent.
func (p *treeParser) element(parent *Node) error {
	p.i++
	e := &Node{Kind: Element, Parent: parent}
	e.Prefix, e.Local = splitQName(p.name())
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return parseError("unterminated start tag")
		}
		if p.has("/>") || p.s[p.i] == '>' {
			break
		}
		qn := p.name()
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '=' {
			return parseError("attribute without value")
		}
		p.i++
		p.skipSpace()
		v, err := p.attValue()
		if err != nil {
			return err
		}
		pr, l := splitQName(qn)
		switch {
		case qn == "xmlns":
			e.NSDecls = append(e.NSDecls, &Node{Kind: Namespace, URI: v, Parent: e})
		case pr == "xmlns":
			e.NSDecls = append(e.NSDecls, &Node{Kind: Namespace, Local: l, URI: v, Parent: e})
		default:
			e.Attrs = append(e.Attrs, &Node{Kind: Attribute, Prefix: pr, Local: l, Data: v, Parent: e})
		}
	}
	var ok bool
	if e.URI, ok = e.lookupNS(e.Prefix); !ok && e.Prefix != "" {
		return parseError("undefined namespace prefix " + e.Prefix)
	}
	for _, a := range e.Attrs {
		if a.Prefix != "" {
			if a.URI, ok = e.lookupNS(a.Prefix); !ok {
				return parseError("undefined namespace prefix " + a.Prefix)
			}
		}
	}
	parent.Children = append(parent.Children, e)
	if p.has("/>") {
		p.i += 2
		return nil
	}
	p.i++
	return p.nodes(e, false)
}

// attValue reads a quoted attribute value, normalized as XML normalizes
// attributes: each white-space character written literally is a space.
func (p *treeParser) attValue() (string, error) {
	if p.i >= len(p.s) || (p.s[p.i] != '"' && p.s[p.i] != '\'') {
		return "", parseError("unquoted attribute value")
	}
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '&':
			r, err := p.reference()
			if err != nil {
				return "", err
			}
			b.WriteString(r)
		case c == '\t' || c == '\n':
			b.WriteByte(' ')
			p.i++
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", parseError("unterminated attribute value")
}
