package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// A materialized view whose query calls a function that reads a session
// setting (pg_trgm's threshold operators, show_limit) computes its rows
// with the value the setting had when the view was created, as
// PostgreSQL's CREATE MATERIALIZED VIEW does, and keeps that value while
// it is maintained. PostgreSQL's REFRESH computes the rows again under
// the refreshing session's value: REFRESH under another value is refused
// (0A000) rather than left unchanged. The store keeps the view's
// statement after a SET of each value, so that opening the file again
// captures the same.

// SessionSettings implements sql.SettingCapturer.
func (r *recorder) SessionSettings() expr.Settings {
	if r.session == nil {
		return nil // no session binds the statement
	}
	return r.session
}

// SessionSettings implements sql.SettingCapturer.
func (v viewRecorder) SessionSettings() expr.Settings { return v.r.SessionSettings() }

// CaptureSetting implements sql.SettingCapturer.
func (r *recorder) CaptureSetting(name, value string) {
	if r.settings == nil {
		r.settings = map[string]string{}
	}
	r.settings[name] = value
}

// CaptureSetting implements sql.SettingCapturer.
func (v viewRecorder) CaptureSetting(name, value string) { v.r.CaptureSetting(name, value) }

// noteViewSettings records the settings a materialized view captured.
func (e *Engine) noteViewSettings(name string, settings map[string]string) {
	if len(settings) == 0 {
		delete(e.viewSettings, name)
		return
	}
	if e.viewSettings == nil {
		e.viewSettings = map[string]map[string]string{}
	}
	e.viewSettings[name] = settings
}

// settingsText is a view's stored statement, text, with a SET of each
// setting it captured before it (after the SET of the search path that
// may lead it, which opening the file recognizes first).
func settingsText(text string, settings map[string]string) string {
	if len(settings) == 0 {
		return text
	}
	names := make([]string, 0, len(settings))
	for n := range settings {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	lead := ""
	if strings.HasPrefix(text, "SET search_path = ") {
		if i := strings.Index(text, ";\n"); i >= 0 {
			lead, text = text[:i+2], text[i+2:]
		}
	}
	b.WriteString(lead)
	for _, n := range names {
		fmt.Fprintf(&b, "SET %s = '%s';\n", n, strings.ReplaceAll(settings[n], "'", "''"))
	}
	b.WriteString(text)
	return b.String()
}

// refreshSettings refuses REFRESH of a view that captured a setting whose
// value the session has changed.
func (s *Session) refreshSettings(view string) error {
	for _, n := range sortedKeys(s.e.viewSettings[view]) {
		want := s.e.viewSettings[view][n]
		if got, _ := s.setting(n); got != want {
			return pgerr.New(pgerr.FeatureNotSupported, "REFRESH MATERIALIZED VIEW %s under %s = %s is not supported: the view is maintained with the value %s it was created under", view, n, got, want).
				WithHint("drop the view and create it again under the new value")
		}
	}
	return nil
}
