package store_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	"github.com/deltaview/deltaview"
)

// domainSchema makes domains, one over another, altered after creation
// (a constraint NOT VALID, a renamed constraint, a renamed domain), a
// table with columns of them and views over the table.
const domainSchema = `
	CREATE DOMAIN pos AS int CHECK (VALUE > 0);
	CREATE DOMAIN small AS pos DEFAULT 5 NOT NULL CONSTRAINT lt100 CHECK (VALUE < 100);
	CREATE DOMAIN tag AS text COLLATE "C";
	CREATE TABLE t (id int PRIMARY KEY, s small, g tag);
	INSERT INTO t VALUES (1, 10, 'x'), (2, 50, 'y');
	INSERT INTO t (id, g) VALUES (3, 'z');
	ALTER DOMAIN small ADD CONSTRAINT under40 CHECK (VALUE < 40) NOT VALID;
	ALTER DOMAIN pos RENAME CONSTRAINT pos_check TO positive;
	ALTER DOMAIN tag RENAME TO label;
	ALTER TABLE t ADD COLUMN n pos;
	CREATE MATERIALIZED VIEW v AS SELECT g, sum(s) AS total FROM t GROUP BY g;
	CREATE MATERIALIZED VIEW w AS SELECT id, s::pos AS s FROM t;
`

// TestDomainsReopen: domains and the columns of them survive a reopening
// with their constraints, defaults and names, and so do the views over
// them; a file of format 7 gains the table of domains.
func TestDomainsReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "domains.db")
	db := open(t, path)
	execSQL(t, db, domainSchema)
	want := query(t, db, "SELECT * FROM t ORDER BY id")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	checkDomains(t, db, want)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	// Format 7: no table of domains.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"DROP TABLE t", "DELETE FROM deltaview_catalog", "DROP TABLE deltaview_domains", "DROP TABLE deltaview_types", "DROP TABLE deltaview_schemas", "PRAGMA user_version = 7"} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db = open(t, path)
	defer db.Close()
	execSQL(t, db, "CREATE DOMAIN pos AS int CHECK (VALUE > 0)")
	if got := query(t, db, "SELECT 3::pos"); !slices.Equal(got, []string{"integer:3"}) {
		t.Errorf("a domain in an upgraded file: %q", got)
	}
}

// TestDomainsCrash: a file copied while open, as a crash leaves it,
// opens with its domains.
func TestDomainsCrash(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "domains.db")
	db := open(t, path)
	execSQL(t, db, domainSchema)
	want := query(t, db, "SELECT * FROM t ORDER BY id")
	crashed := filepath.Join(dir, "crashed.db")
	for _, suffix := range []string{"", "-wal"} {
		copyFile(t, path+suffix, crashed+suffix)
	}
	db.Close()
	db = open(t, crashed)
	defer db.Close()
	checkDomains(t, db, want)
}

// checkDomains checks that db holds domainSchema's state: its rows,
// every constraint where it was, and its views maintained.
func checkDomains(t *testing.T, db *deltaview.DB, want []string) {
	t.Helper()
	if got := query(t, db, "SELECT * FROM t ORDER BY id"); !slices.Equal(got, want) {
		t.Errorf("rows after reopening: %q, want %q", got, want)
	}
	for stmt, code := range map[string]string{
		"INSERT INTO t VALUES (4, 0, 'a')":    "23514", // pos's positive
		"INSERT INTO t VALUES (4, 45, 'a')":   "23514", // small's under40, NOT VALID
		"INSERT INTO t VALUES (4, NULL, 'a')": "23502", // small's NOT NULL
		"INSERT INTO t VALUES (4, 1, 'a', 0)": "23514", // the added column's pos
		"SELECT 0::pos":                       "23514",
		"CREATE DOMAIN tag AS int":            "",      // renamed away
		"DROP DOMAIN label":                   "2BP01", // t.g
	} {
		err := db.Exec(stmt)
		if got := codeOf(err); got != code {
			t.Errorf("%s: %v, want SQLSTATE %q", stmt, err, code)
		}
	}
	execSQL(t, db, "UPDATE t SET id = id + 10 WHERE id = 2") // 50 is NOT VALID under40: an unchanged value is not checked
	execSQL(t, db, "INSERT INTO t (id, g) VALUES (4, 'x')")  // small's DEFAULT
	if got := query(t, db, "SELECT g, total FROM v ORDER BY g"); !slices.Equal(got, []string{"text:x | bigint:15", "text:y | bigint:50", "text:z | bigint:5"}) {
		t.Errorf("view v after reopening: %q", got)
	}
	if got := query(t, db, "SELECT count(*) FROM w"); !slices.Equal(got, []string{"bigint:4"}) {
		t.Errorf("view w after reopening: %q", got)
	}
}

func codeOf(err error) string {
	if err == nil {
		return ""
	}
	return deltaview.Code(err)
}
