package pgwire_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	deltaview "github.com/deltaview/deltaview"
)

// TestSettingsReported connects with settings in the startup message, as
// parameters and in options, and checks that the session starts with
// them and that the server reports (ParameterStatus) the settings
// PostgreSQL reports when SET changes them, and when ROLLBACK undoes
// them.
func TestSettingsReported(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	cfg, err := pgx.ParseConfig(connString(addr) + " options='-c work_mem=8MB --myapp.user_id=7'")
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["application_name"] = "app1"
	cfg.RuntimeParams["TimeZone"] = "Etc/UTC"
	cfg.RuntimeParams["DateStyle"] = "ISO"
	cfg.RuntimeParams["search_path"] = "public"
	c, err := pgx.ConnectConfig(ctx(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	status := func(name, want string) {
		t.Helper()
		if got := c.PgConn().ParameterStatus(name); got != want {
			t.Errorf("ParameterStatus(%s) = %q, want %q", name, got, want)
		}
	}
	show := func(q, want string) {
		t.Helper()
		var got string
		if err := c.QueryRow(ctx(t), q).Scan(&got); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", q, got, err, want)
		}
	}
	status("application_name", "app1")
	status("TimeZone", "Etc/UTC")
	status("DateStyle", "ISO, MDY")
	status("client_encoding", "UTF8")
	status("standard_conforming_strings", "on")
	show("SHOW work_mem", "8MB")
	show("SHOW search_path", "public")
	show("SELECT current_setting('myapp.user_id')", "7")

	mustExec(t, c, "SET application_name = 'app2'")
	status("application_name", "app2")
	mustExec(t, c, "SET TIME ZONE 'UTC'")
	status("TimeZone", "UTC")
	mustExec(t, c, "BEGIN")
	mustExec(t, c, "SET application_name = 'app3'")
	status("application_name", "app3")
	mustExec(t, c, "ROLLBACK")
	status("application_name", "app2")
	var got string
	if err := c.QueryRow(ctx(t), "SELECT set_config('application_name', $1, false)", "app4").Scan(&got); err != nil || got != "app4" {
		t.Errorf("set_config: %q, %v", got, err)
	}
	status("application_name", "app4")
	show("SELECT current_setting('application_name')", "app4")
	if _, err := c.Exec(ctx(t), "SET TIME ZONE 'EST5EDT,M3.2.0,M11.1.0'"); sqlstate(err) != "0A000" {
		t.Errorf("SET TIME ZONE 'EST5EDT,M3.2.0,M11.1.0': %v, want SQLSTATE 0A000", err)
	}
	status("TimeZone", "UTC")
	// The settings drivers send right after connecting.
	mustExec(t, c, "SET extra_float_digits = 3")
	mustExec(t, c, "SET SESSION application_name TO 'app5'")
	status("application_name", "app5")

	// A zone deltaview refuses at startup leaves UTC, with a warning; a
	// value PostgreSQL refuses refuses the connection.
	cfg2, _ := pgx.ParseConfig(connString(addr))
	cfg2.RuntimeParams["TimeZone"] = "EST5EDT,M3.2.0,M11.1.0"
	var warned bool
	cfg2.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { warned = warned || n.Code == "0A000" }
	c2, err := pgx.ConnectConfig(ctx(t), cfg2)
	if err != nil {
		t.Fatalf("TimeZone=EST5EDT,M3.2.0,M11.1.0: %v", err)
	}
	defer c2.Close(context.Background())
	if !warned {
		t.Error("TimeZone=Europe/Paris at startup: no warning")
	}
	if got := c2.PgConn().ParameterStatus("TimeZone"); got != "UTC" {
		t.Errorf("TimeZone=Europe/Paris at startup: ParameterStatus(TimeZone) = %q, want UTC", got)
	}
	cfg3, _ := pgx.ParseConfig(connString(addr))
	cfg3.RuntimeParams["work_mem"] = "1"
	if c3, err := pgx.ConnectConfig(ctx(t), cfg3); sqlstate(err) != "22023" {
		if err == nil {
			c3.Close(context.Background())
		}
		t.Errorf("work_mem=1 at startup: %v, want SQLSTATE 22023", err)
	}
}
