// Package resultfmt prints result sets the way psql does: its aligned
// table format, its CSV format, or a JSON array of objects.
//
// Every value prints in PostgreSQL's text output format (value.AppendText),
// so a script's output can be compared with psql's. SQL NULL prints as
// Options.Null (in JSON: null); an empty string prints as nothing.
//
//	s := &resultfmt.Set{
//		Columns: []resultfmt.Column{{Name: "id", Type: value.Int4Type}, {Name: "name", Type: value.TextType}},
//		Rows:    []value.Row{{value.NewInt(value.Int4, 1), value.NewText(value.Text, "ann")}},
//	}
//	resultfmt.Write(os.Stdout, s, resultfmt.Options{Format: "table"})
//
// prints
//
//	 id | name
//	----+------
//	  1 | ann
//	(1 row)
//
// followed by an empty line.
package resultfmt

import (
	"fmt"
	"io"

	"github.com/deltaview/deltaview/internal/value"
)

// Column names and types one column of a result set.
type Column struct {
	Name string
	Type value.Type
}

// Set is one result set. Every row has len(Columns) values.
type Set struct {
	Columns []Column
	Rows    []value.Row
}

// Options choose the output format.
type Options struct {
	// Format is "table" (psql's default aligned format; also used when
	// empty), "csv" (psql --csv) or "json".
	Format string
	// Null is printed for SQL NULL in the table and csv formats.
	Null string
	// TextStyle is the session's output settings for the table and csv
	// formats (the zero value is PostgreSQL's defaults).
	TextStyle value.TextStyle
	// TimeZone is the zone timestamptz values are printed in, in the
	// table and csv formats (a session's setting; the zero value is
	// UTC).
	TimeZone value.Zone
}

// The formats Write accepts.
const (
	FormatTable = "table"
	FormatCSV   = "csv"
	FormatJSON  = "json"
)

// Write prints s to w in the format o asks for:
//
//   - table: psql's aligned format, with a "(N rows)" footer and an empty
//     line after it;
//   - csv: a header line, then one line per row, quoted as psql --csv
//     quotes, then an empty line;
//   - json: one array of objects, keys in column order, then a newline.
//
// Write returns the first error w returns, or an error for an unknown
// format or a row of the wrong width.
func Write(w io.Writer, s *Set, o Options) error {
	for i, r := range s.Rows {
		if len(r) != len(s.Columns) {
			return fmt.Errorf("resultfmt: row %d has %d values, want %d", i, len(r), len(s.Columns))
		}
	}
	var out []byte
	switch o.Format {
	case FormatTable, "":
		out = appendTable(nil, s, o)
	case FormatCSV:
		out = appendCSV(nil, s, o)
	case FormatJSON:
		out = appendJSON(nil, s)
	default:
		return fmt.Errorf("resultfmt: unknown format %q (want table, csv or json)", o.Format)
	}
	_, err := w.Write(out)
	return err
}

// text returns v's PostgreSQL text output, or null for SQL NULL.
func text(buf []byte, v value.Value, o Options) []byte {
	if v.IsNull() {
		return append(buf, o.Null...)
	}
	return value.AppendTextZone(buf, v, o.TextStyle, o.TimeZone)
}
