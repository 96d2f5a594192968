package pgwire_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestCopyTo: COPY … TO STDOUT through the copy protocol, read by pgx
// and by psql's \copy (which writes the client's file), and COPY … TO a
// file of the server's.
func TestCopyTo(t *testing.T) {
	dir := t.TempDir()
	addr := startServer(t, deltaview.OpenWith(deltaview.Options{CreateFile: func(name string) (io.WriteCloser, error) { return os.Create(name) }}))
	c := connect(t, addr)
	mustExec(t, c, `CREATE TABLE t (a int PRIMARY KEY, b text)`)
	mustExec(t, c, `INSERT INTO t VALUES (1, E'line\nbreak'), (2, NULL), (3, 'x,y')`)

	var buf bytes.Buffer
	tag, err := c.PgConn().CopyTo(ctx(t), &buf, `COPY t TO STDOUT (FORMAT csv, HEADER)`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a,b\n1,\"line\nbreak\"\n2,\n3,\"x,y\"\n"; buf.String() != want || tag.String() != "COPY 3" {
		t.Fatalf("pgx read %q (%s), want %q", buf.String(), tag, want)
	}

	psql := pgtest.Psql(t)
	out := filepath.Join(dir, "client.txt")
	cmd := exec.Command(psql, "-X", "-v", "ON_ERROR_STOP=1", "-d", connString(addr), "-c", `\copy (SELECT a, b FROM t ORDER BY a DESC) TO '`+out+`'`)
	if o, err := cmd.CombinedOutput(); err != nil || string(o) != "COPY 3\n" {
		t.Fatalf("psql \\copy: %v\n%s", err, o)
	}
	if got, _ := os.ReadFile(out); string(got) != "3\tx,y\n2\t\\N\n1\tline\\nbreak\n" {
		t.Fatalf("psql's \\copy wrote %q", got)
	}

	server := filepath.Join(dir, "server.csv")
	mustExec(t, c, `COPY (SELECT a FROM t WHERE a > 1 ORDER BY a) TO '`+server+`' (FORMAT csv)`)
	if got, _ := os.ReadFile(server); string(got) != "2\n3\n" {
		t.Fatalf("COPY TO a file wrote %q", got)
	}
}

// TestCopyBinary: pgx's CopyFrom (the binary format through COPY … FROM
// STDIN) loads the same rows into deltaview and PostgreSQL, whose COPY …
// TO STDOUT then write the same bytes in the text and binary formats; a
// row of the wrong width fails with PostgreSQL's SQLSTATE and loads
// nothing.
func TestCopyBinary(t *testing.T) {
	const create = `CREATE TABLE t (a int PRIMARY KEY, b text, c float8, d timestamptz, e numeric, f int[], g jsonb, h bytea, i bool, j date, k interval, l int8, m uuid)`
	cols := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"}
	rows := [][]any{
		{1, "x\ty\\z\nw", 1.5, time.Date(2020, 1, 2, 3, 4, 5, 600, time.UTC), "12.50", []int32{1, 2}, map[string]any{"k": []any{1, "v"}}, []byte{0, 255}, true, time.Date(2021, 5, 6, 0, 0, 0, 0, time.UTC), 90 * time.Minute, int64(-1) << 40, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{2, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{3, "", -0.25, time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC), "-0.001", []int32{}, "null", []byte{}, false, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), -time.Second, int64(7), "00000000-0000-0000-0000-000000000000"},
	}
	run := func(c *pgx.Conn) (text, bin string, bad string) {
		t.Helper()
		mustExec(t, c, `SET TimeZone = 'UTC'`)
		mustExec(t, c, create)
		if n, err := c.CopyFrom(ctx(t), pgx.Identifier{"t"}, cols, pgx.CopyFromRows(rows)); err != nil || n != 3 {
			t.Fatalf("CopyFrom: %d rows, %v", n, err)
		}
		_, err := c.CopyFrom(ctx(t), pgx.Identifier{"t"}, cols[:2], pgx.CopyFromRows([][]any{{4, "y"}, {5}}))
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			bad = pe.Code
		}
		var tb, bb bytes.Buffer
		if _, err := c.PgConn().CopyTo(ctx(t), &tb, `COPY t TO STDOUT`); err != nil {
			t.Fatal(err)
		}
		if _, err := c.PgConn().CopyTo(ctx(t), &bb, `COPY (SELECT * FROM t ORDER BY a) TO STDOUT (FORMAT binary)`); err != nil {
			t.Fatal(err)
		}
		return tb.String(), bb.String(), bad
	}
	dt, db, dbad := run(connect(t, startServer(t, deltaview.Open())))
	pt, pb, pbad := run(pgtest.Start(t).Conn(t))
	if dt != pt {
		t.Errorf("text: deltaview\n%s\nPostgreSQL\n%s", dt, pt)
	}
	if db != pb {
		t.Errorf("binary: deltaview\n%q\nPostgreSQL\n%q", db, pb)
	}
	if dbad != pbad || dbad == "" {
		t.Errorf("a row of the wrong width: deltaview %q, PostgreSQL %q", dbad, pbad)
	}
}
