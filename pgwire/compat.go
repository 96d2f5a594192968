package pgwire

import (
	"regexp"
	"strings"
)

// clientSet matches the SET commands drivers send right after connecting
// for settings deltaview has no use for: JDBC's extra_float_digits (floats
// are always printed exactly, shortest first), application_name. They are
// accepted and ignored, as a server whose defaults already suit the client.
var clientSet = regexp.MustCompile(`(?is)^\s*set\s+(?:session\s+)?(extra_float_digits|application_name)\s*(?:=|\s+to\s+)\s*(.*?)[\s;]*$`)

// parseClientSet recognises q as one of those SET commands.
func parseClientSet(q string) *cursorCmd {
	m := clientSet.FindStringSubmatch(q)
	if m == nil {
		return nil
	}
	return &cursorCmd{kind: 'S', name: strings.ToLower(m[1]), setValue: strings.Trim(m[2], `'"`)}
}
