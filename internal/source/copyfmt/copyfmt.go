// Package copyfmt reads COPY's text and CSV formats as typed rows of a
// table, in PostgreSQL's rules: text with backslash escapes and \N for
// NULL, CSV with quoted fields that may span lines. The whole input is one
// source transaction, yielded in batches of rows so that a load of any
// size keeps only a batch in flight.
//
//	d := copyfmt.NewDecoder(r, &source.Table{…}, copyfmt.Options{CSV: true, Delimiter: ',', Quote: '"', Escape: '"', Cols: []int{0, 1}})
//	for { b, err := d.Next(); if err == io.EOF { break } … b.Rows … }
package copyfmt

import (
	"bufio"
	"fmt"
	"io"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/source"
	"github.com/deltaview/deltaview/internal/value"
)

// Options are a COPY statement's data options.
type Options struct {
	CSV       bool   // CSV; otherwise text
	Delimiter byte   // between fields
	Null      string // the string that stands for NULL
	Header    bool   // the first line names the columns and is skipped
	Quote     byte   // CSV
	Escape    byte   // CSV
	// Cols are the positions of the table's columns that the data holds,
	// in order; the others take their default.
	Cols []int
	// Limits bound a record's and a field's length.
	Limits source.Limits
	// Zone is the zone in which timestamptz values without an offset
	// read: the session's TimeZone.
	Zone value.Zone
	// Style carries DateStyle's field order, in which an ambiguous date
	// (05/12/2026) reads: the session's.
	Style value.TextStyle
	// ForceNotNull and ForceNull are, by position of the table's columns
	// (nil for none), CSV's FORCE_NOT_NULL, which reads an unquoted NULL
	// string as that string, and FORCE_NULL, which reads a quoted one as
	// NULL.
	ForceNotNull, ForceNull []bool
}

// BatchRows is how many rows a batch holds at most; their values are
// allocated at once.
const BatchRows = 256

// Decoder reads rows; see the package comment.
type Decoder struct {
	t      *source.Table
	o      Options
	br     *bufio.Reader
	p      parser
	inData []bool
	line   int64 // PostgreSQL's line number (lineno.go)
	eol    bool  // a line end outside quotes has been read
	done   bool
	b      source.Batch
	strs   []strCache // by column: the values of short strings seen
}

// strCache keeps the values of a string column's short fields, so that a
// column of few distinct values (a status, a mode, a country) shares one
// string per value instead of allocating one per row. A column whose
// fields rarely repeat stops being looked up.
type strCache struct {
	m            map[string]value.Value
	looks, found int
	off          bool
}

// Bounds of a column's string cache: fields longer than maxCachedField are
// not cached, nor more than maxCachedValues values; after checkCacheAfter
// lookups a column that found fewer than half is left alone.
const (
	maxCachedField  = 32
	maxCachedValues = 512
	checkCacheAfter = 4096
)

// cached returns the value of a string field seen before in column ci.
func (d *Decoder) cached(ci int, b []byte) (value.Value, bool) {
	c := &d.strs[ci]
	if c.off || len(b) > maxCachedField {
		return value.Value{}, false
	}
	c.looks++
	if v, ok := c.m[string(b)]; ok {
		c.found++
		return v, true
	}
	if c.looks >= checkCacheAfter && c.found < c.looks/2 {
		c.off, c.m = true, nil
	}
	return value.Value{}, false
}

// remember caches v, parsed from s, in column ci.
func (d *Decoder) remember(ci int, s string, v value.Value) {
	c := &d.strs[ci]
	if c.off || len(s) > maxCachedField || len(c.m) >= maxCachedValues {
		return
	}
	if c.m == nil {
		c.m = map[string]value.Value{}
	}
	c.m[s] = v
}

var _ source.Decoder = (*Decoder)(nil)

// NewDecoder returns a decoder of r's records as rows of t.
func NewDecoder(r io.Reader, t *source.Table, o Options) *Decoder {
	o.Limits = o.Limits.WithDefaults()
	d := &Decoder{t: t, o: o, br: bufio.NewReaderSize(r, 1<<16)}
	d.p.o = &d.o
	d.inData = make([]bool, len(t.Columns))
	d.strs = make([]strCache, len(t.Columns))
	for _, i := range o.Cols {
		d.inData[i] = true
	}
	return d
}

// Next returns the next batch of up to BatchRows rows; the last one has
// More false. The rows are the caller's to keep; the batch's slices are
// reused.
func (d *Decoder) Next() (*source.Batch, error) {
	if d.done {
		return nil, io.EOF
	}
	b := &d.b
	b.Rows, b.Lines, b.More = b.Rows[:0], b.Lines[:0], true
	b.ResetText()
	ncols := len(d.t.Columns)
	var slab []value.Value
	for len(b.Rows) < BatchRows {
		d.line++
		rec, err := d.p.readRecord(d.br)
		if err == io.EOF && rec == nil {
			break
		}
		if err != nil && err != io.EOF {
			if pe, ok := err.(*pgerr.Error); ok {
				d.countEmbedded(d.p.rec)
				return nil, source.At(pe, d.t.Name, d.line, "")
			}
			return nil, err
		}
		d.countEmbedded(rec)
		d.eol = d.eol || err == nil
		rec, end, cerr := d.checkRecord(rec)
		if cerr != nil { // the header too must be valid text
			return nil, source.At(cerr, d.t.Name, d.line, "")
		}
		if end { // the end-of-data marker
			d.done = true
			if len(rec) == 0 {
				break
			}
			err = io.EOF
		}
		if d.line == 1 && d.o.Header {
			if err == io.EOF {
				break
			}
			continue
		}
		if slab == nil {
			slab = make([]value.Value, BatchRows*ncols)
		}
		row := value.Row(slab[:ncols:ncols])
		slab = slab[ncols:]
		if err := d.fill(row, rec); err != nil {
			return nil, err
		}
		b.Rows = append(b.Rows, row)
		b.Lines = append(b.Lines, d.line)
		b.KeepText(rec)
		if err == io.EOF {
			break
		}
	}
	if d.done || len(b.Rows) < BatchRows {
		d.done, b.More = true, false
	}
	return b, nil
}

