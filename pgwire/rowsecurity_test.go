package pgwire_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
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
