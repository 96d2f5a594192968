package pgwire_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestCopyBinaryColumnName sends binary COPY rows whose second field is
// an int8 to a table whose second column, "B x", is an int4: the error
// and its CONTEXT, which names the column by its name, unquoted, must be
// PostgreSQL's.
func TestCopyBinaryColumnName(t *testing.T) {
	data := []byte("PGCOPY\n\xff\r\n\x00")
	data = append(data, 0, 0, 0, 0, 0, 0, 0, 0) // flags, extension length
	data = append(data, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1)
	data = append(data, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 2)
	data = append(data, 0xff, 0xff)
	run := func(c *pgx.Conn) *pgconn.PgError {
		ctx := context.Background()
		if _, err := c.Exec(ctx, `CREATE TABLE e10b (a int, "B x" int)`); err != nil {
			t.Fatal(err)
		}
		_, err := c.PgConn().CopyFrom(ctx, bytes.NewReader(data), "COPY e10b FROM STDIN (FORMAT binary)")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) {
			t.Fatalf("COPY: %v", err)
		}
		return pe
	}
	got := run(connect(t, startServer(t, deltaview.OpenWith(deltaview.Options{}))))
	want := run(pgtest.Start(t).Conn(t))
	if got.Code != want.Code || got.Message != want.Message || got.Where != want.Where {
		t.Fatalf("deltaview %s %q (%q), PostgreSQL %s %q (%q)", got.Code, got.Message, got.Where, want.Code, want.Message, want.Where)
	}
}
