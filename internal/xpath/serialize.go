package xpath

import "strings"

// ErrNamespaceNode is Serialize's error for a namespace node, which
// libxml2 cannot copy.
var ErrNamespaceNode = evalError("could not copy node")

// Serialize prints a node as PostgreSQL's xpath() returns it: an
// attribute or text node as its escaped value, any other node as libxml2
// dumps a copy of it. The copy declares, on its top element, each
// namespace its elements and attributes use that was declared outside it;
// the document is printed with an XML declaration and a newline after each
// of its top-level nodes.
func Serialize(n *Node) (string, error) {
	switch n.Kind {
	case Attribute, Text:
		return EscapeText(n.Data), nil
	case Namespace:
		return "", ErrNamespaceNode
	}
	var b strings.Builder
	d := dumper{b: &b, top: n}
	if n.Kind == Element {
		d.collect(n)
	}
	d.dump(n)
	return b.String(), nil
}

// EscapeText escapes text as PostgreSQL's escape_xml: &, <, > and carriage
// returns (&#x0d;).
func EscapeText(s string) string {
	return strings.ReplaceAll(contentEscaper.Replace(s), "&#13;", "&#x0d;")
}

// contentEscaper escapes text in an element as libxml2 writes it: &, <, >
// and carriage returns (&#13;).
var contentEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;")

// attrEscaper escapes an attribute value as libxml2 writes it.
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&quot;",
	"\r", "&#13;", "\n", "&#10;", "\t", "&#9;")

type dumper struct {
	b     *strings.Builder
	top   *Node
	extra []*Node // namespaces declared again on the copy's top element
}

// collect finds, in document order, the namespaces used in e's subtree and
// declared outside it, as libxml2's copy of a node redeclares them.
func (d *dumper) collect(e *Node) {
	d.need(e, e.Prefix, e.URI)
	for _, a := range e.Attrs {
		if a.Prefix != "" {
			d.need(e, a.Prefix, a.URI)
		}
	}
	for _, c := range e.Children {
		if c.Kind == Element {
			d.collect(c)
		}
	}
}

func (d *dumper) need(e *Node, prefix, uri string) {
	if uri == "" || prefix == "xml" {
		return
	}
	for x := e; ; x = x.Parent {
		for _, ns := range x.NSDecls {
			if ns.Local == prefix {
				return
			}
		}
		if x == d.top {
			break
		}
	}
	for _, ns := range d.extra {
		if ns.Local == prefix {
			return
		}
	}
	d.extra = append(d.extra, &Node{Kind: Namespace, Local: prefix, URI: uri})
}

func (d *dumper) dump(n *Node) {
	b := d.b
	switch n.Kind {
	case Root:
		b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
		if n.Data != "" {
			b.WriteString(n.Data + "\n")
		}
		for _, c := range n.Children {
			d.dump(c)
			b.WriteString("\n")
		}
	case Text:
		b.WriteString(contentEscaper.Replace(n.Data))
	case CDATA:
		b.WriteString("<![CDATA[" + n.Data + "]]>")
	case Comment:
		b.WriteString("<!--" + n.Data + "-->")
	case PI:
		b.WriteString("<?" + n.Local)
		if n.Data != "" {
			b.WriteString(" " + n.Data)
		}
		b.WriteString("?>")
	case Element:
		b.WriteString("<" + n.QName())
		decls := n.NSDecls
		if n == d.top {
			decls = append(decls[:len(decls):len(decls)], d.extra...)
		}
		for _, ns := range decls {
			b.WriteString(" xmlns")
			if ns.Local != "" {
				b.WriteString(":" + ns.Local)
			}
			b.WriteString(`="` + attrEscaper.Replace(ns.URI) + `"`)
		}
		for _, a := range n.Attrs {
			b.WriteString(" " + a.QName() + `="` + attrEscaper.Replace(a.Data) + `"`)
		}
		if len(n.Children) == 0 {
			b.WriteString("/>")
			return
		}
		b.WriteString(">")
		for _, c := range n.Children {
			d.dump(c)
		}
		b.WriteString("</" + n.QName() + ">")
	}
}
