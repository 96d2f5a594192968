package engine

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"
	"unsafe"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// FileOpener opens the file of COPY … FROM 'file'. The engine opens no
// files itself: a program that lets its users load files (deltaview run)
// sets one. If the reader has a Size() int64 method, progress reports
// bytes read out of that size.
type FileOpener func(name string) (io.ReadCloser, error)

// SetFileOpener sets how COPY FROM 'file' opens files; nil (the default)
// refuses such COPY statements.
func (e *Engine) SetFileOpener(fn FileOpener) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.openFile = fn
}

// execCopy loads the rows of a COPY into its table, within the open
// transaction or as one of its own: every row or none.
func (e *Engine) execCopy(c *sql.Copy) (Result, error) {
	t, ok := e.tables[c.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.WrongObjectType, "cannot copy to system view %q", c.Table)
	}
	r, done, err := e.copySource(c)
	if err != nil {
		return Result{}, err
	}
	defer done()
	n, err := e.copyRows(t, c, r)
	if err != nil {
		return Result{}, err
	}
	return Result{Tag: fmt.Sprintf("COPY %d", n)}, nil
}

func unwrapPath(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// copyReader counts the bytes read through it, for progress.
type copyReader struct {
	r io.Reader
	n int64
}

func (c *copyReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// copyRowsPerReport is how often a COPY reports progress, in rows.
const copyRowsPerReport = 1 << 16

// copySlab is how many rows' values a COPY allocates at once.
const copySlab = 256

// copyRows parses r's lines into rows of t and inserts them. An error
// names the line; the caller undoes the rows inserted before it.
func (e *Engine) copyRows(t *table, c *sql.Copy, r io.Reader) (int64, error) {
	cr := &copyReader{r: r}
	total := int64(-1)
	if s, ok := r.(interface{ Size() int64 }); ok {
		total = s.Size()
	}
	start := time.Now()
	report := func(finished bool) {
		if e.progress != nil {
			e.progress(Progress{Op: "COPY " + t.name, Unit: "bytes", Done: cr.n, Total: total,
				Elapsed: time.Since(start), Finished: finished})
		}
	}
	br := bufio.NewReaderSize(cr, 1<<16)
	p := copyParser{c: c, ncols: len(c.Cols)}
	inData := make([]bool, len(t.cols))
	for _, i := range c.Cols {
		inData[i] = true
	}
	var rows int64
	var slab []value.Value
	for lineNo := int64(1); ; lineNo++ {
		line, err := p.readRecord(br)
		if err == io.EOF && line == nil {
			break
		}
		if err != nil && err != io.EOF {
			if pe, ok := err.(*pgerr.Error); ok {
				return rows, copyContext(pe, t.name, lineNo, "")
			}
			return rows, err
		}
		if lineNo == 1 && c.Header {
			continue
		}
		fields, perr := p.split(line)
		if perr != nil {
			return rows, copyContext(perr, t.name, lineNo, "")
		}
		if len(fields) != len(c.Cols) {
			pe := pgerr.New(pgerr.BadCopyFileFormat, "extra data after last expected column")
			if len(fields) < len(c.Cols) {
				pe = pgerr.New(pgerr.BadCopyFileFormat, "missing data for column %q", t.cols[c.Cols[len(fields)]].Name)
			}
			return rows, copyContext(pe, t.name, lineNo, "")
		}
		if len(slab) < len(t.cols) {
			slab = make([]value.Value, copySlab*len(t.cols))
		}
		row := value.Row(slab[:len(t.cols):len(t.cols)])
		slab = slab[len(t.cols):]
		for i, ci := range c.Cols {
			f := fields[i]
			if f.null {
				row[ci] = value.Null
				continue
			}
			typ := t.cols[ci].Type
			var s string
			if typ.Kind.IsString() || typ.Kind == value.Unknown {
				s = string(f.b)
			} else {
				s = unsafeString(f.b) // the parsed value keeps nothing of it
			}
			v, err := value.Parse(s, typ)
			if err != nil {
				pe := pgerr.Wrap(err)
				return rows, copyContext(pe, t.name, lineNo, fmt.Sprintf(", column %s: %q", t.cols[ci].Name, string(f.b)))
			}
			row[ci] = v
		}
		for i, in := range inData {
			if in {
				continue
			}
			row[i] = value.Null
			if d := t.def.Cols[i].Default; d != nil {
				v, err := d.Eval(nil)
				if err == nil {
					v, err = value.Cast(v, t.cols[i].Type, false)
				}
				if err != nil {
					return rows, copyContext(pgerr.Wrap(err), t.name, lineNo, "")
				}
				row[i] = v
			}
		}
		if _, err := e.insertRow(t, row); err != nil {
			return rows, copyContext(pgerr.Wrap(err), t.name, lineNo, "")
		}
		rows++
		if rows%copyRowsPerReport == 0 {
			report(false)
			if rows == copyRowsPerReport && total > 0 && cr.n > 0 {
				// Make room at once for the rows the size promises.
				e.reserve(t, rows*total/cr.n-rows)
			}
		}
		if err == io.EOF {
			break
		}
	}
	report(true)
	return rows, nil
}

// copyContext adds where a COPY failed, as PostgreSQL's CONTEXT line does:
// "COPY t, line 3, column a: "x"".
func copyContext(pe *pgerr.Error, table string, line int64, col string) error {
	c := *pe
	where := fmt.Sprintf("COPY %s, line %d%s", table, line, col)
	if c.Detail != "" {
		c.Detail += "\n" + where
	} else {
		c.Detail = where
	}
	return &c
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// copyField is one field of a record: its bytes (unescaped, valid until
// the next record) or NULL.
type copyField struct {
	b    []byte
	null bool
}

// copyParser splits COPY data into records and fields, in PostgreSQL's
// text or CSV format, reusing its buffers from one record to the next.
type copyParser struct {
	c      *sql.Copy
	ncols  int
	rec    []byte // the current record when it spans buffer reads
	fields []copyField
	out    []byte // unescaped field bytes, back to back
}

// readRecord returns the next record without its line end; in CSV a
// quoted field may span lines. The slice is valid until the next call.
// The error is io.EOF with the last record (or with none).
func (p *copyParser) readRecord(br *bufio.Reader) ([]byte, error) {
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
		if p.c.Format == sql.CopyCSV && p.openQuote(line) {
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
func (p *copyParser) openQuote(b []byte) bool {
	q, esc := p.c.Quote, p.c.Escape
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
func (p *copyParser) split(rec []byte) ([]copyField, *pgerr.Error) {
	p.fields = p.fields[:0]
	p.out = p.out[:0]
	if cap(p.out) < len(rec) {
		p.out = make([]byte, 0, 2*len(rec))
	}
	if p.c.Format == sql.CopyCSV {
		return p.splitCSV(rec)
	}
	return p.splitText(rec)
}

func (p *copyParser) splitText(rec []byte) ([]copyField, *pgerr.Error) {
	d := p.c.Delimiter
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
		case string(raw) == p.c.Null:
			p.fields = append(p.fields, copyField{null: true})
		case bytes.IndexByte(raw, '\\') < 0:
			p.fields = append(p.fields, copyField{b: raw})
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
			p.fields = append(p.fields, copyField{b: p.out[o:len(p.out):len(p.out)]})
		}
		if last {
			return p.fields, nil
		}
		start = end + 1
	}
}

func (p *copyParser) splitCSV(rec []byte) ([]copyField, *pgerr.Error) {
	d, q, esc := p.c.Delimiter, p.c.Quote, p.c.Escape
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
			p.fields = append(p.fields, copyField{b: p.out[o:len(p.out):len(p.out)]})
		} else {
			end := bytes.IndexByte(rec[i:], d)
			if end < 0 {
				end = len(rec)
			} else {
				end += i
			}
			raw := rec[i:end]
			p.fields = append(p.fields, copyField{b: raw, null: string(raw) == p.c.Null})
			i = end
		}
		if i >= len(rec) {
			return p.fields, nil
		}
		i++ // the delimiter
		if i == len(rec) {
			p.fields = append(p.fields, copyField{null: p.c.Null == ""})
			return p.fields, nil
		}
	}
}

// execSet runs SET and RESET: deltaview.max_memory, the engine-wide budget
// of all views' state, and deltaview.refill_notice, the refills one view
// may do in one step before a notice.
func (e *Engine) execSet(s *sql.Set) (Result, error) {
	switch s.Name {
	case "deltaview.max_memory":
		var n int64
		if s.Value != "" && s.Value != "0" {
			var err error
			if n, err = sql.ParseBytes(s.Value); err != nil {
				return Result{}, err
			}
		}
		e.maxMemory = n
		e.overBudget = false
	case "deltaview.refill_notice":
		var n int64
		if s.Value != "" {
			var err error
			if n, err = strconv.ParseInt(s.Value, 10, 64); err != nil {
				return Result{}, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", s.Name, s.Value).
					WithHint("a number of refills per view and step; 0 for the default, a negative number to turn the notice off")
			}
		}
		e.setRefillNotice(n)
	default:
		return Result{}, pgerr.New(pgerr.UndefinedObject, "unrecognized configuration parameter %q", s.Name).
			WithHint("the settings are deltaview.max_memory and deltaview.refill_notice")
	}
	return Result{Tag: "SET"}, nil
}

// SetMaxMemory sets the engine-wide budget of all views' state in bytes,
// as SET deltaview.max_memory does; 0 removes it.
func (e *Engine) SetMaxMemory(n int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.maxMemory, e.overBudget = n, false
}

// reserve makes room for about n more rows in t and in the open
// transaction's log, so that a bulk load does not grow them step by step.
func (e *Engine) reserve(t *table, n int64) {
	if n <= 0 {
		return
	}
	e.tx.log = slices.Grow(e.tx.log, int(n))
	for _, u := range t.uniques {
		u.reserve(n)
	}
}

// copySource opens a COPY's input: the data lines of the script for FROM
// STDIN, or the file, through the opener the host allows. done closes it.
func (e *Engine) copySource(c *sql.Copy) (r io.Reader, done func(), err error) {
	if c.Stdin {
		if e.copyData == nil {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "COPY FROM STDIN needs its data").
				WithHint(`in a script, write the data lines after the statement, ending with a line \.`)
		}
		return e.copyData, func() {}, nil
	}
	if e.openFile == nil {
		return nil, nil, pgerr.New(pgerr.InsufficientPrivilege, "COPY from a file is not allowed here").
			WithHint("use COPY … FROM STDIN, or deltaview run, which reads files")
	}
	f, err := e.openFile(c.File)
	if err != nil {
		return nil, nil, pgerr.New(pgerr.UndefinedFile, "could not open file %q for reading: %v", c.File, unwrapPath(err))
	}
	return f, func() { f.Close() }, nil
}
