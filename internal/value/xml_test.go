package value

import "testing"

// TestXMLOutput checks how an xml value prints its XML declaration, as
// PostgreSQL's xml_out: left out when it says no more than version 1.0
// (with one newline after it), printed again otherwise, and a text that
// only looks like one kept as written.
func TestXMLOutput(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{`<a/>`, `<a/>`},
		{"\n<a/>", `<a/>`},
		{"\n\n<a/>", "\n<a/>"},
		{`<?xml version="1.0"?><a/>`, `<a/>`},
		{"<?xml version='1.0' encoding='UTF-8'?>\n<a/>", `<a/>`},
		{`<?xml version="1.1"?><a/>`, `<?xml version="1.1"?><a/>`},
		{`<?xml version="1.0"  standalone = 'no' ?>x`, `<?xml version="1.0" standalone="no"?>x`},
		{`<?xml-stylesheet href="s"?><a/>`, `<?xml-stylesheet href="s"?><a/>`},
		{`<?xml version="1.0" standalone="maybe"?><a/>`, `<?xml version="1.0" standalone="maybe"?><a/>`},
	} {
		if got := string(AppendText(nil, NewXML(c.in))); got != c.out {
			t.Errorf("%q prints %q, want %q", c.in, got, c.out)
		}
	}
}

// TestParseXML checks that input is content, and that a document is
// asked for by XMLPARSE (DOCUMENT …) alone.
func TestParseXML(t *testing.T) {
	for _, c := range []struct {
		in           string
		content, doc bool
	}{
		{`<a/>`, true, true}, {`x<a/>y`, true, false}, {``, true, false}, {`<a>`, false, false},
		{`<?xml version="1.0"?><a/><b/>`, true, false}, {`&amp;`, true, false}, {`&x;`, false, false},
	} {
		_, err := Parse(c.in, XMLType)
		_, derr := ParseXML(c.in, true)
		if (err == nil) != c.content || (derr == nil) != c.doc {
			t.Errorf("%q: content %v, document %v; want %v, %v", c.in, err, derr, c.content, c.doc)
		}
	}
}