// fill parses a record's fields into row.
func (d *Decoder) fill(row value.Row, rec []byte) error {
	cols := d.t.Columns
	fields, perr := d.p.split(rec)
	if perr != nil {
		return source.At(perr, d.t.Name, d.line, lineText(rec))
	}
	// Text is validated before anything else, as PostgreSQL does, decoded
	// escapes included.
	for _, f := range fields {
		if value.InvalidTextAt(unsafeString(f.b)) >= 0 {
			return source.At(value.CheckText(string(f.b)), d.t.Name, d.line, "")
		}
		if len(f.b) > d.o.Limits.MaxField {
			return source.At(source.FieldTooLong(d.o.Limits.MaxField), d.t.Name, d.line, "")
		}
	}
	if len(fields) != len(d.o.Cols) {
		pe := pgerr.New(pgerr.BadCopyFileFormat, "extra data after last expected column")
		if len(fields) < len(d.o.Cols) {
			pe = pgerr.New(pgerr.BadCopyFileFormat, "missing data for column %q", cols[d.o.Cols[len(fields)]].Name)
		}
		return source.At(pe, d.t.Name, d.line, lineText(rec))
	}
	for i, ci := range d.o.Cols {
		f := d.forced(fields[i], ci)
		if err := d.field(row, ci, f); err != nil {
			col := fmt.Sprintf(", column %s: %q", cols[ci].Name, string(f.b))
			if f.null {
				col = fmt.Sprintf(", column %s: null input", cols[ci].Name)
			}
			return source.At(err, d.t.Name, d.line, col)
		}
	}
	for i, in := range d.inData {
		if in {
			continue
		}
		row[i] = value.Null
		if d.t.Default != nil {
			v, err := d.t.Default(i)
			if err != nil {
				return source.At(err, d.t.Name, d.line, "")
			}
			row[i] = v
		}
	}
	return nil
}

// field reads f into row's column ci, and checks it against the
// column's domain.
func (d *Decoder) field(row value.Row, ci int, f field) error {
	col := &d.t.Columns[ci]
	v, err := d.parse(ci, f)
	if err != nil {
		return err
	}
	row[ci] = v
	if col.Check != nil {
		return col.Check(v)
	}
	return nil
}

// parse reads field f of column ci.
func (d *Decoder) parse(ci int, f field) (value.Value, error) {
	if f.null {
		return value.Null, nil
	}
	typ := d.t.Columns[ci].Type
	str := typ.Kind.IsString() || typ.Kind == value.Unknown
	var s string
	if str {
		if v, ok := d.cached(ci, f.b); ok {
			return v, nil
		}
		s = string(f.b)
	} else {
		s = unsafeString(f.b) // the parsed value keeps nothing of it
	}
	v, err := value.ParseStyled(s, typ, d.o.Style, d.o.Zone)
	if err != nil {
		return value.Null, err
	}
	if str {
		d.remember(ci, s, v)
	}
	return v, nil
}

// forced applies FORCE_NOT_NULL and FORCE_NULL to field f of column ci,
// in that order, as PostgreSQL's NextCopyFrom does: with both, an
// unquoted NULL string is text and a quoted one NULL.
func (d *Decoder) forced(f field, ci int) field {
	switch {
	case f.null && ci < len(d.o.ForceNotNull) && d.o.ForceNotNull[ci]:
		return field{b: []byte(d.o.Null)}
	case !f.null && ci < len(d.o.ForceNull) && d.o.ForceNull[ci] && string(f.b) == d.o.Null:
		return field{null: true}
	}
	return f
}

// checkRecord looks at a record's raw bytes in the order PostgreSQL reads
// them: invalid text is 22021; the end-of-data marker \. ends the data
// when a line end follows it (in CSV only as a line of its own), the
// record being what precedes it; in the text format a \. followed by
// anything else is 22P04.
func (d *Decoder) checkRecord(rec []byte) (_ []byte, end bool, _ error) {
	bad := value.InvalidTextAt(unsafeString(rec))
	if d.o.CSV {
		if string(rec) == `\.` {
			return nil, true, nil
		}
	} else {
		for i := 0; i < len(rec)-1 && (bad < 0 || i < bad); i++ {
			if rec[i] != '\\' {
				continue
			}
			if rec[i+1] == '.' {
				if i+2 == len(rec) {
					rec, end = rec[:i], true
					break
				}
				// PostgreSQL reads the byte after the dot, which must be
				// valid text for it to get that far.
				if bad < 0 || i+2 < bad {
					return nil, false, pgerr.New(pgerr.BadCopyFileFormat, "end-of-copy marker corrupt")
				}
			}
			i++
		}
	}
	if bad >= 0 && bad < len(rec) {
		return nil, false, value.InvalidTextError(unsafeString(rec), bad)
	}
	return rec, end, nil
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
