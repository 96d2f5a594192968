package engine

import "github.com/deltaview/deltaview/internal/sql"

// collationOID is the oid pg_collation gives the collation called name,
// 0 when it lists none of that name.
func collationOID(name string) uint32 {
	for _, c := range collations {
		if c.name == name {
			return c.oid
		}
	}
	for _, c := range icuCollations {
		if c.locale+"-x-icu" == name {
			return c.oid
		}
	}
	return 0
}

// columnCollationOID is pg_attribute.attcollation of a table's column:
// its COLLATE clause's or its domain's collation, else its type's
// (typeCollation) given as fallback.
func columnCollationOID(c *sql.ColumnDef, fallback uint32) uint32 {
	if c.UserColl != nil && fallback != 0 {
		return c.UserColl.OID
	}
	if oid, _, ok := c.DomainUserColl(); ok && fallback != 0 {
		return oid
	}
	if oid := collationOID(c.CollationName()); oid != 0 && fallback != 0 {
		return oid
	}
	return fallback
}

// infoCollation is information_schema.columns' description of a
// column's collation: catalog, schema and name, unless it is the
// default, which PostgreSQL leaves out.
func infoCollation(c *sql.ColumnDef) []any {
	name := c.CollationName()
	if name == "" || name == "default" {
		return nil
	}
	schema := "pg_catalog"
	if c.UserColl != nil {
		schema = c.UserColl.Schema
	} else if _, sc, ok := c.DomainUserColl(); ok {
		schema = sc
	}
	return []any{"collation_catalog", DatabaseName, "collation_schema", schema, "collation_name", name}
}

// collationName is the schema and name of the collation whose oid is oid,
// "" for none.
func (e *Engine) collationName(oid uint32) (schema, name string) {
	if oid == 0 {
		return "", ""
	}
	for _, c := range collations {
		if c.oid == oid {
			return "pg_catalog", c.name
		}
	}
	for _, c := range icuCollations {
		if c.oid == oid {
			return "pg_catalog", c.locale + "-x-icu"
		}
	}
	for _, uc := range e.colls {
		if uc.OID == oid {
			return uc.Schema, uc.Name
		}
	}
	return "", ""
}
