package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// A reg* input qualified by a schema on which the session's role holds no
// USAGE is 42501, whether or not the schema holds the object, as
// PostgreSQL's LookupExplicitNamespace checks the schema first; to_regclass
// and its kin fail so too.

// usageDenied returns 42501 when s, the input of reg* kind k, is
// qualified by one of c.NoUsage's schemas.
func (c *SysCatalog) usageDenied(s string) error {
	if len(c.NoUsage) == 0 {
		return nil
	}
	name := s
	if i := strings.IndexAny(name, "(["); i >= 0 {
		name = name[:i] // a routine's arguments, an array's brackets
	}
	parts, err := splitQualified(strings.TrimSpace(name))
	if err != nil || len(parts) != 2 || !c.NoUsage[parts[0]] {
		return nil
	}
	return pgerr.New(pgerr.InsufficientPrivilege, "permission denied for schema %s", parts[0])
}
