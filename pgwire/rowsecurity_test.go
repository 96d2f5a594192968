package pgwire_test

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/pgwire"
)

// TestRowSecurityTwoClients logs in two clients as two roles over one
// table under row-level security: each reads and writes only its own rows
// (the same statement, prepared by each connection, binds for each role),
// a row written for the other role is refused (42501), and a superuser
// sees every row.
func TestRowSecurityTwoClients(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE notes (id int PRIMARY KEY, owner text, body text);
INSERT INTO notes VALUES (1, 'alice', 'a1'), (2, 'bob', 'b1'), (3, 'bob', 'b2');
CREATE ROLE admin LOGIN SUPERUSER PASSWORD 'admin pw';
CREATE ROLE alice LOGIN PASSWORD 'alice pw';
CREATE ROLE bob LOGIN PASSWORD 'bob pw';
GRANT SELECT, INSERT, UPDATE, DELETE ON notes TO alice, bob;
CREATE POLICY mine ON notes USING (owner = current_user);
ALTER TABLE notes ENABLE ROW LEVEL SECURITY`); err != nil {
		t.Fatal(err)
	}
	addr := startServerWith(t, db, pgwire.Options{TLS: selfSigned(t)})
	conns := map[string]*pgx.Conn{}
	for _, who := range []string{"admin", "alice", "bob"} {
		c, err := connectAs(addr, who, who+" pw", "require")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(context.Background())
		conns[who] = c
	}
	ids := func(who string) string {
		t.Helper()
		rows, err := conns[who].Query(ctx(t), "SELECT id FROM notes WHERE id > $1 ORDER BY id", 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(got)
	}
	for who, want := range map[string]string{"alice": "[1]", "bob": "[2 3]", "admin": "[1 2 3]"} {
		if got := ids(who); got != want {
			t.Errorf("%s reads %s, want %s", who, got, want)
		}
	}
	if _, err := conns["alice"].Exec(ctx(t), "INSERT INTO notes VALUES ($1, $2, $3)", 4, "alice", "a2"); err != nil {
		t.Fatal(err)
	}
	if _, err := conns["alice"].Exec(ctx(t), "INSERT INTO notes VALUES ($1, $2, $3)", 5, "bob", "forged"); sqlstate(err) != "42501" {
		t.Errorf("alice writing bob's row: %v, want 42501", err)
	}
	tag, err := conns["bob"].Exec(ctx(t), "DELETE FROM notes WHERE body LIKE $1", "%")
	if err != nil {
		t.Fatal(err)
	}
	if tag.RowsAffected() != 2 {
		t.Errorf("bob deleted %d rows, want his 2", tag.RowsAffected())
	}
	for who, want := range map[string]string{"alice": "[1 4]", "bob": "[]", "admin": "[1 4]"} {
		if got := ids(who); got != want {
			t.Errorf("after the changes, %s reads %s, want %s", who, got, want)
		}
	}
}

// TestRowSecurityPsqlDescribe checks psql's \d of a table with policies:
// the footer says that row security is enabled and lists each policy as
// psql writes it.
func TestRowSecurityPsqlDescribe(t *testing.T) {
	psql := pgtest.Psql(t)
	db := deltaview.Open()
	if err := db.Exec(`CREATE ROLE alice;
CREATE ROLE admin LOGIN SUPERUSER PASSWORD 'admin pw';
CREATE TABLE notes (id int PRIMARY KEY, owner text);
CREATE TABLE plain (a int);
CREATE POLICY mine ON notes TO alice USING (owner = current_user) WITH CHECK (id > 0);
CREATE POLICY cap ON notes AS RESTRICTIVE FOR SELECT USING (id < 100);
ALTER TABLE notes ENABLE ROW LEVEL SECURITY;
ALTER TABLE notes FORCE ROW LEVEL SECURITY;
ALTER TABLE plain ENABLE ROW LEVEL SECURITY`); err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, db)
	host, port, _ := net.SplitHostPort(addr)
	run := func(cmd string) string {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		run := exec.CommandContext(c, psql, "-X", "-c", cmd, fmt.Sprintf("host=%s port=%s user=admin dbname=deltaview sslmode=disable", host, port))
		run.Env = append(run.Environ(), "PGPASSWORD=admin pw", "PGCONNECT_TIMEOUT=5")
		out, _ := run.CombinedOutput()
		return string(out)
	}
	out := run(`\d notes`)
	for _, want := range []string{
		"Policies (forced row security enabled):",
		"    POLICY \"cap\" AS RESTRICTIVE FOR SELECT\n      USING ((id < 100))",
		"    POLICY \"mine\"\n      TO alice\n      USING ((owner = current_user))\n      WITH CHECK ((id > 0))",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("\\d notes lacks %q:\n%s", want, out)
		}
	}
	if out := run(`\d plain`); !strings.Contains(out, "Policies (row security enabled): (none)") {
		t.Errorf("\\d plain:\n%s", out)
	}
}
