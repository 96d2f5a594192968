package store_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
)

// enumSorts are the labels of the enum f12 with their sort positions.
const enumSorts = "SELECT enumlabel || ' ' || enumsortorder FROM pg_enum WHERE enumtypid = 'f12'::regtype ORDER BY enumsortorder"

// TestEnumSortOrderReopen: labels added BEFORE and AFTER others keep
// their fractional sort positions (pg_enum.enumsortorder) when the file
// is opened again, and a label added after the reopen takes its place
// between them.
func TestEnumSortOrderReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sorts.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TYPE f12 AS ENUM ('sad', 'ok', 'happy');
		ALTER TYPE f12 ADD VALUE 'meh' BEFORE 'ok';
		ALTER TYPE f12 ADD VALUE 'great' AFTER 'happy';
		ALTER TYPE f12 ADD VALUE 'x1' AFTER 'sad';
		ALTER TYPE f12 ADD VALUE 'first' BEFORE 'sad';
		ALTER TYPE f12 RENAME VALUE 'x1' TO 'low';
		CREATE TABLE t (m f12 PRIMARY KEY); INSERT INTO t VALUES ('low'), ('great'), ('first')`)
	want := []string{"text:first 0", "text:sad 1", "text:low 1.25", "text:meh 1.5", "text:ok 2", "text:happy 3", "text:great 4"}
	if got := query(t, db, enumSorts); !slices.Equal(got, want) {
		t.Fatalf("before the reopen: %q, want %q", got, want)
	}
	for i := range 2 {
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		db = open(t, path)
		if got := query(t, db, enumSorts); !slices.Equal(got, want) {
			t.Errorf("open %d: %q, want %q", i+1, got, want)
		}
		if i == 0 {
			execSQL(t, db, "ALTER TYPE f12 ADD VALUE 'lower' BEFORE 'meh'")
			want = slices.Insert(want, 3, "text:lower 1.375")
		}
	}
	if got, want := query(t, db, "SELECT m FROM t ORDER BY m"), []string{"f12:first", "f12:low", "f12:great"}; !slices.Equal(got, want) {
		t.Errorf("rows: %q, want %q", got, want)
	}
	db.Close()
}

// TestFormat12EnumSorts: a file of format 12 kept an enum's labels in
// their order without their positions; opened, they read 1, 2, … (as
// they did then), the file is of the current format, and a label added
// after that keeps its fractional position through the next reopen.
func TestFormat12EnumSorts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v12.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TYPE f12 AS ENUM ('sad', 'ok');
		ALTER TYPE f12 ADD VALUE 'meh' BEFORE 'ok';
		CREATE TABLE t (m f12); INSERT INTO t VALUES ('ok'), ('meh'), ('sad')`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ALTER TABLE deltaview_types DROP COLUMN sorts", "PRAGMA user_version = 12"} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db = open(t, path)
	want := []string{"text:sad 1", "text:meh 2", "text:ok 3"}
	if got := query(t, db, enumSorts); !slices.Equal(got, want) {
		t.Errorf("format 12 opened: %q, want %q", got, want)
	}
	execSQL(t, db, "ALTER TYPE f12 ADD VALUE 'fine' AFTER 'meh'")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	want = []string{"text:sad 1", "text:meh 2", "text:fine 2.5", "text:ok 3"}
	if got := query(t, db, enumSorts); !slices.Equal(got, want) {
		t.Errorf("reopened: %q, want %q", got, want)
	}
	if got, want := query(t, db, "SELECT m FROM t ORDER BY m"), []string{"f12:sad", "f12:meh", "f12:ok"}; !slices.Equal(got, want) {
		t.Errorf("rows: %q, want %q", got, want)
	}
	checkFormatUpgraded(t, path)
}
