package expr

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The xml type's functions and SQL's XML forms (XMLELEMENT, XMLFOREST,
// XMLCONCAT, XMLPARSE, XMLPI, XMLROOT, IS DOCUMENT, XMLSERIALIZE), which
// the binder calls through the definitions below: their names hold a
// space, so that no SQL call reaches them by name.
func init() {
	T, X := value.Text, value.XML
	strict("xmlcomment", kinds(T), value.XMLType, func(a []value.Value) (value.Value, error) {
		s := textOf(a[0])
		if strings.Contains(s, "--") || strings.HasSuffix(s, "-") {
			return value.Null, pgerr.New(pgerr.InvalidXMLComment, "invalid XML comment")
		}
		return value.NewXML("<!--" + s + "-->"), nil
	})
	strict("xml", kinds(T), value.XMLType, func(a []value.Value) (value.Value, error) {
		return value.ParseXML(textOf(a[0]), false)
	})
	strict("text", kinds(X), value.TextType, func(a []value.Value) (value.Value, error) {
		return value.NewText(value.Text, a[0].Str()), nil
	})
}

// XML forms' definitions.
var (
	// XMLElement is XMLELEMENT(NAME n, XMLATTRIBUTES(v AS a, …), c, …):
	// its arguments are the element's name and its attributes' names (a
	// text constant and a text[] constant), the attributes' values, then
	// the content. A NULL attribute is left out, as is NULL content.
	XMLElement = &FuncDef{Name: "xmlelement", Variadic: true, Params: kinds(value.Unknown), Result: value.XMLType,
		Eval: evalXMLElement, Print: printXMLElement}
	// XMLForest is XMLFOREST(v AS n, …): its arguments are the names (a
	// text[] constant), then the values, each made an element; NULL when
	// every value is.
	XMLForest = &FuncDef{Name: "xmlforest", Variadic: true, Params: kinds(value.Unknown), Result: value.XMLType,
		Eval: evalXMLForest, Print: printXMLForest}
	// XMLConcat is XMLCONCAT(x, …); NULL when every value is.
	XMLConcat = &FuncDef{Name: "xmlconcat", Variadic: true, Params: kinds(value.XML), Result: value.XMLType,
		Eval:  func(a []value.Value) (value.Value, error) { return xmlConcat(a), nil },
		Print: func(args []Expr) string { return "XMLCONCAT(" + list(args) + ")" }}
	// XMLPI is XMLPI(NAME t [, text]): its arguments are the target (a
	// text constant) and the content, if any.
	XMLPI = &FuncDef{Name: "xmlpi", Variadic: true, Params: kinds(value.Text), Result: value.XMLType,
		Eval: evalXMLPI, Print: printXMLPI}
	// XMLRoot is XMLROOT(x, VERSION v|NO VALUE [, STANDALONE …]): its
	// arguments are the value, the version (NULL for NO VALUE) and the
	// standalone as an integer constant (XMLStandaloneYes, …).
	XMLRoot = &FuncDef{Name: "xmlroot", Params: kinds(value.XML, value.Text, value.Int4), Result: value.XMLType,
		Eval: evalXMLRoot, Print: printXMLRoot}
	// XMLIsDocument is x IS DOCUMENT.
	XMLIsDocument = &FuncDef{Name: "xml is document", Strict: true, Params: kinds(value.XML), Result: value.BoolType,
		Eval: func(a []value.Value) (value.Value, error) {
			return value.NewBool(value.XMLWellFormed(a[0].Str(), true)), nil
		},
		Print: func(args []Expr) string { return args[0].String() + " IS DOCUMENT" }}
	// XMLAggFinish is xmlagg(x): XMLCONCAT of the array_agg of the values.
	XMLAggFinish = &FuncDef{Name: "xmlagg finish", Strict: true, Params: kinds(value.ArrayOf(value.XML)), Result: value.XMLType,
		Eval: func(a []value.Value) (value.Value, error) { return xmlConcat(a[0].Elems()), nil }}
)

// XMLParse is XMLPARSE(DOCUMENT|CONTENT text): the text checked to be a
// document or content.
func XMLParse(document bool) *FuncDef {
	if document {
		return xmlParseDocument
	}
	return xmlParseContent
}

var xmlParseDocument, xmlParseContent = xmlParseDef(true), xmlParseDef(false)

func xmlParseDef(document bool) *FuncDef {
	form := xmlOption(document)
	return &FuncDef{Name: "xmlparse " + strings.ToLower(form), Strict: true, Params: kinds(value.Text), Result: value.XMLType,
		Eval:  func(a []value.Value) (value.Value, error) { return value.ParseXML(textOf(a[0]), document) },
		Print: func(args []Expr) string { return "XMLPARSE(" + form + " " + args[0].String() + ")" }}
}

// XMLSerialize is XMLSERIALIZE(DOCUMENT|CONTENT x AS text): the text of
// x, which DOCUMENT checks to be a document (2200L otherwise).
func XMLSerialize(document bool) *FuncDef {
	if document {
		return xmlSerializeDocument
	}
	return xmlSerializeContent
}

var xmlSerializeDocument, xmlSerializeContent = xmlSerializeDef(true), xmlSerializeDef(false)

func xmlSerializeDef(document bool) *FuncDef {
	form := xmlOption(document)
	return &FuncDef{Name: "xmlserialize " + strings.ToLower(form), Strict: true, Params: kinds(value.XML), Result: value.TextType,
		Eval: func(a []value.Value) (value.Value, error) {
			s := a[0].Str()
			if document && !value.XMLWellFormed(s, true) {
				return value.Null, pgerr.New(pgerr.NotAnXMLDocument, "not an XML document")
			}
			return value.NewText(value.Text, s), nil
		},
		Print: func(args []Expr) string { return "XMLSERIALIZE(" + form + " " + args[0].String() + " AS text)" }}
}

func xmlOption(document bool) string {
	if document {
		return "DOCUMENT"
	}
	return "CONTENT"
}

// XMLROOT's STANDALONE, as PostgreSQL numbers it.
const (
	XMLStandaloneYes     = 0
	XMLStandaloneNo      = 1
	XMLStandaloneNoValue = 2
	XMLStandaloneOmitted = 3
)

func evalXMLElement(a []value.Value) (value.Value, error) {
	names := a[1].Elems()
	attrs, content := a[2:2+len(names)], a[2+len(names):]
	var b strings.Builder
	b.WriteString("<" + a[0].Str())
	for i, v := range attrs {
		if v.IsNull() {
			continue
		}
		s, err := xmlValueText(v, false)
		if err != nil {
			return value.Null, err
		}
		b.WriteString(" " + names[i].Str() + `="` + escapeXMLAttr(s) + `"`)
	}
	empty := true
	for _, v := range content {
		if v.IsNull() {
			continue
		}
		s, err := xmlValueText(v, true)
		if err != nil {
			return value.Null, err
		}
		if empty {
			b.WriteString(">")
			empty = false
		}
		b.WriteString(s)
	}
	if empty {
		b.WriteString("/>")
	} else {
		b.WriteString("</" + a[0].Str() + ">")
	}
	return value.NewXML(b.String()), nil
}

func evalXMLForest(a []value.Value) (value.Value, error) {
	names := a[0].Elems()
	var b strings.Builder
	some := false
	for i, v := range a[1:] {
		if v.IsNull() {
			continue
		}
		s, err := xmlValueText(v, true)
		if err != nil {
			return value.Null, err
		}
		n := names[i].Str()
		b.WriteString("<" + n + ">" + s + "</" + n + ">")
		some = true
	}
	if !some {
		return value.Null, nil
	}
	return value.NewXML(b.String()), nil
}

// xmlConcat concatenates the non-NULL values as PostgreSQL's xmlconcat
// does: each loses its XML declaration, and the result has one when they
// all declare the same version or all declare standalone.
func xmlConcat(vs []value.Value) value.Value {
	var body strings.Builder
	version, sameVersion, standalone, some := "", true, 1, false
	for _, v := range vs {
		if v.IsNull() {
			continue
		}
		d, rest, ok := value.SplitXMLDecl(v.Str())
		if !ok {
			rest = v.Str()
		}
		switch {
		case d.Standalone == 0 && standalone == 1:
			standalone = 0
		case d.Standalone < 0:
			standalone = -1
		}
		switch {
		case d.Version == "":
			sameVersion = false
		case version == "":
			version = d.Version
		case version != d.Version:
			sameVersion = false
		}
		body.WriteString(rest)
		some = true
	}
	if !some {
		return value.Null
	}
	if !sameVersion {
		version = ""
	}
	var out []byte
	if sameVersion || standalone >= 0 {
		out, _ = value.AppendXMLDecl(out, value.XMLDecl{Version: version, Standalone: standalone})
	}
	return value.NewXML(string(out) + body.String())
}

func evalXMLPI(a []value.Value) (value.Value, error) {
	target := a[0].Str()
	if strings.EqualFold(target, "xml") {
		return value.Null, pgerr.New(pgerr.SyntaxError, "invalid XML processing instruction").
			WithDetail("XML processing instruction target name cannot be \"%s\".", target)
	}
	s := "<?" + target
	if len(a) > 1 {
		if a[1].IsNull() {
			return value.Null, nil
		}
		arg := textOf(a[1])
		if strings.Contains(arg, "?>") {
			return value.Null, pgerr.New(pgerr.InvalidXMLPI, "invalid XML processing instruction").
				WithDetail("XML processing instruction cannot contain \"?>\".")
		}
		s += " " + strings.TrimLeft(arg, " ")
	}
	return value.NewXML(s + "?>"), nil
}

func evalXMLRoot(a []value.Value) (value.Value, error) {
	if a[0].IsNull() {
		return value.Null, nil
	}
	d, rest, ok := value.SplitXMLDecl(a[0].Str())
	if !ok {
		rest = a[0].Str()
	}
	d.Version = ""
	if !a[1].IsNull() {
		d.Version = textOf(a[1])
	}
	switch a[2].Int() {
	case XMLStandaloneYes:
		d.Standalone = 1
	case XMLStandaloneNo:
		d.Standalone = 0
	case XMLStandaloneNoValue:
		d.Standalone = -1
	case XMLStandaloneOmitted: // the value's own
	}
	out, _ := value.AppendXMLDecl(nil, d)
	return value.NewXML(string(out) + rest), nil
}

// xmlValueText is PostgreSQL's map_sql_value_to_xml_value: v's text as
// XML Schema writes it (booleans true and false, dates and times in ISO
// form with a T, bytea in base64, each array element an <element>), with
// &, <, > and carriage returns escaped when escape is set (content, not
// attributes); an xml value as it prints.
func xmlValueText(v value.Value, escape bool) (string, error) {
	switch k := v.Kind(); {
	case k.IsArray():
		var b strings.Builder
		for _, e := range v.Elems() {
			if e.IsNull() {
				continue
			}
			s, err := xmlValueText(e, true)
			if err != nil {
				return "", err
			}
			b.WriteString("<element>" + s + "</element>")
		}
		return b.String(), nil
	case k == value.Bool:
		if v.Bool() {
			return "true", nil
		}
		return "false", nil
	case k == value.Date || k == value.Timestamp || k == value.TimestampTZ:
		return xmlDateTime(v)
	case k == value.Bytea:
		return xmlBase64(v.Str()), nil
	case k == value.XML:
		return string(value.AppendText(nil, v)), nil
	}
	s := string(value.AppendText(nil, v))
	if escape {
		s = escapeXMLContent(s)
	}
	return s, nil
}

// xmlDateTime writes a date or timestamp as XML Schema does: a T between
// date and time, and a time zone as +hh:mm. XML has no infinities.
func xmlDateTime(v value.Value) (string, error) {
	s := string(value.AppendText(nil, v))
	if strings.HasSuffix(s, "infinity") {
		what := "timestamp"
		if v.Kind() == value.Date {
			what = "date"
		}
		return "", pgerr.New(pgerr.DatetimeOverflow, "%s out of range", what).
			WithDetail("XML does not support infinite %s values.", what)
	}
	if v.Kind() == value.Date {
		return s, nil
	}
	s = strings.Replace(s, " ", "T", 1)
	if v.Kind() == value.TimestampTZ {
		s = strings.Replace(s, "+00", "+00:00", 1) // timestamps with time zone print in UTC
	}
	return s, nil
}

// xmlBase64 is bytea in base64 as libxml2 writes it: lines of 72
// characters ended by CR LF.
func xmlBase64(b string) string {
	s := base64.StdEncoding.EncodeToString([]byte(b))
	var out strings.Builder
	for len(s) > 72 {
		out.WriteString(s[:72] + "\r\n")
		s = s[72:]
	}
	out.WriteString(s)
	return out.String()
}

// escapeXMLContent escapes text for element content, as PostgreSQL's
// escape_xml: &, <, > and carriage return.
func escapeXMLContent(s string) string {
	return xmlContentEscaper.Replace(s)
}

var xmlContentEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#x0d;")

// escapeXMLAttr escapes an attribute's value as libxml2 writes it without
// a declared encoding: &, <, >, ", tab, newline and carriage return, and
// every character beyond ASCII as a character reference.
func escapeXMLAttr(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\n':
			b.WriteString("&#10;")
		case r == '\r':
			b.WriteString("&#13;")
		case r == '\t':
			b.WriteString("&#9;")
		case r >= 0x80:
			fmt.Fprintf(&b, "&#x%X;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func printXMLElement(args []Expr) string {
	var b strings.Builder
	b.WriteString("XMLELEMENT(NAME " + constText(args[0]))
	names := constElems(args[1])
	if len(names) > 0 {
		b.WriteString(", XMLATTRIBUTES(")
		for i, n := range names {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(args[2+i].String() + " AS " + n.Str())
		}
		b.WriteString(")")
	}
	for _, c := range args[2+len(names):] {
		b.WriteString(", " + c.String())
	}
	return b.String() + ")"
}

func printXMLForest(args []Expr) string {
	names := constElems(args[0])
	parts := make([]string, len(args)-1)
	for i, a := range args[1:] {
		parts[i] = a.String() + " AS " + names[i].Str()
	}
	return "XMLFOREST(" + strings.Join(parts, ", ") + ")"
}

func printXMLPI(args []Expr) string {
	s := "XMLPI(NAME " + constText(args[0])
	if len(args) > 1 {
		s += ", " + args[1].String()
	}
	return s + ")"
}

func printXMLRoot(args []Expr) string {
	s := "XMLROOT(" + args[0].String() + ", VERSION "
	if c, ok := args[1].(*Const); ok && c.V.IsNull() {
		s += "NO VALUE"
	} else {
		s += args[1].String()
	}
	if c, ok := args[2].(*Const); ok {
		switch c.V.Int() {
		case XMLStandaloneYes:
			s += ", STANDALONE YES"
		case XMLStandaloneNo:
			s += ", STANDALONE NO"
		case XMLStandaloneNoValue:
			s += ", STANDALONE NO VALUE"
		}
	}
	return s + ")"
}

// constText is the text of a constant argument, for printing.
func constText(e Expr) string {
	if c, ok := e.(*Const); ok {
		return c.V.Str()
	}
	return e.String()
}

// constElems are the elements of a constant array argument.
func constElems(e Expr) []value.Value {
	if c, ok := e.(*Const); ok {
		return c.V.Elems()
	}
	return nil
}
