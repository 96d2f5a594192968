package engine

import (
	"bytes"
	"io"

	"github.com/deltaview/deltaview/internal/pgbinary"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// COPY … (FORMAT binary): PostgreSQL's binary COPY format (pgbinary), to
// and from a file here, through the server's copy protocol in pgwire.
// Rows read are written in the text format, which COPY loads as any.

// BinaryCopyText reads rows of columns of types (named names) in
// PostgreSQL's binary COPY format and writes them in COPY's text format
// with its defaults. Errors name table, the row and the column as
// PostgreSQL's do.
func BinaryCopyText(data []byte, types []value.Type, names []string, table string) ([]byte, error) {
	var out, text []byte
	err := pgbinary.ReadCopy(data, types, names, table, func(row value.Row) error {
		for i, v := range row {
			if i > 0 {
				out = append(out, '\t')
			}
			if v.IsNull() {
				out = append(out, `\N`...)
				continue
			}
			text = value.AppendTextStyle(text[:0], v, value.IntervalPostgres)
			out = AppendCopyText(out, text)
		}
		out = append(out, '\n')
		return nil
	})
	return out, err
}

// binaryCopyData is rows of columns of types in the binary COPY format,
// header and trailer included.
func binaryCopyData(rows []value.Row, types []value.Type) []byte {
	buf := pgbinary.AppendCopyHeader(nil)
	for _, r := range rows {
		buf = pgbinary.AppendCopyRow(buf, r, types)
	}
	return pgbinary.AppendCopyTrailer(buf)
}

// copyBinaryFile runs COPY … FROM 'file' (FORMAT binary): the file's
// rows, read whole and written in the text format, load as COPY … FROM
// STDIN's would.
func (s *Session) copyBinaryFile(c *sql.Copy, rec *recorder) (Result, error) {
	e := s.e
	t, ok := e.tables[c.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", c.Table)
	}
	r, done, err := e.copySource(c)
	if err != nil {
		return Result{}, err
	}
	data, err := io.ReadAll(r)
	done()
	if err != nil {
		return Result{}, fileError(c.File, err, "58030", "could not read from COPY file")
	}
	types := make([]value.Type, len(c.Cols))
	names := make([]string, len(c.Cols))
	for i, col := range c.Cols {
		types[i], names[i] = t.cols[col].Type, t.cols[col].Name
	}
	name := c.Table
	if c.Partition != nil {
		name = c.Partition.Name
	}
	text, err := BinaryCopyText(data, types, names, name)
	if err != nil {
		return Result{}, err
	}
	in := *c // the file's rows, written in the text format
	in.CopyOptions = sql.CopyOptions{Delimiter: '\t', Null: `\N`, Encoding: "UTF8"}
	in.Stdin, in.File = true, ""
	e.copyData = bytes.NewReader(text)
	if rec != nil {
		e.copyClock = &rec.clock
	}
	defer func() { e.copyData, e.copyClock = nil, nil }()
	return e.execCopy(&in)
}
