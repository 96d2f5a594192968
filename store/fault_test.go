package store_test

import (
	"bufio"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
)

// The test binary runs as a child process when childEnv names a mode:
// hold keeps a database open; sqlitelock holds SQLite's write lock on
// the file; crash commits random transactions (crash_test.go).
const childEnv = "DELTAVIEW_STORE_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "hold":
		if _, err := deltaview.OpenFile(os.Getenv("DELTAVIEW_STORE_PATH")); err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		time.Sleep(time.Minute)
	case "sqlitelock":
		db, err := sql.Open("sqlite", os.Getenv("DELTAVIEW_STORE_PATH"))
		if err == nil {
			_, err = db.Exec("BEGIN EXCLUSIVE")
		}
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		time.Sleep(time.Minute)
	case "sqliteread":
		db, err := sql.Open("sqlite", os.Getenv("DELTAVIEW_STORE_PATH"))
		if err == nil {
			db.SetMaxOpenConns(1)
			_, err = db.Exec("BEGIN")
		}
		var n int
		if err == nil {
			err = db.QueryRow("SELECT count(*) FROM t").Scan(&n)
		}
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println("ready")
		time.Sleep(time.Minute)
	case "crash":
		crashChild()
	}
	os.Exit(0)
}

// child starts the test binary in mode on path and waits for it to be
// ready; the child is killed at the end of the test.
func child(t *testing.T, mode, path string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, "DELTAVIEW_STORE_PATH="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "ready" {
		t.Fatalf("child %s: %q", mode, line)
	}
}

