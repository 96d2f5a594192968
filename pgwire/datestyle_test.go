package pgwire_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	deltaview "github.com/deltaview/deltaview"
)

// TestDateStyleReported: SET DateStyle and IntervalStyle send the new
// value to the client (ParameterStatus), as PostgreSQL does, so that a
// driver that needs ISO (JDBC) can tell; values in text format follow
// the style, values in binary format do not, and pgx reads dates right
// either way it asks for them.
func TestDateStyleReported(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c, err := pgx.Connect(ctx(t), connString(addr))
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
	status("DateStyle", "ISO, MDY")
	status("IntervalStyle", "postgres")
	mustExec(t, c, "SET DateStyle = German")
	status("DateStyle", "German, DMY")
	mustExec(t, c, "SET DateStyle = 'SQL'")
	status("DateStyle", "SQL, DMY")
	mustExec(t, c, "SET IntervalStyle = iso_8601")
	status("IntervalStyle", "iso_8601")

	// Text format: the server writes the style.
	rs, err := c.PgConn().Exec(ctx(t), "SELECT date '2024-03-05', interval '1 day 2 hours', timestamp '2024-03-05 14:07:09'").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	row := rs[0].Rows[0]
	if got := [3]string{string(row[0]), string(row[1]), string(row[2])}; got != [3]string{"05/03/2024", "P1DT2H", "05/03/2024 14:07:09"} {
		t.Errorf("text format: %q", got)
	}
	// Binary format (pgx's extended protocol): the value itself.
	var d time.Time
	var iv time.Duration
	if err := c.QueryRow(ctx(t), "SELECT date '2024-03-05', interval '2 hours'").Scan(&d, &iv); err != nil {
		t.Fatal(err)
	}
	if d.Format(time.DateOnly) != "2024-03-05" || iv != 2*time.Hour {
		t.Errorf("binary format: %v %v", d, iv)
	}
	mustExec(t, c, "BEGIN")
	mustExec(t, c, "SET DateStyle = Postgres")
	status("DateStyle", "Postgres, DMY")
	mustExec(t, c, "ROLLBACK")
	status("DateStyle", "SQL, DMY")
	mustExec(t, c, "RESET DateStyle")
	status("DateStyle", "ISO, MDY")
}
