package copyfmt

import (
	"bytes"

	"github.com/deltaview/deltaview/internal/source"
)

// PostgreSQL numbers COPY's lines as it reads them: one per record, plus
// one per line end inside a CSV record's quoted fields — but only once
// it has seen a line end outside quotes, which tells it the input's line
// end (so a first record's own inner line ends do not count). An error
// names the number reached when it is found, so a record spanning lines
// after the first is named by its last line read, the first by its first.

// countEmbedded adds the line ends inside rec (a record without its own
// line end, so every one is inside quotes) once the input's line end is
// known.
func (d *Decoder) countEmbedded(rec []byte) {
	if d.eol {
		d.line += int64(bytes.Count(rec, []byte{'\n'}))
	}
}

// lineText is the CONTEXT's tail naming the record an error is about
// (source.LineText).
func lineText(rec []byte) string { return source.LineText(rec) }
