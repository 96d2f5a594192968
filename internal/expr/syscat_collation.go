package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// collationKey reads a collation's name as regcollation's input does: a
// name, or a schema and a name. The collations are pg_catalog's, so a
// name of another schema that exists is an unknown collation (its key
// "schema.name" names none), and one of a schema that does not exist is
// 3F000, as in PostgreSQL.
func (c *SysCatalog) collationKey(s string) (string, error) {
	parts, err := qualifiedName(s)
	switch {
	case err != nil:
		return "", err
	case len(parts) == 2 && parts[0] == "pg_catalog":
		return parts[1], nil
	case len(parts) == 2:
		if _, known := c.OIDs[value.RegNamespace][parts[0]]; !known {
			return "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", parts[0])
		}
		return parts[0] + "." + parts[1], nil
	}
	return parts[0], nil
}

// errUndefinedCollation is regcollation's error for a name no collation
// has: the database's encoding is UTF8.
func errUndefinedCollation(key string) error {
	return pgerr.New(pgerr.UndefinedObject, "collation %q for encoding \"UTF8\" does not exist", key)
}
