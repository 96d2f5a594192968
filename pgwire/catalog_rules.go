package pgwire

import (
	"regexp"

	"github.com/deltaview/deltaview/internal/engine"
)

// psql's \d reads a relation's rules from pg_rewrite when pg_class says it
// has some; the engine's catalogs answer the query as psql writes it.
var psqlRulesQuery = regexp.MustCompile(`(?s)^SELECT r\.rulename, trim\(trailing ';' from pg_catalog\.pg_get_ruledef\(r\.oid, true\)\)(?:, ev_enabled)?\s+FROM pg_catalog\.pg_rewrite r\s+WHERE r\.ev_class = '\d+'.*ORDER BY 1;?\s*$`)

// psqlRules answers psql's query of a relation's rules.
func (c *conn) psqlRules(q string) (engine.Result, bool) {
	if !psqlRulesQuery.MatchString(q) {
		return engine.Result{}, false
	}
	names := []string{"rulename", "btrim"}
	if regexp.MustCompile(`\), ev_enabled\s`).MatchString(q) {
		names = append(names, "ev_enabled")
	}
	return textResult(names, c.nativeRows(q)), true
}

// relHasRules is pg_class.relhasrules of the relation of oid, as text.
func (c *conn) relHasRules(oid string) *string {
	rows := c.nativeRows("SELECT relhasrules FROM pg_catalog.pg_class WHERE oid = " + oid)
	if len(rows) == 1 && rows[0][0] != nil {
		return rows[0][0]
	}
	return s("f")
}
