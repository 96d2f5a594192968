package explainfmt

import (
	"strings"
)

// Writer builds one EXPLAIN document in a structured format, as
// PostgreSQL's explain.c does: groups (objects, lists), properties and
// dummy groups, each format with its own indentation. Its zero value is
// not ready: use NewWriter.
type Writer struct {
	f      Format
	b      strings.Builder
	indent int
	// first is, per open group, whether nothing was written in it yet
	// (JSON's commas, YAML's line breaks).
	first []bool
}

// NewWriter starts a document in f, which must not be Text.
func NewWriter(f Format) *Writer {
	w := &Writer{f: f}
	switch f {
	case XML:
		w.b.WriteString(`<explain xmlns="http://www.postgresql.org/2009/explain">` + "\n")
		w.indent++
	case JSON:
		w.b.WriteByte('[')
		w.first = append(w.first, true)
		w.indent++
	case YAML:
		w.first = append(w.first, true)
	}
	return w
}

// String ends the document and returns it.
func (w *Writer) String() string {
	switch w.f {
	case XML:
		w.indent--
		w.b.WriteString("</explain>")
	case JSON:
		w.indent--
		w.b.WriteString("\n]")
	}
	w.first = nil
	return w.b.String()
}

func (w *Writer) spaces(n int) {
	for range n {
		w.b.WriteByte(' ')
	}
}

// jsonLineEnding separates a JSON item from the one before it.
func (w *Writer) jsonLineEnding() {
	if top := len(w.first) - 1; w.first[top] {
		w.first[top] = false
	} else {
		w.b.WriteByte(',')
	}
	w.b.WriteByte('\n')
}

// yamlLineStarting starts a YAML item on a new line unless it is the
// first of its group (which goes on the line of its "- " or label).
func (w *Writer) yamlLineStarting() {
	if top := len(w.first) - 1; w.first[top] {
		w.first[top] = false
	} else {
		w.b.WriteByte('\n')
		w.spaces(2 * w.indent)
	}
}

// xmlTag writes <name>, </name> or <name /> (close), spaces in the name
// becoming dashes; inline writes no indentation and no line break.
func (w *Writer) xmlTag(name string, closing, empty, inline bool) {
	if !inline {
		w.spaces(2 * w.indent)
	}
	w.b.WriteByte('<')
	if closing {
		w.b.WriteByte('/')
	}
	w.b.WriteString(strings.ReplaceAll(name, " ", "-"))
	if empty {
		w.b.WriteString(" /")
	}
	w.b.WriteByte('>')
	if !inline {
		w.b.WriteByte('\n')
	}
}

// Open opens a group: objtype names its XML element; label, when not
// empty, is its key in its parent; labeled makes it an object (JSON
// {…}), else a list ([…]).
func (w *Writer) Open(objtype, label string, labeled bool) {
	switch w.f {
	case XML:
		w.xmlTag(objtype, false, false, false)
		w.indent++
	case JSON:
		w.jsonLineEnding()
		w.spaces(2 * w.indent)
		if label != "" {
			escapeJSON(&w.b, label)
			w.b.WriteString(": ")
		}
		if labeled {
			w.b.WriteByte('{')
		} else {
			w.b.WriteByte('[')
		}
		w.first = append(w.first, true)
		w.indent++
	case YAML:
		w.yamlLineStarting()
		if label != "" {
			w.b.WriteString(label + ": ")
			w.first = append(w.first, false)
		} else {
			w.b.WriteString("- ")
			w.first = append(w.first, true)
		}
		w.indent++
	}
}

// Close closes the group Open opened with the same arguments.
func (w *Writer) Close(objtype, label string, labeled bool) {
	switch w.f {
	case XML:
		w.indent--
		w.xmlTag(objtype, true, false, false)
	case JSON:
		w.indent--
		w.b.WriteByte('\n')
		w.spaces(2 * w.indent)
		if labeled {
			w.b.WriteByte('}')
		} else {
			w.b.WriteByte(']')
		}
		w.first = w.first[:len(w.first)-1]
	case YAML:
		w.indent--
		w.first = w.first[:len(w.first)-1]
	}
}

// Dummy writes a group with no content: PostgreSQL's "Utility Statement".
func (w *Writer) Dummy(objtype, label string) {
	switch w.f {
	case XML:
		w.xmlTag(objtype, false, true, false)
	case JSON:
		w.jsonLineEnding()
		w.spaces(2 * w.indent)
		if label != "" {
			escapeJSON(&w.b, label)
			w.b.WriteString(": ")
		}
		escapeJSON(&w.b, objtype)
	case YAML:
		w.yamlLineStarting()
		if label != "" {
			escapeJSON(&w.b, label)
			w.b.WriteString(": ")
		} else {
			w.b.WriteString("- ")
		}
		escapeJSON(&w.b, objtype)
	}
}

// Property writes label: value; numeric values (numbers, booleans) are
// written bare, others quoted.
func (w *Writer) Property(label, value string, numeric bool) {
	switch w.f {
	case XML:
		w.spaces(2 * w.indent)
		w.xmlTag(label, false, false, true)
		escapeXML(&w.b, value)
		w.xmlTag(label, true, false, true)
		w.b.WriteByte('\n')
	case JSON:
		w.jsonLineEnding()
		w.spaces(2 * w.indent)
		escapeJSON(&w.b, label)
		w.b.WriteString(": ")
		if numeric {
			w.b.WriteString(value)
		} else {
			escapeJSON(&w.b, value)
		}
	case YAML:
		w.yamlLineStarting()
		w.b.WriteString(label + ": ")
		if numeric {
			w.b.WriteString(value)
		} else {
			escapeJSON(&w.b, value)
		}
	}
}

// List writes label: a list of strings.
func (w *Writer) List(label string, items []string) {
	switch w.f {
	case XML:
		w.xmlTag(label, false, false, false)
		for _, it := range items {
			w.spaces(2*w.indent + 2)
			w.b.WriteString("<Item>")
			escapeXML(&w.b, it)
			w.b.WriteString("</Item>\n")
		}
		w.xmlTag(label, true, false, false)
	case JSON:
		w.jsonLineEnding()
		w.spaces(2 * w.indent)
		escapeJSON(&w.b, label)
		w.b.WriteString(": [")
		for i, it := range items {
			if i > 0 {
				w.b.WriteString(", ")
			}
			escapeJSON(&w.b, it)
		}
		w.b.WriteByte(']')
	case YAML:
		w.yamlLineStarting()
		w.b.WriteString(label + ": ")
		for _, it := range items {
			w.b.WriteByte('\n')
			w.spaces(2*w.indent + 2)
			w.b.WriteString("- ")
			escapeJSON(&w.b, it)
		}
	}
}
