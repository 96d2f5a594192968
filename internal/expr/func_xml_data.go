package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// XMLData is table_to_xml, query_to_xml, schema_to_xml and database_to_xml
// (PostgreSQL's SQL/XML mapping of tables to XML documents) over the rows
// the binder collected. Its arguments: nulls, tableforest, targetns; the
// names of the document's outer elements (a text[] constant: none for a
// table or a query, the schema's, the database's then the schema's);
// then per table its element name (mapped), its columns' element names (a
// text[] constant) and its rows (a record[]). A query's table element is
// "table" and its forest's "row".
var XMLData = &FuncDef{Name: "xml data", Strict: true, Variadic: true, Params: kinds(value.Unknown), Result: value.XMLType,
	Eval: evalXMLData}

const xsiNamespace = "http://www.w3.org/2001/XMLSchema-instance"

func evalXMLData(a []value.Value) (value.Value, error) {
	w := xmlDataWriter{nulls: a[0].Bool(), forest: a[1].Bool(), ns: textOf(a[2])}
	outer := a[3].Elems()
	var b strings.Builder
	tables := a[4:]
	writeTables := func(top bool) error {
		for i := 0; i+2 < len(tables); i += 3 {
			if err := w.table(&b, textOf(tables[i]), tables[i+1].Elems(), tables[i+2].Elems(), top); err != nil {
				return err
			}
			if !top {
				b.WriteString("\n")
			}
		}
		return nil
	}
	var err error
	switch len(outer) {
	case 0:
		err = writeTables(true)
	case 1:
		err = w.nest(&b, textOf(outer[0]), true, func() error { return writeTables(false) })
	default:
		err = w.nest(&b, textOf(outer[0]), true, func() error {
			err := w.nest(&b, textOf(outer[1]), false, func() error { return writeTables(false) })
			b.WriteString("\n")
			return err
		})
	}
	if err != nil {
		return value.Null, err
	}
	return value.NewXML(b.String()), nil
}

type xmlDataWriter struct {
	nulls, forest bool
	ns            string
}

// start opens an element as PostgreSQL's xmldata_root_element_start: the
// top element declares xsi and the target namespace.
func (w *xmlDataWriter) start(b *strings.Builder, name string, top bool) {
	b.WriteString("<" + name)
	if top {
		b.WriteString(` xmlns:xsi="` + xsiNamespace + `"`)
		if w.ns != "" {
			b.WriteString(` xmlns="` + w.ns + `"`)
		}
	}
	b.WriteString(">\n")
}

// nest writes a schema's or database's element around what inner writes.
func (w *xmlDataWriter) nest(b *strings.Builder, name string, top bool, inner func() error) error {
	w.start(b, name, top)
	b.WriteString("\n")
	if err := inner(); err != nil {
		return err
	}
	b.WriteString("</" + name + ">\n")
	return nil
}

// table writes a table's rows: in one element of the table's name holding
// a <row> per row, or (tableforest) an element of the table's name per row.
func (w *xmlDataWriter) table(b *strings.Builder, name string, cols, rows []value.Value, top bool) error {
	rowName := "row"
	if name == "" {
		name = "table"
	} else if w.forest {
		rowName = name
	}
	if !w.forest {
		w.start(b, name, top)
		b.WriteString("\n")
	}
	for _, r := range rows {
		if w.forest {
			w.start(b, rowName, top)
		} else {
			b.WriteString("<row>\n")
		}
		for i, v := range r.Fields() {
			c := textOf(cols[i])
			if v.IsNull() {
				if w.nulls {
					b.WriteString("  <" + c + ` xsi:nil="true"/>` + "\n")
				}
				continue
			}
			s, err := xmlValueText(v, true)
			if err != nil {
				return err
			}
			b.WriteString("  <" + c + ">" + s + "</" + c + ">\n")
		}
		b.WriteString("</" + rowName + ">\n\n")
	}
	if !w.forest {
		b.WriteString("</" + name + ">\n")
	}
	return nil
}
