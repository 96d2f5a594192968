package pgwire_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestCopyBinaryFile: COPY … TO 'file' (FORMAT binary) writes the bytes
// PostgreSQL's COPY … TO STDOUT (FORMAT binary) sends for the same rows,
// numerics of every scale among them; COPY … FROM 'file' (FORMAT binary)
// of those bytes loads what PostgreSQL loads from them, and a damaged
// file fails with PostgreSQL's SQLSTATE and loads nothing.
func TestCopyBinaryFile(t *testing.T) {
	dir := t.TempDir()
	addr := startServer(t, deltaview.OpenWith(deltaview.Options{
		CreateFile: func(name string) (io.WriteCloser, error) { return os.Create(name) },
		OpenFile:   func(name string) (io.ReadCloser, error) { return os.Open(name) },
	}))
	dc, pc := connect(t, addr), pgtest.Start(t).Conn(t)
	const create = `CREATE TABLE bf (a int PRIMARY KEY, b text, c numeric, d float8, e timestamptz, f int[], g jsonb, h bytea, i bool, j interval, k date, l int8)`
	const insert = `INSERT INTO bf VALUES
(1, E'x\ty\\z', 1.50, 1.5, '2020-01-02 03:04:05.6+00', '{1,2}', '{"k": [1, "v"]}', '\x00ff', true, '1 day 2 hours', '2021-05-06', -1099511627776),
(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
(3, '', -0.001, -0.25, '1999-12-31 23:59:59+00', '{}', 'null', '\x', false, '-1 sec', '0001-01-01', 7),
(4, 'é', 123456789.000012345, 'NaN', 'infinity', '{{1,2},{3,4}}', '[]', '\x01', NULL, '3 mons', 'infinity', 0),
(5, 'big', 10000000000000000000000.0000000000001, '-Infinity', '-infinity', '{NULL,3}', '{}', '\x', true, '0', '2000-01-01', 1),
(6, 'zeros', 0.00, 0, '2000-01-01 00:00:00+00', '[0:1]={5,6}', '1', '\x', false, '1 year', '1970-01-01', 2),
(7, 'nan', 'NaN', 1e300, '2000-01-01 00:00:00+00', NULL, '"s"', NULL, true, NULL, NULL, 3),
(8, 'inf', '-Infinity', -1e-300, '2000-01-01 00:00:00+00', '{-1}', 'true', NULL, true, NULL, NULL, 4),
(9, 'int', 100, 2, '2000-01-01 00:00:00+00', '{7}', '2', NULL, true, NULL, NULL, 5),
(10, 'small', 0.0000000001, 3, '2000-01-01 00:00:00+00', '{8}', '3', NULL, true, NULL, NULL, 6),
(11, 'pinf', 'Infinity', 4.5, '2000-01-01 00:00:00+00', '{9}', '4', NULL, true, NULL, NULL, 7)`
	for _, c := range []*pgx.Conn{dc, pc} {
		mustExec(t, c, `SET TimeZone = 'UTC'`)
		mustExec(t, c, create)
		mustExec(t, c, insert)
		mustExec(t, c, `CREATE TABLE bf2 (LIKE bf)`)
	}
	file := filepath.Join(dir, "bf.bin")
	mustExec(t, dc, `COPY (SELECT * FROM bf ORDER BY a) TO '`+file+`' (FORMAT binary)`)
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if _, err := pc.PgConn().CopyTo(ctx(t), &want, `COPY (SELECT * FROM bf ORDER BY a) TO STDOUT (FORMAT binary)`); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		i := 0
		for i < min(len(got), len(want.Bytes())) && got[i] == want.Bytes()[i] {
			i++
		}
		t.Fatalf("binary file differs from byte %d: deltaview\n%q\nPostgreSQL\n%q", i, got[i:min(len(got), i+40)], want.Bytes()[i:min(len(want.Bytes()), i+40)])
	}

	// PostgreSQL's bytes, loaded from a file here and through the copy
	// protocol there.
	pgFile := filepath.Join(dir, "pg.bin")
	if err := os.WriteFile(pgFile, want.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, dc, `COPY bf2 FROM '`+pgFile+`' WITH (FORMAT binary)`)
	if _, err := pc.PgConn().CopyFrom(ctx(t), bytes.NewReader(want.Bytes()), `COPY bf2 FROM STDIN (FORMAT binary)`); err != nil {
		t.Fatal(err)
	}
	text := func(c *pgx.Conn) string {
		var b bytes.Buffer
		if _, err := c.PgConn().CopyTo(ctx(t), &b, `COPY (SELECT * FROM bf2 ORDER BY a) TO STDOUT`); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if d, p := text(dc), text(pc); d != p {
		t.Fatalf("rows loaded: deltaview\n%s\nPostgreSQL\n%s", d, p)
	}

	// A damaged file: a bad signature, a row cut short, a field count
	// that is not the table's.
	for _, data := range [][]byte{
		[]byte("PGCOPY\n\xff\r\nX\x00\x00\x00\x00\x00\x00\x00\x00"),
		want.Bytes()[:len(want.Bytes())/2],
		append(append([]byte("PGCOPY\n\xff\r\n\x00"), make([]byte, 8)...), 0, 1, 0, 0, 0, 1, 1, 0xff, 0xff),
	} {
		bad := filepath.Join(dir, "bad.bin")
		if err := os.WriteFile(bad, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, derr := dc.Exec(ctx(t), `COPY bf2 FROM '`+bad+`' (FORMAT binary)`)
		_, perr := pc.PgConn().CopyFrom(ctx(t), bytes.NewReader(data), `COPY bf2 FROM STDIN (FORMAT binary)`)
		var dpe, ppe *pgconn.PgError
		if !errors.As(derr, &dpe) || !errors.As(perr, &ppe) || dpe.Code != ppe.Code {
			t.Errorf("damaged file %q: deltaview %v, PostgreSQL %v", data[:min(len(data), 24)], derr, perr)
		}
	}
	if d, p := text(dc), text(pc); d != p {
		t.Fatalf("rows after damaged files: deltaview\n%s\nPostgreSQL\n%s", d, p)
	}
}
