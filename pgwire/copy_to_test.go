package pgwire_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

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
