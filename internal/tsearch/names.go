package tsearch

import (
	"errors"
	"strings"
)

// Errors of ResolveName, which callers turn into PostgreSQL's errors.
var (
	// ErrNameSyntax is 42602 "invalid name syntax".
	ErrNameSyntax = errors.New("tsearch: invalid name syntax")
	// ErrCrossDatabase is 0A000 "cross-database references are not implemented".
	ErrCrossDatabase = errors.New("tsearch: cross-database references are not implemented")
	// ErrTooManyDots is 42601 "improper qualified name (too many dotted names)".
	ErrTooManyDots = errors.New("tsearch: improper qualified name (too many dotted names)")
)

// ResolveName reads the name of a built-in text search object (a parser,
// dictionary or configuration) as PostgreSQL reads it from text: dotted
// parts, each an identifier, lower-cased, or double-quoted. It returns the
// name within pg_catalog, and the whole name as messages print it; name is
// "" when the schema is not pg_catalog.
func ResolveName(s string) (name, full string, err error) {
	var parts []string
	i := 0
	skipSpace := func() {
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
	}
	for {
		skipSpace()
		var part string
		if i < len(s) && s[i] == '"' {
			var sb strings.Builder
			for i++; ; i++ {
				if i >= len(s) {
					return "", "", ErrNameSyntax
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						i++
					} else {
						i++
						break
					}
				}
				sb.WriteByte(s[i])
			}
			part = sb.String()
		} else {
			start := i
			for i < len(s) && s[i] != '.' && !isSpaceByte(s[i]) && s[i] != '"' {
				i++
			}
			part = lowerASCII(s[start:i])
		}
		if part == "" {
			return "", "", ErrNameSyntax
		}
		parts = append(parts, part)
		skipSpace()
		if i == len(s) {
			break
		}
		if s[i] != '.' {
			return "", "", ErrNameSyntax
		}
		i++
	}
	full = strings.Join(parts, ".")
	switch len(parts) {
	case 1:
		return parts[0], full, nil
	case 2:
		if parts[0] == "pg_catalog" {
			return parts[1], full, nil
		}
		return "", full, nil
	case 3:
		return "", full, ErrCrossDatabase
	}
	return "", full, ErrTooManyDots
}

func isSpaceByte(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
