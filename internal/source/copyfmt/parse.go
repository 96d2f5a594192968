package copyfmt

import (
	"bufio"
	"bytes"
	"io"

	"github.com/deltaview/deltaview/internal/pgerr"
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
// The error is io.EOF with the last record (or with none).
func (p *parser) readRecord(br *bufio.Reader) ([]byte, error) {
	p.rec = p.rec[:0]
	for {
		line, err := br.ReadSlice('\n')
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

func (p *parser) splitText(rec []byte) ([]field, *pgerr.Error) {
	d := p.o.Delimiter
	for start := 0; ; {
		end := bytes.IndexByte(rec[start:], d)
		last := end < 0
		if last {
			end = len(rec)
		} else {
			end += start
		}
		raw := rec[start:end]
		switch {
		case string(raw) == p.o.Null:
			p.fields = append(p.fields, field{null: true})
		case bytes.IndexByte(raw, '\\') < 0:
			p.fields = append(p.fields, field{b: raw})
		default:
			o := len(p.out)
			for i := 0; i < len(raw); i++ {
				ch := raw[i]
				if ch != '\\' || i+1 == len(raw) {
					p.out = append(p.out, ch)
					continue
				}
				i++
				switch raw[i] {
				case 'n':
					ch = '\n'
				case 't':
					ch = '\t'
				case 'r':
					ch = '\r'
				case 'b':
					ch = '\b'
				case 'f':
					ch = '\f'
				case 'v':
					ch = '\v'
				default:
					ch = raw[i]
				}
				p.out = append(p.out, ch)
			}
			p.fields = append(p.fields, field{b: p.out[o:len(p.out):len(p.out)]})
		}
		if last {
			return p.fields, nil
		}
		start = end + 1
	}
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
