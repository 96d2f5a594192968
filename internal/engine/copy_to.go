package engine

import (
	"io"
	"path/filepath"
	"strconv"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// CopyOut is the data COPY … TO STDOUT writes: its lines in the format
// asked for, each ending where Ends says (a CSV value may hold a
// newline, so the lines are not found by splitting), and the number of
// columns of each row. In the binary format, which the server's copy
// protocol encodes, it is the rows themselves and their columns' types.
type CopyOut struct {
	Data    []byte
	Ends    []int
	Columns int
	Binary  bool
	Rows    []value.Row
	Types   []value.Type
}

// FileCreator creates the file of COPY … TO 'file'. The engine writes no
// files itself: a program that lets its users write files sets one.
type FileCreator func(name string) (io.WriteCloser, error)

// SetFileCreator sets how COPY TO 'file' creates files; nil (the
// default) refuses such COPY statements.
func (e *Engine) SetFileCreator(fn FileCreator) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.createFile = fn
}

// copyTo runs COPY … TO: the rows of its query (which ran under the
// statement's locks and privileges as any query), written as PostgreSQL's
// COPY writes them, to the client (Result.CopyOut) or to a file.
func (s *Session) copyTo(c *sql.CopyTo, rec *recorder) (Result, error) {
	if c.File != "" {
		if !filepath.IsAbs(c.File) {
			return Result{}, pgerr.New("42602", "relative path not allowed for COPY to file")
		}
		if s.e.createFile == nil {
			return Result{}, pgerr.New(pgerr.InsufficientPrivilege, "COPY to a file is not allowed here").
				WithHint("use COPY … TO STDOUT, or deltaview run, which writes files")
		}
	}
	if c.Format == sql.CopyBinary && !s.copyBinary && c.File == "" {
		return Result{}, errCopyBinary("COPY … TO STDOUT")
	}
	enc, err := s.copyEncoding(&c.CopyOptions)
	if err != nil {
		return Result{}, err
	}
	res, err := s.execBound(c.Query, rec)
	if err != nil {
		return res, err
	}
	out := &CopyOut{Columns: len(res.Columns)}
	if c.Format == sql.CopyBinary {
		out.Binary, out.Rows = true, res.Rows
		for _, col := range res.Columns {
			out.Types = append(out.Types, col.Type)
		}
		r := Result{Tag: "COPY " + strconv.Itoa(len(res.Rows)), Notices: res.Notices, NoticeLevels: res.NoticeLevels}
		if c.File != "" {
			return r, s.e.writeCopyFile(c.File, binaryCopyData(out.Rows, out.Types))
		}
		r.CopyOut = out
		return r, nil
	}
	w := copyWriter{o: &c.CopyOptions, style: s.TextStyle(), zone: s.TimeZone(), single: len(res.Columns) == 1}
	if c.Header {
		for i, col := range res.Columns {
			out.Data = w.appendField(out.Data, i, []byte(col.Name), false)
		}
		out.Data = append(out.Data, '\n')
		out.Ends = append(out.Ends, len(out.Data))
	}
	var text []byte
	for _, row := range res.Rows {
		for i, v := range row {
			if v.IsNull() {
				if i > 0 {
					out.Data = append(out.Data, c.Delimiter)
				}
				out.Data = append(out.Data, c.Null...)
				continue
			}
			text = value.AppendTextZone(text[:0], v, w.style, w.zone)
			out.Data = w.appendField(out.Data, i, text, i < len(c.ForceQuote) && c.ForceQuote[i])
		}
		out.Data = append(out.Data, '\n')
		out.Ends = append(out.Ends, len(out.Data))
	}
	if err := encodeCopyOut(out, enc); err != nil {
		if c.File == "" {
			return Result{CopyOut: out}, err // the lines before the error
		}
		return Result{}, err
	}
	r := Result{Tag: "COPY " + strconv.Itoa(len(res.Rows)), Notices: res.Notices, NoticeLevels: res.NoticeLevels}
	if c.File == "" {
		r.CopyOut = out
		return r, nil
	}
	return r, s.e.writeCopyFile(c.File, out.Data)
}

// errCopyBinary refuses the binary format to a session whose client does
// not speak it (a script, the Go API).
func errCopyBinary(what string) error {
	return pgerr.New(pgerr.FeatureNotSupported, "%s (FORMAT binary) is supported through the server's copy protocol only", what).
		WithHint("use FORMAT text or csv")
}

// writeCopyFile writes COPY … TO 'file”s data through the host's file
// creator.
func (e *Engine) writeCopyFile(name string, data []byte) error {
	f, err := e.createFile(name)
	if err != nil {
		return fileError(name, err, pgerr.UndefinedFile, "could not open file \""+name+"\" for writing")
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fileError(name, err, "58030", "could not write to file \""+name+"\"")
	}
	return nil
}

// copyWriter writes COPY … TO's fields as PostgreSQL's CopyAttributeOutText
// and CopyAttributeOutCSV do.
type copyWriter struct {
	o      *sql.CopyOptions
	style  value.TextStyle
	zone   value.Zone
	single bool // one column: a lone \. is quoted in CSV
}

// appendField appends column i's text (a value's, or the header's column
// name), after the delimiter unless it is the first.
func (w copyWriter) appendField(buf []byte, i int, text []byte, forceQuote bool) []byte {
	if i > 0 {
		buf = append(buf, w.o.Delimiter)
	}
	if w.o.Format == sql.CopyCSV {
		return w.appendCSV(buf, text, forceQuote)
	}
	return w.appendText(buf, text)
}

// appendText escapes the backslash, the delimiter and the control
// characters that have a backslash form.
func (w copyWriter) appendText(buf, text []byte) []byte {
	for _, c := range text {
		switch {
		case c < 0x20 && textEscapes[c] != 0: // before the delimiter: a tab is \t
			buf = append(buf, '\\', textEscapes[c])
		case c == '\\' || c == w.o.Delimiter:
			buf = append(buf, '\\', c)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// AppendCopyText appends text as a field of COPY's text format with its
// default tab delimiter: the server's copy protocol writes a client's
// binary rows so for COPY … FROM (Session.ExecCopyDecoded).
func AppendCopyText(buf, text []byte) []byte {
	return copyWriter{o: &sql.CopyOptions{Delimiter: '\t'}}.appendText(buf, text)
}

// textEscapes are the control characters COPY's text format writes as a
// backslash and a letter.
var textEscapes = [0x20]byte{'\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v'}

// appendCSV quotes text when asked to, when it reads as the NULL string,
// when it holds the delimiter, the quote or a line end, or when it is a
// lone \. in a one-column row (the end-of-data line); inside quotes, the
// quote and escape characters are preceded by the escape character.
func (w copyWriter) appendCSV(buf, text []byte, quote bool) []byte {
	o := w.o
	if !quote {
		quote = string(text) == o.Null || w.single && string(text) == `\.`
		for _, c := range text {
			if quote {
				break
			}
			quote = c == o.Delimiter || c == o.Quote || c == '\n' || c == '\r'
		}
	}
	if !quote {
		return append(buf, text...)
	}
	buf = append(buf, o.Quote)
	for _, c := range text {
		if c == o.Quote || c == o.Escape {
			buf = append(buf, o.Escape)
		}
		buf = append(buf, c)
	}
	return append(buf, o.Quote)
}
