package pgwire

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// startupSettings are the session settings a client may give in its
// startup message, as parameters of their own (pgx's RuntimeParams, a
// connection string's statement_timeout=…) or in options as -c name=value
// (psql's PGOPTIONS).
var startupSettings = map[string]bool{"lock_timeout": true, "statement_timeout": true, "idle_session_timeout": true}

// applyStartupSettings runs SET for each session setting of the startup
// message's parameters; a bad value is an error (22023), as PostgreSQL
// refuses the connection. Other parameters are ignored.
func (c *conn) applyStartupSettings(params map[string]string) error {
	set := map[string]string{}
	for name, v := range params {
		if startupSettings[name] {
			set[name] = v
		}
	}
	for _, opt := range strings.Fields(strings.ReplaceAll(params["options"], "--", "-c ")) {
		if name, v, ok := strings.Cut(opt, "="); ok && startupSettings[strings.ReplaceAll(name, "-", "_")] {
			set[strings.ReplaceAll(name, "-", "_")] = v
		}
	}
	for name, v := range set {
		st, err := sql.Parse("SET " + name + " = '" + strings.ReplaceAll(v, "'", "''") + "'")
		if err != nil {
			return pgerr.New(pgerr.InvalidParameter, "invalid value for parameter %q: %q", name, v)
		}
		if _, err := c.sess.Exec(st); err != nil {
			return err
		}
	}
	return nil
}
