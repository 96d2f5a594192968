package engine

import (
	"strings"
	"time"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// settings are a session's values of the settings of guc.go. A setting
// not in vals has its default.
type settings struct {
	vals  map[string]string // SET (lower-case name → value as SHOW prints it)
	local map[string]string // SET LOCAL: until the transaction ends
	// saved is vals as the transaction found them, kept at the
	// transaction's first SET (changed) for ROLLBACK.
	saved   map[string]string
	changed bool
	// custom holds the custom names set so far: from then on they exist,
	// empty when not set, as PostgreSQL's placeholders.
	custom map[string]bool
	// reported holds the values last reported to the client of the
	// settings marked report; nil until the first report.
	reported map[string]string
}

// setting returns the session's value of a setting (lower-case name); ok
// is false when no setting has that name.
func (s *Session) setting(name string) (string, bool) {
	if name == "session_authorization" {
		return s.sessionUserName(), true
	}
	g := &s.gucs
	if v, ok := g.local[name]; ok {
		return v, true
	}
	if d := gucDefs[name]; d != nil {
		if d.transaction != "" {
			return s.setting(d.transaction)
		}
		if v, ok := g.vals[name]; ok {
			return v, true
		}
		return d.boot, true
	}
	if v, ok := g.vals[name]; ok {
		return v, true
	}
	return "", g.custom[name]
}

// setSetting sets a setting of the session (lower-case name) to v, or to
// its default when def is set, for the session or, local, until the
// transaction ends.
func (s *Session) setSetting(name, v string, def, local bool) error {
	if err := s.checkReplicationRole(name); err != nil && !def {
		return err
	}
	d := gucDefs[name]
	switch {
	case d == nil && !isCustomSetting(name):
		return errUnknownSetting(name)
	case d == nil:
		if def {
			v = ""
		}
	case d.fixed && d.restart:
		return pgerr.New("55P02", "parameter %q cannot be changed without restarting the server", d.name)
	case d.fixed:
		return pgerr.New("55P02", "parameter %q cannot be changed", d.name)
	case d.name == "role" || d.name == "session_authorization":
		if def {
			v = d.boot
		} else if err := s.checkRoleSetting(d.name, v); err != nil {
			return err
		}
	case def:
		v = d.boot
		if d.transaction != "" {
			v, _ = s.setting(d.transaction)
		}
	default:
		c, err := d.canonical(v)
		if name == "datestyle" && err == nil {
			cur, _ := s.setting(name)
			c, err = dateStyleFrom(cur, v)
		}
		if err != nil {
			if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.InvalidParameter && d.unit == "ms" && pe.Hint == "" {
				none := "0 for none"
				if name == "lock_timeout" {
					none = "0 waits for ever"
				}
				err = pe.WithHint("a duration such as '2s', '500ms' or 2000 (milliseconds); %s", none)
			}
			return err
		}
		v = c
	}
	if name == "transaction_isolation" {
		if err := s.checkIsolationChange(v); err != nil {
			return err
		}
	}
	if name == "transaction_read_only" && v == "off" {
		if err := s.checkReadWrite(); err != nil {
			return err
		}
	}
	g := &s.gucs
	if d == nil {
		if g.custom == nil {
			g.custom = map[string]bool{}
		}
		g.custom[name] = true
	}
	if local || (d != nil && d.transaction != "") {
		if g.local == nil {
			g.local = map[string]string{}
		}
		g.local[name] = v
	} else {
		if !g.changed {
			g.saved, g.changed = cloneMap(g.vals), true
		}
		if g.vals == nil {
			g.vals = map[string]string{}
		}
		g.vals[name] = v
		delete(g.local, name)
	}
	if name == "session_authorization" {
		// As PostgreSQL: the session user's change ends SET ROLE.
		if local {
			g.local["role"] = "none"
		} else {
			g.vals["role"] = "none"
			delete(g.local, "role")
		}
	}
	s.applySettings()
	return nil
}

// endSettings ends the settings' transaction: SET LOCAL ends, and SET
// stays on commit, is undone on rollback.
func (s *Session) endSettings(commit bool) {
	g := &s.gucs
	if !g.changed && len(g.local) == 0 {
		return
	}
	if g.changed && !commit {
		g.vals = g.saved
	}
	g.saved, g.changed, g.local = nil, false, nil
	s.applySettings()
}

// resetSettings is RESET ALL: every setting of the session to its
// default.
func (s *Session) resetSettings() {
	g := &s.gucs
	if !g.changed {
		g.saved, g.changed = cloneMap(g.vals), true
	}
	var kept map[string]string
	for name, v := range g.vals {
		if d := gucDefs[name]; d != nil && d.session {
			if kept == nil {
				kept = map[string]string{}
			}
			kept[name] = v
		}
	}
	g.vals = kept
	for name := range g.local {
		if d := gucDefs[name]; d == nil || d.transaction == "" && !d.session {
			delete(g.local, name)
		}
	}
	s.applySettings()
}

// applySettings sets what the settings drive: the timeouts and the role
// the session acts as.
func (s *Session) applySettings() {
	s.applyRole()
	if s.gucs.vals == nil && s.gucs.local == nil {
		s.lockTimeout, s.stmtTimeout, s.idleTimeout, s.idleTxTimeout = 0, 0, 0, 0
		return
	}
	s.idleTxTimeout = s.durationSetting("idle_in_transaction_session_timeout")
	s.lockTimeout = s.durationSetting("lock_timeout")
	s.stmtTimeout = s.durationSetting("statement_timeout")
	s.idleTimeout = s.durationSetting("idle_session_timeout")
}

func (s *Session) durationSetting(name string) time.Duration {
	v, _ := s.setting(name)
	d, err := parseTimeout(v)
	if err != nil {
		return 0
	}
	return d
}

// setDuration records a timeout set by the Go API as its setting.
func (s *Session) setDuration(name string, d time.Duration) {
	d = max(d, 0)
	g := &s.gucs
	if d == 0 { // the default: no map, no text (a DB sets it on every session)
		delete(g.vals, name)
		s.applySettings()
		return
	}
	if g.vals == nil {
		g.vals = map[string]string{}
	}
	ms := d.Milliseconds()
	if d > 0 && ms == 0 {
		ms = 1 // the setting's unit: a shorter wait is no wait for ever
	}
	g.vals[name] = gucDefs[name].formatInt(ms)
	s.applySettings()
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sessionStmt reports whether a SET or RESET is of the session's
// settings (or of no setting) rather than of the engine's deltaview.*.
func sessionStmt(b *sql.Set) bool {
	return b.All || len(b.Multi) > 0 || !strings.HasPrefix(b.Name, "deltaview.")
}

// execSessionSet runs SET, SET LOCAL, RESET, RESET ALL and SET
// TRANSACTION of the session's settings.
func (s *Session) execSessionSet(b *sql.Set) (Result, error) {
	res := Result{Tag: "SET"}
	if b.All {
		s.resetSettings()
		res.Tag = "RESET"
		return res, nil
	}
	if b.Reset {
		res.Tag = "RESET"
	}
	if len(b.Multi) > 0 {
		if b.Local && !s.block {
			res.Notices = append(res.Notices, "SET TRANSACTION can only be used in transaction blocks")
			res.NoticeLevels = map[int]string{0: "WARNING"} // PostgreSQL's severity
		}
		for _, m := range b.Multi {
			if err := s.setSetting(m.Name, m.Value, false, b.Local); err != nil {
				return Result{}, err
			}
		}
		return res, nil
	}
	if b.Local && !s.block {
		res.Notices = append(res.Notices, "SET LOCAL can only be used in transaction blocks")
		res.NoticeLevels = map[int]string{0: "WARNING"} // PostgreSQL's severity
	}
	if err := s.setSetting(b.Name, b.Value, b.Default, b.Local); err != nil {
		return Result{}, err
	}
	return res, nil
}

// showSetting is SHOW name and SHOW ALL of the session's settings.
func (s *Session) showSetting(name string) (Result, error) {
	if name == "all" {
		res := Result{Columns: showAllColumns, HasRows: true, Tag: "SHOW"}
		for _, d := range gucList {
			if d.session {
				continue
			}
			v, _ := s.setting(strings.ToLower(d.name))
			res.Rows = append(res.Rows, value.Row{textValue(d.name), textValue(v), textValue(d.desc)})
		}
		return res, nil
	}
	v, ok := s.setting(name)
	if !ok {
		return Result{}, errUnknownSetting(name)
	}
	col := name
	if d := gucDefs[name]; d != nil {
		col = d.name
	}
	return Result{Columns: settingColumns(col), Rows: []value.Row{{textValue(v)}}, HasRows: true, Tag: "SHOW"}, nil
}

var showAllColumns = []plan.Column{{Name: "name", Type: value.TextType}, {Name: "setting", Type: value.TextType}, {Name: "description", Type: value.TextType}}

func textValue(s string) value.Value { return value.NewText(value.Text, s) }

// showColumns is the result column of SHOW name, or nil when name is no
// setting of the session.
func showColumns(name string) []plan.Column {
	switch {
	case name == "all":
		return showAllColumns
	case gucDefs[name] != nil:
		return settingColumns(gucDefs[name].name)
	case isCustomSetting(name):
		return settingColumns(name)
	}
	return nil
}

// Setting returns the session's value of a setting, as current_setting
// does: 42704 for a name no setting has, unless missingOK, which
// returns ok false.
func (s *Session) Setting(name string, missingOK bool) (v string, ok bool, err error) {
	v, ok = s.setting(strings.ToLower(name))
	if !ok && !missingOK {
		return "", false, errUnknownSetting(name)
	}
	return v, ok, nil
}

// SetSetting sets a setting of the session as set_config does in a
// statement the session runs, for the session or, local, until its
// transaction ends, and returns its new value.
func (s *Session) SetSetting(name, v string, local bool) (string, error) {
	name = strings.ToLower(name)
	if err := s.setSetting(name, v, false, local); err != nil {
		return "", err
	}
	v, _ = s.setting(name)
	return v, nil
}

// ApplySetting sets a setting of the session outside any statement, as a
// server does with the settings of a connection's startup message: it
// lasts for the session (or until the open transaction block ends,
// which may undo it).
func (s *Session) ApplySetting(name, v string) error {
	if err := s.setSetting(strings.ToLower(name), v, false, false); err != nil {
		return err
	}
	if !s.block {
		s.endSettings(true)
	}
	return nil
}

// IsSessionSetting reports whether name is a setting of a session: one
// of PostgreSQL's that the engine knows, or a custom dotted name.
func IsSessionSetting(name string) bool { return sessionSetting(strings.ToLower(name)) }

// ReportedSetting is a setting's new value, which a server sends its
// client (ParameterStatus).
type ReportedSetting struct{ Name, Value string }

// TakeReports returns the settings marked for reporting to the client
// (TimeZone, DateStyle, application_name, client_encoding, …) whose
// values changed since the last call, and records their values. The
// first call returns those that differ from their defaults, which a
// server reports when the connection starts.
func (s *Session) TakeReports() []ReportedSetting {
	g := &s.gucs
	var out []ReportedSetting
	first := g.reported == nil
	if first {
		g.reported = map[string]string{}
	}
	for _, d := range gucList {
		if !d.report {
			continue
		}
		v, _ := s.setting(strings.ToLower(d.name))
		last, seen := g.reported[d.name]
		if !seen {
			last = d.boot
		}
		if v != last {
			out = append(out, ReportedSetting{Name: d.name, Value: v})
		}
		g.reported[d.name] = v
	}
	return out
}

// filterNotices drops the results' notices below client_min_messages
// when it asks for warnings or errors only.
func (s *Session) filterNotices(out []Result) {
	if s.gucs.vals == nil && s.gucs.local == nil {
		return // all defaults: notices are sent
	}
	v, _ := s.setting("client_min_messages")
	if v != "warning" && v != "error" {
		return
	}
	// INFO is always sent, as PostgreSQL sends it; WARNING unless at error.
	for i := range out {
		out[i].keepNotices(func(level string) bool { return level == "INFO" || level == "WARNING" && v == "warning" })
	}
}
