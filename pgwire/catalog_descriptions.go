package pgwire

// psqlDescriptions are the comments COMMENT ON gave the objects of a
// kind, by name, as the engine's catalogs hold them: psql's lists of
// roles, databases and domains (\du+, \l+, \dD+) are
// answered here, their Description columns from these.
func (c *conn) psqlDescriptions(q string) map[string]string {
	out := map[string]string{}
	for _, r := range c.nativeRows(q) {
		if len(r) == 2 && r[0] != nil && r[1] != nil {
			out[*r[0]] = *r[1]
		}
	}
	return out
}

const (
	roleDescriptions     = `SELECT rolname, pg_catalog.shobj_description(oid, 'pg_authid') FROM pg_catalog.pg_roles`
	databaseDescriptions = `SELECT datname, pg_catalog.shobj_description(oid, 'pg_database') FROM pg_catalog.pg_database`
	domainDescriptions   = `SELECT typname, pg_catalog.obj_description(oid, 'pg_type') FROM pg_catalog.pg_type WHERE typtype = 'd'`
)
