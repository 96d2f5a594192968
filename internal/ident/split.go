// Package ident reads lists of SQL identifiers written in text, as
// PostgreSQL reads a regclass's name or a search_path.
package ident

import "strings"

// Split splits s into identifiers separated by sep, as PostgreSQL's
// SplitIdentifierString: each is double-quoted (a doubled quote stands
// for one, the text kept as written) or plain (its ASCII letters folded to lower case),
// with white space around it. An empty or blank s is an empty list; ok is
// false when the syntax is wrong, an empty identifier included.
func Split(s string, sep byte) (parts []string, ok bool) {
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	skip()
	if i == len(s) {
		return nil, true
	}
	for {
		var part string
		if i < len(s) && s[i] == '"' {
			var b strings.Builder
			for i++; ; {
				j := strings.IndexByte(s[i:], '"')
				if j < 0 {
					return nil, false
				}
				b.WriteString(s[i : i+j])
				i += j + 1
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			part = b.String()
		} else {
			start := i
			for i < len(s) && s[i] != sep && !isSpace(s[i]) {
				i++
			}
			part = lowerASCII(s[start:i])
		}
		if part == "" {
			return nil, false
		}
		parts = append(parts, part)
		skip()
		if i == len(s) {
			return parts, true
		}
		if s[i] != sep {
			return nil, false
		}
		i++
		skip()
	}
}

// isSpace is the white space of PostgreSQL's scanner.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// lowerASCII folds the ASCII letters of s, as PostgreSQL folds an
// unquoted identifier in UTF-8.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
