package pgwire_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	deltaview "github.com/deltaview/deltaview"
)

// TestTimeZoneStartup connects with a TimeZone startup parameter, as JDBC
// sends the client's zone: the session reads and prints timestamptz in
// it (text format), the binary format still carries the instant, and SET
// TIME ZONE is reported (ParameterStatus).
func TestTimeZoneStartup(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	cfg, err := pgx.ParseConfig(connString(addr))
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["TimeZone"] = "Europe/Paris"
	c, err := pgx.ConnectConfig(ctx(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if got := c.PgConn().ParameterStatus("TimeZone"); got != "Europe/Paris" {
		t.Errorf("ParameterStatus(TimeZone) = %q", got)
	}
	var text string
	if err := c.QueryRow(ctx(t), "SELECT '2026-12-05 11:00'::timestamptz::text", pgx.QueryExecModeSimpleProtocol).Scan(&text); err != nil || text != "2026-12-05 11:00:00+01" {
		t.Errorf("text = %q (%v)", text, err)
	}
	var at time.Time
	if err := c.QueryRow(ctx(t), "SELECT '2026-12-05 11:00'::timestamptz").Scan(&at); err != nil || !at.Equal(time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("binary = %v (%v)", at, err)
	}
	mustExec(t, c, "SET TIME ZONE 'Asia/Kolkata'")
	if got := c.PgConn().ParameterStatus("TimeZone"); got != "Asia/Kolkata" {
		t.Errorf("ParameterStatus(TimeZone) after SET = %q", got)
	}
}
