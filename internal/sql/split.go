package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/value"
)

// Piece is one statement of a script and, for COPY … FROM STDIN, the data
// lines that follow it.
type Piece struct {
	SQL string
	// Data holds the lines after a COPY … FROM STDIN statement up to a
	// line \. (excluded) or the end of the script, each with its line end.
	Data    string
	HasData bool
}

// SplitScript splits a script as Split does, and also knows the COPY …
// FROM STDIN of psql scripts: the data starts on the line after the
// statement's semicolon and ends before a line holding only \. (or at the
// end of the script); it is not SQL and is not scanned.
func SplitScript(script string) ([]Piece, error) {
	if err := value.ValidText(script); err != nil {
		return nil, err
	}
	if !mayHaveCopy(script) {
		parts, err := Split(script)
		if err != nil {
			return nil, err
		}
		out := make([]Piece, len(parts))
		for i, p := range parts {
			out[i] = Piece{SQL: p}
		}
		return out, nil
	}
	var out []Piece
	rest := script
	for strings.TrimSpace(rest) != "" {
		end, ok := nextStatement(rest)
		if !ok { // no complete statement: the rest is the last one
			parts, err := Split(rest)
			if err != nil {
				return out, err
			}
			for _, p := range parts {
				out = append(out, Piece{SQL: p})
			}
			break
		}
		p := Piece{SQL: strings.TrimSpace(rest[:end-1])}
		copyIn := isCopyFromStdin(rest[:end])
		rest = rest[end:]
		if copyIn {
			// The data starts on the next line.
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				rest = rest[i+1:]
			} else {
				rest = ""
			}
			p.HasData = true
			p.Data, rest = cutCopyData(rest)
		}
		if p.SQL != "" {
			out = append(out, p)
		}
	}
	return out, nil
}

// mayHaveCopy reports whether a script may hold COPY … FROM STDIN, which
// SplitScript must then cut statement by statement.
func mayHaveCopy(s string) bool {
	return strings.Contains(strings.ToLower(s), "stdin")
}

// nextStatement finds the first top-level semicolon of s: end is the
// offset just past it. The lexer stops there, so that nothing after the
// statement (COPY data, say) is ever scanned.
func nextStatement(s string) (end int, ok bool) {
	l := lexer{s: s}
	var d blockDepth
	for {
		kind, start, e := l.next()
		if kind == tkEOF {
			return 0, false
		}
		switch kind {
		case tkWord:
			d.word(s[start:e])
		case tkPunct:
			d.punct(s[start])
		}
		if kind == tkPunct && s[start] == ';' && d.ends() {
			return e, true
		}
	}
}

// isCopyFromStdin reports whether a statement is COPY … FROM STDIN.
func isCopyFromStdin(text string) bool {
	l := lexer{s: text}
	prev, n := "", 0
	for {
		kind, s, e := l.next()
		if kind == tkEOF {
			return false
		}
		if kind == tkComment {
			continue
		}
		w := text[s:e]
		if n == 0 && !strings.EqualFold(w, "copy") {
			return false
		}
		if kind == tkWord && strings.EqualFold(prev, "from") && strings.EqualFold(w, "stdin") {
			return true
		}
		prev, n = w, n+1
		if kind != tkWord {
			prev = ""
		}
	}
}

// cutCopyData returns the data lines at the start of s, up to a line \.,
// and what follows that line.
func cutCopyData(s string) (data, rest string) {
	for off := 0; off < len(s); {
		end := strings.IndexByte(s[off:], '\n')
		next := len(s)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(s)
		}
		if line := strings.TrimSuffix(s[off:end], "\r"); line == `\.` {
			return s[:off], s[next:]
		}
		off = next
	}
	return s, ""
}
