package pgwire_test

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestPsqlDescribePartitions compares psql's \d and \d+ of partitioned
// tables and of partitions, through deltaview and PostgreSQL: the
// partition key, the partitions with their bounds (or their number),
// a partition's parent and bound.
func TestPsqlDescribePartitions(t *testing.T) {
	script := `CREATE TABLE p (a int, b text) PARTITION BY RANGE (a);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10);
CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10) TO (20);
CREATE TABLE l (k text NOT NULL, v int) PARTITION BY LIST (k);
CREATE TABLE l1 PARTITION OF l FOR VALUES IN ('a', 'b');
CREATE TABLE ld PARTITION OF l DEFAULT;
CREATE TABLE h (id int, x int) PARTITION BY HASH (id);
CREATE TABLE h0 PARTITION OF h FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE h1 PARTITION OF h FOR VALUES WITH (MODULUS 2, REMAINDER 1);
`
	cmds := []string{`\d p`, `\d+ p`, `\d p1`, `\d l`, `\d+ l`, `\d ld`, `\d h`, `\d h1`}
	comparePsql(t, script, cmds)
}

// comparePsql runs each psql command in cmds against deltaview and
// against PostgreSQL, both after script, and fails unless their outputs
// are the same, byte for byte.
func comparePsql(t *testing.T, script string, cmds []string) {
	t.Helper()
	comparePsqlAs(t, script, script, cmds)
}

// comparePsqlAs is comparePsql with a script for each server.
func comparePsqlAs(t *testing.T, dvScript, pgScript string, cmds []string) {
	t.Helper()
	psql := pgtest.Psql(t)
	run := func(conn string) string {
		var out []string
		for _, cmd := range cmds {
			c, cancel := context.WithTimeout(context.Background(), time.Minute)
			o, _ := exec.CommandContext(c, psql, "-X", "-c", cmd, conn).CombinedOutput()
			cancel()
			out = append(out, string(o))
		}
		return strings.Join(out, "")
	}
	db := deltaview.Open()
	if err := db.Exec(dvScript); err != nil {
		t.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(startServer(t, db))
	got := run(fmt.Sprintf("host=%s port=%s user=deltaview dbname=deltaview sslmode=disable", host, port))
	srv := pgtest.Start(t)
	pc := srv.Conn(t)
	if _, err := pc.Exec(ctx(t), pgScript); err != nil {
		t.Fatal(err)
	}
	want := run(srv.ConnString(pc.Config().Database))
	if got != want {
		t.Fatalf("deltaview:\n%s\nPostgreSQL:\n%s", got, want)
	}
}

// TestPsqlDescribePartitionForeignKeys compares psql's \d of partitioned
// tables that reference and are referenced, of their partitions and of a
// plain table referencing a partitioned one, through deltaview and
// PostgreSQL: each shows the constraints of the tables as they were
// declared, none that PostgreSQL made from them on partitions.
func TestPsqlDescribePartitionForeignKeys(t *testing.T) {
	script := `CREATE TABLE p (id int, k int, PRIMARY KEY (id, k)) PARTITION BY RANGE (k);
CREATE TABLE p1 PARTITION OF p FOR VALUES FROM (0) TO (10);
CREATE TABLE p2 PARTITION OF p FOR VALUES FROM (10) TO (20);
CREATE TABLE c (a int, id int, k int, FOREIGN KEY (id, k) REFERENCES p ON DELETE CASCADE) PARTITION BY LIST (a);
CREATE TABLE c1 PARTITION OF c FOR VALUES IN (1);
CREATE TABLE d (id int, k int, CONSTRAINT dfk FOREIGN KEY (id, k) REFERENCES p);
`
	comparePsql(t, script, []string{`\d p`, `\d c`, `\d c1`, `\d d`})
}
