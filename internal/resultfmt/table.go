package resultfmt

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"

	"github.com/deltaview/deltaview/internal/value"
)

// appendTable appends s in psql's aligned format (border 1, ASCII lines):
// centered headers, numeric columns right-aligned and the others
// left-aligned, " | " between columns, a "+" after each line of a value
// that continues on the next, then "(N rows)" and an empty line.
func appendTable(buf []byte, s *Set, o Options) []byte {
	ncol := len(s.Columns)
	if ncol == 0 {
		// psql prints no header and no row lines when there are no columns.
		buf = append(buf, "--\n"...)
		return appendFooter(buf, len(s.Rows))
	}
	widths := make([]int, ncol)
	right := make([]bool, ncol)
	headers := make([]cell, ncol)
	for i, c := range s.Columns {
		headers[i] = formatCell(c.Name)
		widths[i] = headers[i].width()
		right[i] = c.Type.Kind.IsNumeric() || c.Type.Kind == value.Oid // psql right-aligns oid too
	}
	cells := make([]cell, len(s.Rows)*ncol)
	var t []byte
	for i, r := range s.Rows {
		for j, v := range r {
			t = text(t[:0], v, o)
			c := formatCell(string(t))
			cells[i*ncol+j] = c
			widths[j] = max(widths[j], c.width())
		}
	}

	// Header: each line of each name centered; "+" marks a name that
	// continues on the next line.
	nlines := 0
	for _, h := range headers {
		nlines = max(nlines, len(h.lines))
	}
	for k := range nlines {
		for i, h := range headers {
			if i > 0 {
				buf = append(buf, '|')
			}
			buf = append(buf, ' ')
			if k < len(h.lines) {
				pad := widths[i] - h.widths[k]
				buf = appendSpaces(buf, pad/2)
				buf = append(buf, h.lines[k]...)
				buf = appendSpaces(buf, (pad+1)/2)
				if k+1 < len(h.lines) {
					buf = append(buf, '+')
				} else {
					buf = append(buf, ' ')
				}
			} else {
				buf = appendSpaces(buf, widths[i]+1)
			}
		}
		buf = append(buf, '\n')
	}
	for i, w := range widths {
		if i > 0 {
			buf = append(buf, '+')
		}
		buf = append(buf, strings.Repeat("-", w+2)...)
	}
	buf = append(buf, '\n')

	for i := range s.Rows {
		row := cells[i*ncol : (i+1)*ncol]
		nlines := 1
		for _, c := range row {
			nlines = max(nlines, len(c.lines))
		}
		for k := range nlines {
			for j, c := range row {
				last := j == ncol-1
				if j > 0 {
					buf = append(buf, '|')
				}
				buf = append(buf, ' ')
				if k >= len(c.lines) {
					if !last {
						buf = appendSpaces(buf, widths[j]+1)
					}
					continue
				}
				more := k+1 < len(c.lines)
				pad := widths[j] - c.widths[k]
				if right[j] {
					buf = appendSpaces(buf, pad)
				}
				buf = append(buf, c.lines[k]...)
				if !right[j] && (!last || more) {
					buf = appendSpaces(buf, pad)
				}
				if more {
					buf = append(buf, '+')
				} else if !last {
					buf = append(buf, ' ')
				}
			}
			buf = append(buf, '\n')
		}
	}
	return appendFooter(buf, len(s.Rows))
}

func appendFooter(buf []byte, n int) []byte {
	if n == 1 {
		return append(buf, "(1 row)\n\n"...)
	}
	buf = append(buf, '(')
	buf = strconv.AppendInt(buf, int64(n), 10)
	return append(buf, " rows)\n\n"...)
}

func appendSpaces(buf []byte, n int) []byte {
	for range n {
		buf = append(buf, ' ')
	}
	return buf
}

// cell is a value split into display lines, with each line's width in
// terminal columns.
type cell struct {
	lines  []string
	widths []int
}

func (c cell) width() int {
	w := 0
	for _, x := range c.widths {
		w = max(w, x)
	}
	return w
}

// formatCell prepares s for display as psql does (pg_wcsformat): it splits
// at newlines, expands tabs to the next multiple of 8, shows a carriage
// return as \r and other control characters as \xNN (ASCII) or \uNNNN.
func formatCell(s string) cell {
	var c cell
	var line strings.Builder
	w := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\n':
			c.lines = append(c.lines, line.String())
			c.widths = append(c.widths, w)
			line.Reset()
			w = 0
		case r == '\t':
			for {
				line.WriteByte(' ')
				w++
				if w%8 == 0 {
					break
				}
			}
		case r == '\r':
			line.WriteString(`\r`)
			w += 2
		case r == utf8.RuneError && size == 1:
			line.WriteByte(s[i-1])
			w++
		case r < 0x20 || r == 0x7f:
			line.WriteString(`\x`)
			line.WriteString(strings.ToUpper(strconv.FormatInt(int64(r)|0x100, 16)[1:]))
			w += 4
		case r >= 0x80 && r < 0xa0:
			line.WriteString(`\u00`)
			line.WriteString(strings.ToUpper(strconv.FormatInt(int64(r), 16)))
			w += 6
		default:
			line.WriteRune(r)
			w += runeWidth(r)
		}
	}
	c.lines = append(c.lines, line.String())
	c.widths = append(c.widths, w)
	return c
}

// runeWidth is a printable character's width in terminal columns, as
// PostgreSQL's ucs_wcwidth computes it: 0 for combining marks, 2 for East
// Asian wide and fullwidth characters, else 1.
func runeWidth(r rune) int {
	if unicode.In(r, unicode.Mn, unicode.Me) {
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
