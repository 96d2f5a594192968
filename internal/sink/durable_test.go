package sink_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgtest"
	istore "github.com/deltaview/deltaview/internal/store"
)

// openFile opens a durable engine on the database file path.
func openFile(t *testing.T, path string) (*engine.Engine, io.Closer) {
	t.Helper()
	e := engine.New()
	c, err := istore.OpenEngine(path, e, istore.Options{})
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	return e, c
}

func closeFile(t *testing.T, e *engine.Engine, c io.Closer) {
	t.Helper()
	e.Close()
	if err := e.CloseStore(c); err != nil {
		t.Fatal(err)
	}
}

// namedOutRows returns named_out's rows in the target file, as viewText
// prints the view's.
func namedOutRows(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query("SELECT id, coalesce(val, 'NULL'), coalesce(name, 'NULL') FROM named_out ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id int
		var val, name string
		if err := rows.Scan(&id, &val, &name); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d|%s|%s", id, val, name))
	}
	return got
}

// TestForeignTableKeptInFile: servers and foreign tables are kept in the
// database file. Opened again after a clean close, a foreign table
// resumes without loading its target again (a row put in the target
// meanwhile stays) and follows the commits after; when the target's
// progress row does not show the last commit, the target is loaded anew.
// A dropped foreign table or server is gone from the file.
func TestForeignTableKeptInFile(t *testing.T) {
	dir := t.TempDir()
	path, file := filepath.Join(dir, "app.db"), filepath.Join(dir, "views.db")
	target, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	r := rand.New(rand.NewPCG(16, 4))
	commit := func(e *engine.Engine, n int) {
		for range n {
			execTx(t, e, randomTx(r))
		}
	}
	same := func(e *engine.Engine, what string) {
		t.Helper()
		waitSinks(t, e)
		if got, want := namedOutRows(t, target), viewText(t, e, "SELECT * FROM named ORDER BY id"); !slices.Equal(got, want) {
			t.Fatalf("%s: named_out:\ngot  %q\nwant %q", what, got, want)
		}
	}

	e, c := openFile(t, path)
	exec(t, e, foreignSchema+`
CREATE SERVER lite FOREIGN DATA WRAPPER sqlite OPTIONS (file '`+file+`');
CREATE FOREIGN TABLE named_out () SERVER lite OPTIONS (view 'named');
`)
	commit(e, 40)
	same(e, "before the close")
	closeFile(t, e, c)

	// A row the view does not hold: a load would remove it.
	if _, err := target.Exec("INSERT INTO named_out VALUES (1000, 'extra', NULL)"); err != nil {
		t.Fatal(err)
	}
	e, c = openFile(t, path)
	waitSinks(t, e)
	got := namedOutRows(t, target)
	if len(got) == 0 || got[len(got)-1] != "1000|extra|NULL" {
		t.Fatalf("the target was loaded again after a clean close: %q", got)
	}
	if _, err := target.Exec("DELETE FROM named_out WHERE id = 1000"); err != nil {
		t.Fatal(err)
	}
	same(e, "after the open")
	commit(e, 40)
	same(e, "after the commits that follow the open")
	closeFile(t, e, c)

	// A progress row behind the last commit (as a crash leaves it when
	// steps were queued): the target is loaded anew.
	if _, err := target.Exec("INSERT INTO named_out VALUES (1000, 'extra', NULL)"); err != nil {
		t.Fatal(err)
	}
	if _, err := target.Exec("UPDATE deltaview_progress SET step = step - 1"); err != nil {
		t.Fatal(err)
	}
	e, c = openFile(t, path)
	same(e, "after the open with the progress row behind")
	commit(e, 20)
	same(e, "after the commits that follow")

	exec(t, e, "DROP FOREIGN TABLE named_out")
	closeFile(t, e, c)
	e, c = openFile(t, path)
	if rows := viewText(t, e, "SELECT name FROM deltaview_sinks"); len(rows) != 0 {
		t.Fatalf("foreign tables after DROP FOREIGN TABLE and an open: %q", rows)
	}
	before := namedOutRows(t, target)
	commit(e, 10)
	if got := namedOutRows(t, target); !slices.Equal(got, before) {
		t.Fatalf("the dropped foreign table's target changed")
	}
	exec(t, e, "DROP SERVER lite")
	closeFile(t, e, c)
	e, c = openFile(t, path)
	defer closeFile(t, e, c)
	exec(t, e, `CREATE SERVER lite FOREIGN DATA WRAPPER sqlite OPTIONS (file '`+file+`')`)
}

// TestForeignTableKeptInFilePostgres: a PostgreSQL target with declared
// columns resumes after a clean close without a load, and follows the
// commits after.
func TestForeignTableKeptInFilePostgres(t *testing.T) {
	srv := pgtest.Start(t)
	admin := srv.Conn(t)
	path := filepath.Join(t.TempDir(), "app.db")
	r := rand.New(rand.NewPCG(16, 5))
	same := func(e *engine.Engine, what string) {
		t.Helper()
		waitSinks(t, e)
		got := pgText(t, admin, "SELECT id, n, val FROM big_target ORDER BY id")
		if want := viewText(t, e, "SELECT * FROM big ORDER BY id"); !slices.Equal(got, want) {
			t.Fatalf("%s: big_target:\ngot  %q\nwant %q", what, got, want)
		}
	}
	e, c := openFile(t, path)
	exec(t, e, foreignSchema+`
CREATE SERVER wh FOREIGN DATA WRAPPER postgres OPTIONS (`+serverOptions(srv.ConnString(admin.Config().Database))+`);
CREATE FOREIGN TABLE big_out (id int, n numeric(10,2), val text) SERVER wh OPTIONS (view 'big', table 'big_target');
`)
	for range 30 {
		execTx(t, e, randomTx(r))
	}
	same(e, "before the close")
	closeFile(t, e, c)
	if _, err := admin.Exec(context.Background(), "INSERT INTO big_target VALUES (1000, 1, 'extra')"); err != nil {
		t.Fatal(err)
	}
	e, c = openFile(t, path)
	defer closeFile(t, e, c)
	waitSinks(t, e)
	if got := pgText(t, admin, "SELECT id FROM big_target WHERE id = 1000"); len(got) != 1 {
		t.Fatalf("the target was loaded again after a clean close")
	}
	if _, err := admin.Exec(context.Background(), "DELETE FROM big_target WHERE id = 1000"); err != nil {
		t.Fatal(err)
	}
	for range 30 {
		execTx(t, e, randomTx(r))
	}
	same(e, "after the open")
}
