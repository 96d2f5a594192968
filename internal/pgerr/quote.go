package pgerr

import (
	"fmt"
	"io"
	"strings"
)

// PostgreSQL's messages quote names and values as they are ("a"b", a
// newline raw), where Go's %q escapes them: sprintf gives each string
// formatted by %q PostgreSQL's quoting, so that the messages a client
// reads, and matches, are PostgreSQL's.
func sprintf(format string, args ...any) string {
	if !strings.Contains(format, "q") || len(args) == 0 {
		return fmt.Sprintf(format, args...)
	}
	raw := make([]any, len(args))
	for i, a := range args {
		if s, ok := a.(string); ok {
			raw[i] = rawQuoted(s)
		} else {
			raw[i] = a
		}
	}
	return fmt.Sprintf(format, raw...)
}

// rawQuoted is a string that %q puts between double quotes as it is;
// any other verb formats it as a string.
type rawQuoted string

func (s rawQuoted) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		io.WriteString(f, `"`+string(s)+`"`)
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), string(s))
}
