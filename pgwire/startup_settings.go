package pgwire

import (
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// notSettings are the startup message's parameters that are no settings.
var notSettings = map[string]bool{"user": true, "database": true, "options": true, "replication": true}

// applyStartupSettings sets the session's settings that the startup
// message gives, as parameters of their own (pgx's RuntimeParams, a
// connection string's statement_timeout=…, the TimeZone and DateStyle
// JDBC sends, psql's client_encoding) or in options as -c name=value or
// --name=value (psql's PGOPTIONS), in that order. A bad value is an
// error (22023), as PostgreSQL refuses the connection; a value PostgreSQL
// accepts and deltaview does not implement (a time zone other than UTC,
// a client encoding other than UTF8: 0A000) leaves the setting at its
// default, with a warning. Parameters that name no setting are ignored.
func (c *conn) applyStartupSettings(params map[string]string) error {
	type kv struct{ name, v string }
	var set []kv
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !notSettings[name] && engine.IsSessionSetting(name) {
			set = append(set, kv{name, params[name]})
		}
	}
	opts := strings.Fields(params["options"])
	for i := 0; i < len(opts); i++ {
		opt := opts[i]
		switch {
		case opt == "-c" && i+1 < len(opts):
			i++
			opt = opts[i]
		case strings.HasPrefix(opt, "-c"):
			opt = opt[2:]
		case strings.HasPrefix(opt, "--"):
			opt = opt[2:]
		default:
			continue
		}
		if name, v, ok := strings.Cut(opt, "="); ok {
			name = strings.ReplaceAll(name, "-", "_")
			if engine.IsSessionSetting(name) {
				set = append(set, kv{name, v})
			}
		}
	}
	for _, p := range set {
		if err := c.sess.ApplySetting(p.name, p.v); err != nil {
			if pgerr.Code(err) != pgerr.FeatureNotSupported {
				return err
			}
			pe := pgerr.Wrap(err)
			c.be.Send(&pgproto3.NoticeResponse{Severity: "WARNING", SeverityUnlocalized: "WARNING", Code: pe.Code,
				Message: pe.Message, Hint: pe.Hint})
		}
	}
	return nil
}
