package source

import "unicode/utf8"

// A batch may keep the text of each row's record, for the CONTEXT of an
// error a row's constraints raise after decoding (`COPY t, line 3:
// "3	x"`), as PostgreSQL names the line it is inserting. The records are
// copied into one buffer per batch, reused by the next.

// KeepText appends the text of the next row's record (a decoder that
// keeps them calls it once per row, in order).
func (b *Batch) KeepText(rec []byte) {
	b.text = append(b.text, rec...)
	b.textEnds = append(b.textEnds, len(b.text))
}

// ResetText forgets the records kept, for the batch's next use.
func (b *Batch) ResetText() {
	b.text, b.textEnds = b.text[:0], b.textEnds[:0]
}

// LineText is the CONTEXT's tail naming row i's record, `: "text"` as
// PostgreSQL cuts it (LineText of the record), or "" when the batch keeps
// no text.
func (b *Batch) LineText(i int) string {
	if i < 0 || i >= len(b.textEnds) {
		return ""
	}
	start := 0
	if i > 0 {
		start = b.textEnds[i-1]
	}
	return LineText(b.text[start:b.textEnds[i]])
}

// maxShownLine is how much of a record an error's CONTEXT shows, as
// PostgreSQL's MAX_COPY_DATA_DISPLAY.
const maxShownLine = 100

// LineText is the CONTEXT's tail naming the record an error is about,
// as PostgreSQL gives it: `: "text"`, cut after 100 bytes (on a
// character's boundary) with "...".
func LineText(rec []byte) string {
	if len(rec) <= maxShownLine {
		return `: "` + string(rec) + `"`
	}
	n := maxShownLine
	for n > 0 && !utf8.RuneStart(rec[n]) {
		n--
	}
	return `: "` + string(rec[:n]) + `..."`
}
