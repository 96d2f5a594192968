package copyfmt

import (
	"bufio"
	"bytes"
	"io"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/source"
)

// field is one field of a record: its bytes (unescaped, valid until
// the next record) or NULL.
type field struct {
	b    []byte
	null bool
}

// parser splits COPY data into records and fields, in PostgreSQL's
// text or CSV format, reusing its buffers from one record to the next.
type parser struct {
	o      *Options
	rec    []byte // the current record when it spans buffer reads
	fields []field
	out    []byte // unescaped field bytes, back to back
}

// readRecord returns the next record without its line end; in CSV a
// quoted field may span lines. The slice is valid until the next call.
// The error is io.EOF with the last record (or with none). A record over
// the line limit is an error as soon as it is; one holding a NUL ends just
// after it, being invalid text whatever follows (checkRecord says so), so
// that input without line ends is refused at once.
func (p *parser) readRecord(br *bufio.Reader) ([]byte, error) {
	p.rec = p.rec[:0]
	max := p.o.Limits.MaxLine
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull || (err == nil && len(p.rec) > 0) {
			if nul := bytes.IndexByte(line, 0); nul >= 0 {
				return append(p.rec, line[:nul+1]...), nil
			}
		}
		if len(p.rec)+len(line) > max+2 { // +2: the line end
			return nil, source.LineTooLong(max)
		}
		if err == bufio.ErrBufferFull {
			p.rec = append(p.rec, line...)
			continue
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		if len(p.rec) > 0 {
			p.rec = append(p.rec, line...)
			line = p.rec
		}
		if err == io.EOF && len(line) == 0 {
			return nil, io.EOF
		}
		if p.o.CSV && p.openQuote(line) {
			if err == io.EOF {
				return nil, pgerr.New(pgerr.BadCopyFileFormat, "unterminated CSV quoted field")
			}
			if len(p.rec) == 0 {
				p.rec = append(p.rec, line...)
			}
			continue // the quoted field goes on past the line end
		}
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > max {
			return nil, source.LineTooLong(max)
		}
		return line, err
	}
}

// openQuote reports whether a CSV record so far ends inside a quoted
// field.
func (p *parser) openQuote(b []byte) bool {
	q, esc := p.o.Quote, p.o.Escape
	in := false
	for i := 0; i < len(b); i++ {
		switch {
		case !in && b[i] == q:
			in = true
		case in && esc != q && b[i] == esc && i+1 < len(b):
			i++
		case in && b[i] == q:
			if esc == q && i+1 < len(b) && b[i+1] == q {
				i++
			} else {
				in = false
			}
		}
	}
	return in
}

// split cuts a record into fields.
func (p *parser) split(rec []byte) ([]field, *pgerr.Error) {
	p.fields = p.fields[:0]
	p.out = p.out[:0]
	if cap(p.out) < len(rec) {
		p.out = make([]byte, 0, 2*len(rec))
	}
	if p.o.CSV {
		return p.splitCSV(rec)
	}
	return p.splitText(rec)
}

// splitText cuts a text-format record into fields as PostgreSQL does: a
// backslash escapes the byte after it (so \<delimiter> is data), the NULL
// string is compared before escapes are decoded, and the escapes decode
// as \b \f \n \r \t \v, \ooo (octal, 1–3 digits), \xhh (hex, 1–2
// digits) and \c for any other c. Decoded bytes may be invalid text
// (\0, \xff); fill validates every field.
func (p *parser) splitText(rec []byte) ([]field, *pgerr.Error) {
	d := p.o.Delimiter
	for start := 0; ; {
		// The field's raw end: the first delimiter not escaped.
		end, esc := start, false
		for end < len(rec) && rec[end] != d {
			if rec[end] == '\\' {
				esc = true
				end++
			}
			end++
		}
		if end > len(rec) { // a backslash ends the record
			end = len(rec)
		}
		raw := rec[start:end]
		switch {
		case string(raw) == p.o.Null:
			p.fields = append(p.fields, field{null: true})
		case !esc:
			p.fields = append(p.fields, field{b: raw})
		default:
			o := len(p.out)
			p.out = unescapeText(p.out, raw)
			p.fields = append(p.fields, field{b: p.out[o:len(p.out):len(p.out)]})
		}
		if end >= len(rec) {
			return p.fields, nil
		}
		start = end + 1
	}
}

// unescapeText appends raw to out with its backslash escapes decoded.
func unescapeText(out, raw []byte) []byte {
	for i := 0; i < len(raw); i++ {
		ch := raw[i]
		if ch != '\\' || i+1 == len(raw) {
			out = append(out, ch)
			continue
		}
		i++
		switch c := raw[i]; {
		case c >= '0' && c <= '7':
			v := c - '0'
			for k := 0; k < 2 && i+1 < len(raw) && raw[i+1] >= '0' && raw[i+1] <= '7'; k++ {
				i++
				v = v<<3 | (raw[i] - '0')
			}
			ch = v
		case c == 'x' && i+1 < len(raw) && hexVal(raw[i+1]) >= 0:
			i++
			v := byte(hexVal(raw[i]))
			if i+1 < len(raw) && hexVal(raw[i+1]) >= 0 {
				i++
				v = v<<4 | byte(hexVal(raw[i]))
			}
			ch = v
		case c == 'b':
			ch = '\b'
		case c == 'f':
			ch = '\f'
		case c == 'n':
			ch = '\n'
		case c == 'r':
			ch = '\r'
		case c == 't':
			ch = '\t'
		case c == 'v':
			ch = '\v'
		default:
			ch = c
		}
		out = append(out, ch)
	}
	return out
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (p *parser) splitCSV(rec []byte) ([]field, *pgerr.Error) {
	d, q, esc := p.o.Delimiter, p.o.Quote, p.o.Escape
	i := 0
	for {
		if i < len(rec) && rec[i] == q {
			// A quoted field: never NULL, even when it reads as the NULL
			// string.
			o := len(p.out)
			i++
			for {
				if i >= len(rec) {
					return nil, pgerr.New(pgerr.BadCopyFileFormat, "unterminated CSV quoted field")
				}
				ch := rec[i]
				if ch == esc && i+1 < len(rec) && (rec[i+1] == q || (esc != q && rec[i+1] == esc)) {
					p.out = append(p.out, rec[i+1])
					i += 2
					continue
				}
				if ch == q {
					i++
					break
				}
				p.out = append(p.out, ch)
				i++
			}
			// Unquoted text may follow the closing quote up to the delimiter.
			for i < len(rec) && rec[i] != d {
				p.out = append(p.out, rec[i])
				i++
			}
			p.fields = append(p.fields, field{b: p.out[o:len(p.out):len(p.out)]})
		} else {
			end := bytes.IndexByte(rec[i:], d)
			if end < 0 {
				end = len(rec)
			} else {
				end += i
			}
			raw := rec[i:end]
			p.fields = append(p.fields, field{b: raw, null: string(raw) == p.o.Null})
			i = end
		}
		if i >= len(rec) {
			return p.fields, nil
		}
		i++ // the delimiter
		if i == len(rec) {
			p.fields = append(p.fields, field{null: p.o.Null == ""})
			return p.fields, nil
		}
	}
}
