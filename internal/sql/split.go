package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
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
		end, toks, ok := nextStatement(rest)
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
		copyIn := isCopyFromStdin(rest[:end], toks)
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
// offset just past it, toks the statement's tokens (offsets into s).
// Prefixes of s up to each semicolon are scanned in turn, so that nothing
// after the statement (COPY data, say) is ever scanned.
func nextStatement(s string) (int, []*pg_query.ScanToken, bool) {
	for from := 0; ; {
		i := strings.IndexByte(s[from:], ';')
		if i < 0 {
			return 0, nil, false
		}
		end := from + i + 1
		from = end
		res, err := pg_query.Scan(s[:end])
		if err != nil || len(res.Tokens) == 0 {
			continue // the semicolon is inside an unterminated string or comment
		}
		last := res.Tokens[len(res.Tokens)-1]
		if last.Token == pg_query.Token_ASCII_59 && int(last.End) == end {
			// The statement is complete if no earlier semicolon ended it.
			for _, t := range res.Tokens[:len(res.Tokens)-1] {
				if t.Token == pg_query.Token_ASCII_59 {
					return int(t.End), nil, true
				}
			}
			return end, res.Tokens, true
		}
	}
}

// isCopyFromStdin reports whether a statement is COPY … FROM STDIN.
func isCopyFromStdin(text string, toks []*pg_query.ScanToken) bool {
	var words []string
	for _, t := range toks {
		if t.Token == pg_query.Token_SQL_COMMENT || t.Token == pg_query.Token_C_COMMENT {
			continue
		}
		words = append(words, strings.ToLower(text[t.Start:t.End]))
	}
	if len(words) == 0 || words[0] != "copy" {
		return false
	}
	for i := 1; i+1 < len(words); i++ {
		if words[i] == "from" && words[i+1] == "stdin" {
			return true
		}
	}
	return false
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
