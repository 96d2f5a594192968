package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/pgwire"
)

// login connects to a server of db as user with password and runs q,
// returning the error of either.
func login(t *testing.T, db *deltaview.DB, user, password, q string) error {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	done := make(chan error, 1)
	go func() { done <- pgwire.Serve(ctx, db, ln, pgwire.Options{Logf: t.Logf}) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	c, err := pgx.Connect(ctx, fmt.Sprintf("host=%s port=%s user=%s password=%s dbname=deltaview sslmode=disable connect_timeout=5", host, port, user, password))
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	_, err = c.Exec(ctx, q)
	return err
}

// pgCode is the SQLSTATE of a server's error.
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// fileBytes is the database file with its write-ahead log.
func fileBytes(t *testing.T, path string) []byte {
	t.Helper()
	var all []byte
	for _, p := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(p)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// TestRolesSurvive checks that roles and privileges are kept in the file:
// after a restart a role logs in with its password and holds exactly the
// privileges it held, a dropped role and the privileges on a dropped
// relation stay gone, and the file holds no password, only verifiers.
func TestRolesSurvive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE t (id int PRIMARY KEY, v int);
		CREATE TABLE gone (id int);
		INSERT INTO t VALUES (1, 10);
		CREATE ROLE admin LOGIN SUPERUSER PASSWORD 'admin-secret-1';
		CREATE ROLE alice LOGIN PASSWORD 'first-secret-2';
		ALTER ROLE alice PASSWORD 'alice-secret-3';
		CREATE USER bob PASSWORD 'bob-secret-4';
		CREATE ROLE carol LOGIN PASSWORD 'carol-secret-5';
		CREATE ROLE nologin;
		GRANT SELECT, INSERT, UPDATE ON t TO alice;
		REVOKE UPDATE ON t FROM alice;
		GRANT SELECT ON t TO PUBLIC;
		GRANT ALL ON gone TO bob;
		GRANT SELECT ON t TO carol;
		REVOKE SELECT ON t FROM carol;
		DROP ROLE carol;
		ALTER ROLE bob NOLOGIN;
		DROP TABLE gone;
		CREATE TABLE gone (id int)`)
	want := dbaccess.Engine(db).Grants()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw := fileBytes(t, path)
	for _, pw := range []string{"admin-secret-1", "first-secret-2", "alice-secret-3", "bob-secret-4", "carol-secret-5"} {
		if bytes.Contains(raw, []byte(pw)) {
			t.Errorf("the file holds the password %q", pw)
		}
	}
	if !bytes.Contains(raw, []byte("SCRAM-SHA-256$")) {
		t.Error("the file holds no SCRAM-SHA-256 verifier")
	}

	db = open(t, path)
	defer db.Close()
	e := dbaccess.Engine(db)
	if got := e.Grants(); !slices.Equal(got, want) {
		t.Errorf("privileges after reopening:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(want, []string{"t PUBLIC SELECT", "t alice SELECT, INSERT"}) {
		t.Errorf("privileges: %q", want)
	}
	for _, c := range []struct {
		name             string
		exists           bool
		login, superuser bool
		password         string
	}{
		{"admin", true, true, true, "admin-secret-1"},
		{"alice", true, true, false, "alice-secret-3"},
		{"bob", true, false, false, "bob-secret-4"},
		{"nologin", true, false, false, ""},
		{"carol", false, false, false, ""},
	} {
		r, ok := e.Role(c.name)
		if ok != c.exists || r.Login != c.login || r.Superuser != c.superuser || r.HasPassword != (c.password != "") {
			t.Errorf("role %s after reopening: %+v, exists %v", c.name, r, ok)
			continue
		}
		if c.password != "" && !r.Verifier.Check(c.password) {
			t.Errorf("role %s: its password no longer matches", c.name)
		}
	}

	s, err := db.SessionAs("alice")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Query("SELECT * FROM t"); err != nil {
		t.Errorf("alice's SELECT: %v", err)
	}
	if err := s.Exec("INSERT INTO t VALUES (2, 20)"); err != nil {
		t.Errorf("alice's INSERT: %v", err)
	}
	if err := s.Exec("UPDATE t SET v = 0 WHERE id = 1"); deltaview.Code(err) != "42501" {
		t.Errorf("alice's UPDATE, revoked: %v", err)
	}
	if _, err := s.Query("SELECT * FROM gone"); deltaview.Code(err) != "42501" {
		t.Errorf("alice reads a table never granted: %v", err)
	}
	if _, err := db.SessionAs("carol"); deltaview.Code(err) != "42704" {
		t.Errorf("the dropped role carol: %v", err)
	}
	b, err := db.SessionAs("bob")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Exec("INSERT INTO gone VALUES (1)"); deltaview.Code(err) != "42501" {
		t.Errorf("bob's privileges on a dropped table came back: %v", err)
	}

	// Over the wire: the password logs in, a wrong one does not, and the
	// role without LOGIN is refused.
	if err := login(t, db, "alice", "alice-secret-3", "SELECT * FROM t"); err != nil {
		t.Errorf("alice logs in: %v", err)
	}
	if err := login(t, db, "alice", "first-secret-2", "SELECT 1"); pgCode(err) != "28P01" {
		t.Errorf("alice with her old password: %v", err)
	}
	if err := login(t, db, "bob", "bob-secret-4", "SELECT 1"); pgCode(err) != "28000" {
		t.Errorf("bob, NOLOGIN: %v", err)
	}
	if err := login(t, db, "admin", "admin-secret-1", "CREATE TABLE made_by_admin (id int)"); err != nil {
		t.Errorf("admin logs in and creates a table: %v", err)
	}
}

// TestRoleChangeRefused checks that a role statement the file cannot
// take is refused and leaves the catalog as it was.
func TestRoleChangeRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.db")
	db := open(t, path)
	execSQL(t, db, "CREATE TABLE t (id int); CREATE ROLE alice LOGIN PASSWORD 'pw'")
	if err := db.Close(); err != nil { // every later change is refused
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE ROLE bob", "ALTER ROLE alice SUPERUSER", "DROP ROLE alice", "GRANT SELECT ON t TO alice"} {
		if err := db.Exec(q); deltaview.Code(err) != "58030" {
			t.Errorf("%s on a closed file: %v", q, err)
		}
	}
	e := dbaccess.Engine(db)
	if r, ok := e.Role("alice"); !ok || r.Superuser {
		t.Errorf("alice after refused changes: %+v, %v", r, ok)
	}
	if _, ok := e.Role("bob"); ok {
		t.Error("bob was created in memory though the file refused him")
	}
	if g := e.Grants(); len(g) != 0 {
		t.Errorf("privileges after a refused GRANT: %q", g)
	}
}

// TestFormat1GainsRoles checks that a file of format 1, written before
// roles were kept, opens with its data and keeps roles from then on.
func TestFormat1GainsRoles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	db := open(t, path)
	execSQL(t, db, "CREATE TABLE t (id int); INSERT INTO t VALUES (7)")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE deltaview_roles", "DROP TABLE deltaview_grants", "ALTER TABLE t DROP COLUMN deltaview_ts", "DROP TABLE deltaview_subscriptions", "DROP TABLE deltaview_servers", "DROP TABLE deltaview_foreign_tables", "DROP TABLE deltaview_sequences", "DROP TABLE deltaview_comments", "DROP TABLE deltaview_domains", "DROP TABLE deltaview_types", "DROP TABLE deltaview_schemas", "PRAGMA user_version = 1"} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db = open(t, path)
	execSQL(t, db, "CREATE ROLE alice LOGIN PASSWORD 'pw'; GRANT SELECT ON t TO alice")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	if got := query(t, db, "SELECT id FROM t"); !slices.Equal(got, []string{"integer:7"}) {
		t.Errorf("rows of the format 1 file: %q", got)
	}
	if got := dbaccess.Engine(db).Grants(); !slices.Equal(got, []string{"t alice SELECT"}) {
		t.Errorf("privileges: %q", got)
	}
}
