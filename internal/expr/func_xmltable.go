package expr

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/xpath"
)

// XMLTableColumn is a column of XMLTABLE.
type XMLTableColumn struct {
	Name       string
	Type       value.Type
	Ordinality bool // FOR ORDINALITY: the row's number
	NotNull    bool
	// Convert reads the text of a node or value as Type, over a row of that
	// text alone; nil for xml.
	Convert Expr
}

// XMLTable is XMLTABLE(XMLNAMESPACES(uri AS prefix, …), row PASSING doc
// COLUMNS …) as a set-returning function. Its arguments are the row path,
// the document, the namespaces' URIs (prefixes names them, "" for
// DEFAULT), then for each column but the ordinal its path and its default
// (a NULL constant without one). A row per node the row path selects in
// the document; each column's path is evaluated at that node, as
// PostgreSQL's XmlTableGetValue reads it.
func XMLTable(prefixes []string, args []Expr, cols []XMLTableColumn) *SRF {
	types := make([]value.Type, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		types[i], names[i] = c.Type, c.Name
	}
	return &SRF{Name: "xmltable", Args: args, Cols: types, Names: names,
		Gen: func(a []value.Value, emit func(value.Row) error) error {
			if a[1].IsNull() {
				return nil
			}
			t := &xmlTable{prefixes: prefixes, cols: cols}
			return t.run(a, emit)
		}}
}

type xmlTable struct {
	prefixes []string
	cols     []XMLTableColumn
	paths    []*xpath.Expr // per column; nil for the ordinal
	defaults []value.Value
}

func (t *xmlTable) run(a []value.Value, emit func(value.Row) error) error {
	root, err := xmlDocumentTree(a[1].Str())
	if err != nil {
		return err
	}
	ns := map[string]string{}
	for i, p := range t.prefixes {
		uri := a[2+i]
		if uri.IsNull() {
			return pgerr.New("22004", "namespace URI must not be null")
		}
		if p == "" {
			return pgerr.New(pgerr.FeatureNotSupported, "DEFAULT namespace is not supported")
		}
		ns[p] = textOf(uri)
	}
	if a[0].IsNull() {
		return pgerr.New("22004", "row filter expression must not be null")
	}
	if textOf(a[0]) == "" {
		return pgerr.New("22000", "row path filter must not be empty string")
	}
	rowPath, err := xpath.Compile(textOf(a[0]), ns)
	if err != nil {
		return xpathError(err, pgerr.SyntaxError)
	}
	rest := a[2+len(t.prefixes):]
	for _, c := range t.cols {
		if c.Ordinality {
			t.paths = append(t.paths, nil)
			t.defaults = append(t.defaults, value.Null)
			continue
		}
		p, d := rest[0], rest[1]
		rest = rest[2:]
		if p.IsNull() {
			return pgerr.New("22004", "column filter expression must not be null").WithDetail("Filter for column \"%s\" is null.", c.Name)
		}
		if textOf(p) == "" {
			return pgerr.New("22000", "column path filter must not be empty string")
		}
		e, err := xpath.Compile(textOf(p), ns)
		if err != nil {
			return xpathError(err, "22000")
		}
		t.paths = append(t.paths, e)
		t.defaults = append(t.defaults, d)
	}
	r, err := rowPath.Eval(root)
	if err != nil {
		return xpathError(err, pgerr.SyntaxError)
	}
	nodes, _ := r.([]*xpath.Node)
	for i, n := range nodes {
		row := make(value.Row, len(t.cols))
		for j, c := range t.cols {
			if c.Ordinality {
				row[j] = value.NewInt(value.Int4, int64(i+1))
				continue
			}
			v, err := t.value(c, t.paths[j], n)
			if err != nil {
				return err
			}
			if v.IsNull() {
				v = t.defaults[j]
			}
			if v.IsNull() && c.NotNull {
				return pgerr.New("22004", "null is not allowed in column \"%s\"", c.Name)
			}
			row[j] = v
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// value is column c's value at node n: NULL when the path selects no node;
// for xml the nodes printed one after the other, for another type the
// text of the one node or of the value, read as the type.
func (t *xmlTable) value(c XMLTableColumn, path *xpath.Expr, n *xpath.Node) (value.Value, error) {
	r, err := path.EvalAt(n)
	if err != nil {
		return value.Null, xpathError(err, "22000")
	}
	isXML := c.Type.Kind == value.XML
	var s string
	switch r := r.(type) {
	case []*xpath.Node:
		switch {
		case len(r) == 0:
			return value.Null, nil
		case isXML:
			var b strings.Builder
			for _, n := range r {
				part, err := xpath.Serialize(n)
				if err != nil {
					return value.Null, pgerr.New(pgerr.OutOfMemory, "%s", err.Error())
				}
				b.WriteString(part)
			}
			s = b.String()
		case len(r) > 1:
			return value.Null, pgerr.New(pgerr.CardinalityViolation, "more than one value returned by column XPath expression")
		default:
			s = r[0].StringValue()
		}
	case string:
		s = r
		if isXML {
			s = xpath.EscapeText(r)
		}
	case bool:
		// A number reads a boolean as 1 or 0.
		s = strconv.FormatBool(r)
		if c.Type.Kind.IsNumeric() {
			s = "0"
			if r {
				s = "1"
			}
		}
	case float64:
		s = xpath.NumberString(r)
	}
	if isXML {
		return value.ParseXML(s, false)
	}
	return c.Convert.Eval(value.Row{value.NewText(value.Text, s)})
}

// xpathError is PostgreSQL's error for an XPath expression that does not
// compile (with code) or evaluate.
func xpathError(err error, code string) error {
	xe, ok := err.(*xpath.Error)
	if !ok {
		return err
	}
	if xe.Compile {
		return pgerr.New(code, "invalid XPath expression").WithDetail("%s", xe.Detail)
	}
	return pgerr.New(pgerr.Internal, "could not create XPath object").WithDetail("%s", xe.Detail)
}