// newFile makes a database file with one table and a view.
func newFile(t *testing.T, path string) {
	t.Helper()
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE t (id int PRIMARY KEY, s text);
		CREATE MATERIALIZED VIEW n AS SELECT count(*) AS n FROM t;
		INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, 2000) AS g`)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if deltaview.Code(err) != code {
		t.Fatalf("%s: %v (SQLSTATE %s), want SQLSTATE %s", what, err, deltaview.Code(err), code)
	}
	t.Logf("%s: %s %v", what, code, err)
}

// mount mounts a tmpfs of size at dir, or skips the test when it cannot
// (outside CI).
func mount(t *testing.T, dir, size string) {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("mount tmpfs: %v", err)
		}
		t.Skipf("mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
}

func count(t *testing.T, db *deltaview.DB) string {
	t.Helper()
	return query(t, db, "SELECT count(*) FROM t")[0]
}

func TestLockedByAnotherDeltaview(t *testing.T) {
	path := filepath.Join(t.TempDir(), "held.db")
	newFile(t, path)
	child(t, "hold", path)
	_, err := deltaview.OpenFile(path)
	wantCode(t, "open a file another process holds", err, "55P03")
}

// TestLockedBySQLite: another process holds SQLite's write lock (a
// backup, sqlite3); a commit waits, then is refused; reads go on; the
// commit succeeds once the lock is gone.
func TestLockedBySQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locked.db")
	newFile(t, path)
	db := open(t, path)
	defer db.Close()
	execSQL(t, db, "INSERT INTO t VALUES (0, 'before')")
	lockDone := make(chan struct{})
	t.Run("held", func(t *testing.T) {
		defer close(lockDone)
		child(t, "sqlitelock", path)
		err := db.Exec("INSERT INTO t VALUES (-1, 'while locked')")
		wantCode(t, "commit while SQLite's lock is held", err, "55P03")
		if got := count(t, db); got != "bigint:2001" {
			t.Fatalf("rows after a refused commit: %s", got)
		}
		r, _ := db.View("n")
		if got := dump(r)[0]; got != "bigint:2001" {
			t.Fatalf("view after a refused commit: %s", got)
		}
	})
	<-lockDone
	execSQL(t, db, "INSERT INTO t VALUES (-1, 'after')")
	db.Close()
	db = open(t, path)
	if got := count(t, db); got != "bigint:2002" {
		t.Fatalf("rows after restart: %s", got)
	}
}

func TestCorruptedFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.db")
	newFile(t, path)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	garbled := append([]byte("this is not a SQLite file at all"), b[32:]...)
	os.WriteFile(filepath.Join(dir, "garbled.db"), garbled, 0o644)
	_, err = deltaview.OpenFile(filepath.Join(dir, "garbled.db"))
	wantCode(t, "open a garbled header", err, "XX001")

	os.WriteFile(filepath.Join(dir, "truncated.db"), b[:len(b)/2], 0o644)
	_, err = deltaview.OpenFile(filepath.Join(dir, "truncated.db"))
	wantCode(t, "open a truncated file", err, "XX001")

	// Pages of the table overwritten with noise.
	noisy := append([]byte(nil), b...)
	for i := len(noisy) / 3; i < 2*len(noisy)/3; i++ {
		noisy[i] = byte(i * 7)
	}
	os.WriteFile(filepath.Join(dir, "noisy.db"), noisy, 0o644)
	_, err = deltaview.OpenFile(filepath.Join(dir, "noisy.db"))
	wantCode(t, "open a file with noise in its pages", err, "XX001")
}

func TestNewerFormatVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "newer.db")
	newFile(t, path)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	_, err = deltaview.OpenFile(path)
	wantCode(t, "open a file of a newer format", err, "55000")
}

// TestReadOnlyFile: a file on a read-only file system opens, reads work,
// every change is refused.
func TestReadOnlyFile(t *testing.T) {
	dir := t.TempDir()
	mount(t, dir, "8m")
	path := filepath.Join(dir, "ro.db")
	newFile(t, path)
	if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatalf("remount read-only: %v", err)
	}
	db := open(t, path)
	defer db.Close()
	if got := count(t, db); got != "bigint:2000" {
		t.Fatalf("rows read from a read-only file: %s", got)
	}
	wantCode(t, "insert into a read-only file", db.Exec("INSERT INTO t VALUES (0, 'x')"), "25006")
	wantCode(t, "create a table in a read-only file", db.Exec("CREATE TABLE u (x int)"), "25006")
	wantCode(t, "drop a view in a read-only file", db.Exec("DROP MATERIALIZED VIEW n"), "25006")
	if got := count(t, db); got != "bigint:2000" {
		t.Fatalf("rows after refused changes: %s", got)
	}
	r, err := db.View("n")
	if err != nil || dump(r)[0] != "bigint:2000" {
		t.Fatalf("view after refused changes: %v %v", r, err)
	}
	if _, err := db.Query("SELECT * FROM u"); deltaview.Code(err) != "42P01" {
		t.Fatalf("a refused CREATE TABLE left the table: %v", err)
	}
}

// TestDiskFull fills a small file system: the commit that does not fit is
// refused with 53100 and leaves nothing; once space is freed the next one
// succeeds, and a restart finds exactly the acknowledged commits.
func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	mount(t, dir, "2m")
	path := filepath.Join(dir, "full.db")
	db := open(t, path)
	execSQL(t, db, "CREATE TABLE t (id int PRIMARY KEY, s text); CREATE MATERIALIZED VIEW n AS SELECT count(*) AS n, sum(length(s)) AS bytes FROM t")
	filler := filepath.Join(dir, "filler")
	if err := os.WriteFile(filler, make([]byte, 512<<10), 0o644); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("y", 100<<10)
	var err error
	id := 0
	for ; id < 100; id++ {
		if err = db.Exec(fmt.Sprintf("INSERT INTO t VALUES (%d, '%s')", id, big)); err != nil {
			break
		}
	}
	wantCode(t, "commit to a full disk", err, "53100")
	acked := id
	if got := count(t, db); got != fmt.Sprintf("bigint:%d", acked) {
		t.Fatalf("rows after a refused commit: %s, want %d", got, acked)
	}
	r, _ := db.View("n")
	if got := dump(r)[0]; !strings.HasPrefix(got, fmt.Sprintf("bigint:%d |", acked)) {
		t.Fatalf("view after a refused commit: %s", got)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	execSQL(t, db, "INSERT INTO t VALUES (1000, 'small')")
	db.Close()
	db = open(t, path)
	defer db.Close()
	if got := count(t, db); got != fmt.Sprintf("bigint:%d", acked+1) {
		t.Fatalf("rows after restart: %s, want %d", got, acked+1)
	}
	if got := query(t, db, fmt.Sprintf("SELECT count(*) FROM t WHERE id = %d", acked)); got[0] != "bigint:0" {
		t.Fatalf("the refused commit's row is in the file")
	}
	viewsEqualRecomputation(t, db, map[string]string{"n": "SELECT count(*) AS n, sum(length(s)) AS bytes FROM t"})
}

// TestBackupWhileOpen backs a database up as docs/durability.md says,
// while it is open, with another process holding a read transaction on
// it: commits go on, and the backup opens with every commit made before
// it.
func TestBackupWhileOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "live.db")
	newFile(t, path)
	db := open(t, path)
	defer db.Close()
	child(t, "sqliteread", path)
	start := time.Now()
	execSQL(t, db, "INSERT INTO t VALUES (0, 'while a reader reads')")
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("a commit waited %v for a reader", d)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "backup.db")
	if _, err := raw.Exec("VACUUM INTO ?", backup); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	execSQL(t, db, "INSERT INTO t VALUES (-1, 'after the backup')")
	b := open(t, backup)
	defer b.Close()
	if got := count(t, b); got != "bigint:2001" {
		t.Fatalf("rows in the backup: %s", got)
	}
	viewsEqualRecomputation(t, b, map[string]string{"n": "SELECT count(*) AS n FROM t"})
}
