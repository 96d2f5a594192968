package pgwire_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestCopyEncoding: COPY … (ENCODING) through the copy protocol, on
// deltaview and on PostgreSQL: LATIN1 and WIN1252 bytes loaded by COPY …
// FROM STDIN and written back by COPY … TO STDOUT are the same on both;
// a byte that does not convert, or NUL, fails with PostgreSQL's SQLSTATE,
// message and line (in the context); a client in SQL_ASCII (psql in the
// C locale) is read as UTF8, as PostgreSQL reads it.
func TestCopyEncoding(t *testing.T) {
	addr := startServer(t, deltaview.OpenWith(deltaview.Options{}))
	dv := connect(t, addr)
	pg := pgtest.Start(t).Conn(t)
	for _, c := range []*pgx.Conn{dv, pg} {
		mustExec(t, c, `CREATE TABLE e (id int PRIMARY KEY, s text)`)
	}
	type outcome struct {
		out     string
		code    string
		message string
		where   string
		detail  string
	}
	run := func(c *pgx.Conn, in, stmt string) outcome {
		var o outcome
		var err error
		if in != "" {
			_, err = c.PgConn().CopyFrom(ctx(t), strings.NewReader(in), stmt)
		} else {
			var buf bytes.Buffer
			_, err = c.PgConn().CopyTo(ctx(t), &buf, stmt)
			o.out = buf.String()
		}
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			// Both have sent the rows before the failing one.
			o.code, o.message, o.where, o.detail = pe.Code, pe.Message, pe.Where, pe.Detail
		} else if err != nil {
			t.Fatal(err)
		}
		return o
	}
	steps := []struct{ in, stmt string }{
		{"1\tcaf\xe9\n2\t\xc0\xff\n", `COPY e FROM STDIN (ENCODING 'LATIN1')`},
		{"3,\"\x80 \x9c\"\n", `COPY e FROM STDIN (FORMAT csv, ENCODING 'WIN1252')`},
		{"4\ta\n5\tb\x81\n", `COPY e FROM STDIN (ENCODING 'WIN1252')`},
		{"6\ta\n7\tb\x00c\n", `COPY e FROM STDIN (ENCODING 'LATIN1')`},
		{"", `COPY (SELECT * FROM e ORDER BY id) TO STDOUT`},
		{"", `COPY (SELECT * FROM e ORDER BY id) TO STDOUT (ENCODING 'LATIN1')`},
		{"", `COPY (SELECT * FROM e ORDER BY id) TO STDOUT (FORMAT csv, ENCODING 'WIN1252')`},
		{"", `COPY (SELECT s FROM e WHERE id = 3) TO STDOUT (ENCODING 'LATIN1')`},
		{"", `COPY (SELECT s FROM e ORDER BY id) TO STDOUT (ENCODING 'LATIN1')`},
		{"", `COPY (SELECT 'a' UNION ALL SELECT 'b' UNION ALL SELECT chr(26085) UNION ALL SELECT 'c') TO STDOUT (ENCODING 'EUC_KR')`},
		{"", `COPY (SELECT 'x' || chr(26085) UNION ALL SELECT chr(8364)) TO STDOUT (FORMAT csv, ENCODING 'EUC_JP')`},
	}
	for _, s := range steps {
		got, want := run(dv, s.in, s.stmt), run(pg, s.in, s.stmt)
		if got != want {
			t.Fatalf("%s:\ndeltaview %+v\nPostgreSQL %+v", s.stmt, got, want)
		}
	}

	// psql in the C locale sends client_encoding SQL_ASCII; its COPY
	// data is then read as it is.
	psql := pgtest.Psql(t)
	data := filepath.Join(t.TempDir(), "data.txt")
	cmd := exec.Command(psql, "-X", "-v", "ON_ERROR_STOP=1", "-d", connString(addr), "-c", `\copy e FROM '`+data+`'`, "-c", `SELECT s FROM e WHERE id = 8`, "-c", "SHOW client_encoding")
	cmd.Env = append(cmd.Environ(), "PGCLIENTENCODING=SQL_ASCII")
	if err := os.WriteFile(data, []byte("8\tnaïve\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if o, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(o), "naïve") || !strings.Contains(string(o), "SQL_ASCII") {
		t.Fatalf("psql: %v\n%s", err, o)
	}
}
