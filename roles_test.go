package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview"
)

// TestSessionAs checks that a session acting as a role has the role's
// privileges, for SQL and for the typed API, while the DB's own methods
// and Session act as a superuser.
func TestSessionAs(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(`CREATE TABLE t (id int PRIMARY KEY, v int);
		CREATE ROLE reader LOGIN PASSWORD 'pw';
		GRANT SELECT ON t TO reader`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SessionAs("nobody"); deltaview.Code(err) != "42704" {
		t.Fatalf("SessionAs an unknown role: %v", err)
	}
	s, err := db.SessionAs("reader")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Role() != "reader" {
		t.Errorf("Role() = %q", s.Role())
	}
	if _, err := s.Query("SELECT * FROM t"); err != nil {
		t.Errorf("SELECT with the grant: %v", err)
	}
	if err := s.Exec("INSERT INTO t VALUES (1, 1)"); deltaview.Code(err) != "42501" {
		t.Errorf("INSERT without the grant: %v", err)
	}
	tx, err := s.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("t", deltaview.Int(1), deltaview.Int(1)); deltaview.Code(err) != "42501" {
		t.Errorf("typed Insert without the grant: %v", err)
	}
	tx.Rollback()
	if err := db.Exec("GRANT INSERT ON t TO reader"); err != nil {
		t.Fatal(err)
	}
	tx, err = s.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Insert("t", deltaview.Int(1), deltaview.Int(1)); err != nil {
		t.Errorf("typed Insert with the grant: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	plain := db.Session()
	defer plain.Close()
	if plain.Role() != "" || !db.HasRoles() {
		t.Error("a plain session has a role, or the DB has none")
	}
}
