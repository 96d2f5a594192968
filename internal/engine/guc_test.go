package engine

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestSettingsAsPostgreSQL checks the table of settings against
// PostgreSQL's pg_settings: each name is PostgreSQL's, with its
// description, and its default, read as SET reads a value, prints as the
// table says (but for the few whose default here is the one the engine
// implements, or the server's configuration, not PostgreSQL's built-in
// one).
func TestSettingsAsPostgreSQL(t *testing.T) {
	conn := pgtest.Start(t).Conn(t)
	rows := pgtest.MustQuery(t, conn, "SELECT name, short_desc, boot_val FROM pg_settings")
	type pgSetting struct{ desc, boot string }
	pg := map[string]pgSetting{}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	for _, r := range rows {
		pg[str(r[0])] = pgSetting{desc: str(r[1]), boot: str(r[2])}
	}
	ownDefault := map[string]bool{
		"TimeZone": true, "client_encoding": true, "server_encoding": true, "server_version": true,
		"server_version_num": true, "DateStyle": true, "application_name": true,
	}
	for _, d := range gucList {
		if d.session {
			continue // role and session_authorization: not in pg_settings, as not in SHOW ALL
		}
		p, ok := pg[d.name]
		if !ok {
			t.Errorf("%s: not a setting of PostgreSQL", d.name)
			continue
		}
		if p.desc != d.desc {
			t.Errorf("%s: description %q, PostgreSQL's %q", d.name, d.desc, p.desc)
		}
		if ownDefault[d.name] || d.check != nil {
			continue
		}
		got, err := d.canonical(p.boot)
		if err != nil {
			t.Errorf("%s: PostgreSQL's default %q: %v", d.name, p.boot, err)
			continue
		}
		if got != d.boot {
			t.Errorf("%s: PostgreSQL's default %q reads as %q, the table says %q", d.name, p.boot, got, d.boot)
		}
		if _, err := d.canonical(d.boot); err != nil {
			t.Errorf("%s: the default %q: %v", d.name, d.boot, err)
		}
	}
	if len(gucDefs) != len(gucList)+len(extensionGUCs) {
		t.Errorf("%d names for %d settings", len(gucDefs), len(gucList)+len(extensionGUCs))
	}
	for name := range gucDefs {
		if name != strings.ToLower(name) {
			t.Errorf("%s: not lower case", name)
		}
	}
}
