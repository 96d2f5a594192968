package store_test

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSequencesReopen: sequences, serial and identity columns keep their
// definitions and values across a clean close and open; the numbers go on
// where they stopped.
func TestSequencesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seq.db")
	db := open(t, path)
	execSQL(t, db, `CREATE SEQUENCE s INCREMENT 5 START 10;
		CREATE TABLE t (id serial PRIMARY KEY, n int DEFAULT nextval('s'), v text);
		CREATE TABLE g (id bigint GENERATED ALWAYS AS IDENTITY (START WITH 100), v int);
		INSERT INTO t (v) VALUES ('a'), ('b');
		INSERT INTO g (v) VALUES (1);
		CREATE SEQUENCE gone; DROP SEQUENCE gone`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	execSQL(t, db, "INSERT INTO t (v) VALUES ('c'); INSERT INTO g (v) VALUES (2)")
	if got, want := query(t, db, "SELECT id, n, v FROM t ORDER BY id"), []string{
		"integer:1 | integer:10 | text:a", "integer:2 | integer:15 | text:b", "integer:3 | integer:20 | text:c"}; !slices.Equal(got, want) {
		t.Errorf("t after reopening: %q, want %q", got, want)
	}
	if got, want := query(t, db, "SELECT id, v FROM g ORDER BY id"), []string{"bigint:100 | integer:1", "bigint:101 | integer:2"}; !slices.Equal(got, want) {
		t.Errorf("g after reopening: %q, want %q", got, want)
	}
	if err := db.Exec("INSERT INTO g VALUES (1, 3)"); err == nil {
		t.Error("the identity column lost GENERATED ALWAYS on reopening")
	}
	if err := db.Exec("SELECT nextval('gone')"); err == nil {
		t.Error("a dropped sequence came back on reopening")
	}
	execSQL(t, db, "ALTER SEQUENCE s RESTART WITH 1000; SELECT setval('t_id_seq', 50); DROP TABLE g")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	if got, want := query(t, db, "SELECT nextval('s'), nextval('t_id_seq')"), []string{"bigint:1000 | bigint:51"}; !slices.Equal(got, want) {
		t.Errorf("after ALTER and setval and reopening: %q, want %q", got, want)
	}
	if err := db.Exec("SELECT nextval('g_id_seq')"); err == nil {
		t.Error("the sequence of a dropped table's identity column came back")
	}
}

// TestSequenceCrash: a copy of the file taken while it is open, as a
// crash leaves it, continues every sequence after each number handed
// out: some are skipped, none is handed out twice.
func TestSequenceCrash(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "seq.db")
	db := open(t, path)
	execSQL(t, db, "CREATE TABLE t (id bigserial, v int); CREATE SEQUENCE down INCREMENT -1")
	seen := map[string]bool{}
	for range 200 {
		id := query(t, db, "INSERT INTO t (v) VALUES (1) RETURNING id")
		d := query(t, db, "SELECT nextval('down')")
		seen["t "+id[0]], seen["down "+d[0]] = true, true
	}
	crashed := filepath.Join(dir, "crashed.db")
	for _, suffix := range []string{"", "-wal"} {
		copyFile(t, path+suffix, crashed+suffix)
	}
	db.Close()
	db = open(t, crashed)
	defer db.Close()
	for range 100 {
		id := query(t, db, "INSERT INTO t (v) VALUES (1) RETURNING id")
		d := query(t, db, "SELECT nextval('down')")
		if seen["t "+id[0]] || seen["down "+d[0]] {
			t.Fatalf("after the crash, %s or %s was handed out again", id[0], d[0])
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
}
