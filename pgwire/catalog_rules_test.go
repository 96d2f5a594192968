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

// TestPsqlDescribeRules compares psql's \d of tables and views
// with rules, through deltaview and PostgreSQL: the "Rules:" and
// "Disabled rules:" sections.
func TestPsqlDescribeRules(t *testing.T) {
	psql := pgtest.Psql(t)
	script := `CREATE TABLE t (k int PRIMARY KEY, a int);
CREATE TABLE log (k int, a int);
CREATE VIEW v AS SELECT k, a FROM t;
CREATE RULE r1 AS ON INSERT TO t DO ALSO INSERT INTO log VALUES (new.k, new.a);
CREATE RULE r2 AS ON UPDATE TO t WHERE new.a > 10 DO INSTEAD (INSERT INTO log VALUES (old.k, new.a); UPDATE log SET a = 0 WHERE k = old.k AND a > 5);
CREATE RULE r3 AS ON DELETE TO t DO INSTEAD NOTHING;
CREATE RULE v_del AS ON DELETE TO v DO INSTEAD DELETE FROM t WHERE k = old.k;
ALTER TABLE t DISABLE RULE r3;
`
	cmds := []string{`\d t`, `\d log`, `\d v`}
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
	if err := db.Exec(script); err != nil {
		t.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(startServer(t, db))
	got := run(fmt.Sprintf("host=%s port=%s user=deltaview dbname=deltaview sslmode=disable", host, port))
	srv := pgtest.Start(t)
	pc := srv.Conn(t)
	if _, err := pc.Exec(ctx(t), script); err != nil {
		t.Fatal(err)
	}
	want := run(srv.ConnString(pc.Config().Database))
	if got != want {
		t.Fatalf("deltaview:\n%s\nPostgreSQL:\n%s", got, want)
	}
}
