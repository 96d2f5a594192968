package tsearch

import (
	"errors"
	"strings"

	"github.com/deltaview/deltaview/internal/ident"
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
	parts, ok := ident.Split(s, '.')
	if !ok || len(parts) == 0 {
		return "", "", ErrNameSyntax
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
