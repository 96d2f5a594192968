package expr

import (
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/xpath"
)

// xpath(path, doc [, nsarray]) → xml[], xpath_exists(path, doc [,
// nsarray]) and XMLEXISTS(path PASSING doc), which the parser makes
// xmlexists(path, doc): XPath 1.0 over an XML document, as PostgreSQL's
// do through libxml2.
func init() {
	T, X, TA := value.Text, value.XML, value.ArrayOf(value.Text)
	xa := value.ArrayType(value.XML)
	strict("xpath", kinds(T, X), xa, func(a []value.Value) (value.Value, error) {
		return xpathArray(a[0], a[1], value.Null)
	})
	strict("xpath", kinds(T, X, TA), xa, func(a []value.Value) (value.Value, error) {
		return xpathArray(a[0], a[1], a[2])
	})
	exists := func(a []value.Value) (value.Value, error) {
		ns := value.Null
		if len(a) == 3 {
			ns = a[2]
		}
		r, err := xpathEval(a[0], a[1], ns)
		if err != nil {
			return value.Null, err
		}
		set, isSet := r.([]*xpath.Node)
		return value.NewBool(!isSet || len(set) > 0), nil
	}
	strict("xpath_exists", kinds(T, X), value.BoolType, exists)
	strict("xpath_exists", kinds(T, X, TA), value.BoolType, exists)
	strict("xmlexists", kinds(T, X), value.BoolType, exists)
	// xmlvalidate exists in PostgreSQL only to say it is not implemented.
	strict("xmlvalidate", kinds(X, T), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "xmlvalidate is not implemented")
	})
}

// xpathArray is xpath()'s result: each node of a node set as
// xpath.Serialize prints it, a scalar as a one-element array of its text.
func xpathArray(path, doc, ns value.Value) (value.Value, error) {
	r, err := xpathEval(path, doc, ns)
	if err != nil {
		return value.Null, err
	}
	var elems []value.Value
	switch r := r.(type) {
	case []*xpath.Node:
		for _, n := range r {
			s, err := xpath.Serialize(n)
			if err != nil {
				return value.Null, pgerr.New(pgerr.OutOfMemory, "%s", err.Error())
			}
			elems = append(elems, value.NewXML(s))
		}
	case bool:
		elems = []value.Value{value.NewXML(strconv.FormatBool(r))}
	case float64:
		elems = []value.Value{value.NewXML(value.NewFloat(value.Float8, r).String())}
	case string:
		elems = []value.Value{value.NewXML(xpath.EscapeText(r))}
	}
	return value.NewArray(value.ArrayOf(value.XML), elems), nil
}

// xpathEval evaluates path over doc with the prefixes of ns, a
// two-dimensional text array of (prefix, URI) pairs.
func xpathEval(path, doc, ns value.Value) (interface{}, error) {
	p := textOf(path)
	if p == "" {
		return nil, pgerr.New("22000", "empty XPath expression")
	}
	prefixes, err := xpathNamespaces(ns)
	if err != nil {
		return nil, err
	}
	root, err := xmlDocumentTree(doc.Str())
	if err != nil {
		return nil, err
	}
	e, err := xpath.Compile(p, prefixes)
	if err != nil {
		return nil, xpathError(err, pgerr.Internal)
	}
	r, err := e.Eval(root)
	if err != nil {
		return nil, xpathError(err, pgerr.Internal)
	}
	return r, nil
}

// xmlDocumentTree parses an xml value that must be a document: 2200M
// "could not parse XML document" otherwise.
func xmlDocumentTree(s string) (*xpath.Node, error) {
	_, rest, ok := value.SplitXMLDecl(s)
	if ok && value.XMLWellFormed(s, true) {
		if root, err := xpath.ParseDocument(rest); err == nil {
			return root, nil
		}
	}
	return nil, pgerr.New(pgerr.InvalidXMLDocument, "could not parse XML document")
}

// xpathNamespaces reads xpath()'s namespace mappings; a later mapping of
// a prefix wins, as in libxml2.
func xpathNamespaces(ns value.Value) (map[string]string, error) {
	if ns.IsNull() || ns.NDims() == 0 {
		return nil, nil
	}
	if d := ns.Dims(); len(d) != 2 || d[1].Len != 2 {
		return nil, pgerr.New("22000", "invalid array for XML namespace mapping").
			WithDetail("The array must be two-dimensional with length of the second axis equal to 2.")
	}
	m := map[string]string{}
	el := ns.Elems()
	for i := 0; i+1 < len(el); i += 2 {
		if el[i].IsNull() || el[i+1].IsNull() {
			return nil, pgerr.New("22004", "neither namespace name nor URI may be null")
		}
		prefix, uri := textOf(el[i]), textOf(el[i+1])
		if prefix == "" {
			return nil, pgerr.New(pgerr.Internal, "could not register XML namespace with name \"%s\" and URI \"%s\"", prefix, uri)
		}
		m[prefix] = uri
	}
	return m, nil
}
