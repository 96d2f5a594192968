package sink_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// servers lists the servers of names that e has, found by CREATE SERVER
// failing with 42710 (there is no catalog of servers to read).
func servers(t *testing.T, e *engine.Engine, names ...string) []string {
	t.Helper()
	var have []string
	for _, n := range names {
		s := e.NewSession()
		err := s.ExecScript("CREATE SERVER "+n+" FOREIGN DATA WRAPPER sqlite OPTIONS (file '/nonexistent/x.db')", func(engine.Result) error { return nil })
		switch {
		case pgerr.Code(err) == pgerr.DuplicateObject:
			have = append(have, n)
		case err != nil:
			t.Fatalf("probe of server %s: %v", n, err)
		default:
			if err := s.ExecScript("DROP SERVER "+n, func(engine.Result) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()
	}
	return have
}

// TestServerInBlock: CREATE SERVER and DROP SERVER are catalog changes of
// a transaction block, of PL/pgSQL code too, undone by ROLLBACK, ROLLBACK
// TO, an EXCEPTION handler and a failed statement, as in PostgreSQL; a
// database file holds only the committed ones.
func TestServerInBlock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "db.sqlite")
	file := filepath.Join(dir, "views.db")
	srv := func(name string) string {
		return "CREATE SERVER " + name + " FOREIGN DATA WRAPPER sqlite OPTIONS (file '" + file + "');\n"
	}
	e, c := openFile(t, path)
	all := []string{"a", "b", "c", "d", "f", "g", "h", "k"}
	run := func(script string) error {
		s := e.NewSession()
		defer s.Close()
		return s.ExecScript(script, func(engine.Result) error { return nil })
	}
	for _, script := range []string{
		"BEGIN;\n" + srv("a") + "ROLLBACK;",
		"BEGIN;\n" + srv("b") + "SAVEPOINT p;\n" + srv("c") + "ROLLBACK TO p;\nCOMMIT;",
		"DO $$ BEGIN " + srv("d") + " END $$;",
		"DO $$ BEGIN " + srv("f") + " RAISE EXCEPTION 'no'; EXCEPTION WHEN OTHERS THEN NULL; END $$;",
		"BEGIN;\nDO $$ BEGIN " + srv("g") + " END $$;\nROLLBACK;",
		"BEGIN;\n" + srv("h") + "COMMIT;",
		"BEGIN;\nDROP SERVER h;\nROLLBACK;",
		"BEGIN;\nDROP SERVER d;\nCOMMIT;",
		"CREATE TABLE items (id int PRIMARY KEY, v text);\nCREATE MATERIALIZED VIEW mv AS SELECT id, v FROM items;",
	} {
		if err := run(script); err != nil {
			t.Fatalf("%s: %v", script, err)
		}
	}
	if got, want := servers(t, e, all...), []string{"b", "h"}; !slices.Equal(got, want) {
		t.Fatalf("servers: got %v, want %v", got, want)
	}
	// A failed statement undoes the block's changes since BEGIN: the
	// block fails and rolls back.
	if err := run("BEGIN;\n" + srv("k") + srv("k") + "COMMIT;"); pgerr.Code(err) != pgerr.DuplicateObject {
		t.Fatalf("second CREATE SERVER k: got %v, want 42710", err)
	}
	if got := servers(t, e, "k"); len(got) != 0 {
		t.Fatalf("server k outlived its failed block")
	}
	// A server created in the block serves a foreign table after COMMIT.
	if err := run("BEGIN;\n" + srv("k") + "COMMIT;\nCREATE FOREIGN TABLE mv_out () SERVER k OPTIONS (view 'mv');"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ script, code, msg string }{
		{"BEGIN;\nDROP SERVER k;\nCOMMIT;", pgerr.DependentObjects, "cannot drop server k because other objects depend on it"},
		{"BEGIN;\nDROP SERVER k CASCADE;\nCOMMIT;", pgerr.ActiveTransaction, "DROP SERVER cannot run inside a transaction block"},
		{"BEGIN;\nCREATE FOREIGN TABLE o () SERVER k OPTIONS (view 'mv');\nCOMMIT;", pgerr.ActiveTransaction, "CREATE FOREIGN TABLE cannot run inside a transaction block"},
		{"BEGIN;\nDROP SERVER nope;\nCOMMIT;", pgerr.UndefinedObject, `server "nope" does not exist`},
	} {
		err := run(c.script)
		if pgerr.Code(err) != c.code || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want %s %s", c.script, err, c.code, c.msg)
		}
	}
	closeFile(t, e, c)

	// The file holds the committed servers only.
	e, c = openFile(t, path)
	defer closeFile(t, e, c)
	if got, want := servers(t, e, all...), []string{"b", "h", "k"}; !slices.Equal(got, want) {
		t.Fatalf("servers after reopening: got %v, want %v", got, want)
	}
}

// TestServerNotices: CREATE SERVER and DROP SERVER fire event triggers,
// and IF EXISTS and IF NOT EXISTS say what they skip, as PostgreSQL does.
func TestServerNotices(t *testing.T) {
	e := engine.New()
	defer e.Close()
	file := filepath.Join(t.TempDir(), "views.db")
	var notices []string
	err := e.NewSession().ExecScript(`CREATE FUNCTION et() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'tag %', TG_TAG; END $$;
CREATE EVENT TRIGGER et ON ddl_command_start EXECUTE FUNCTION et();
CREATE SERVER z FOREIGN DATA WRAPPER sqlite OPTIONS (file '`+file+`');
DROP SERVER z;
DROP EVENT TRIGGER et;
CREATE SERVER a FOREIGN DATA WRAPPER sqlite OPTIONS (file '`+file+`');
CREATE SERVER IF NOT EXISTS a FOREIGN DATA WRAPPER sqlite OPTIONS (file '`+file+`');
DROP SERVER IF EXISTS zz, a;`, func(r engine.Result) error {
		notices = append(notices, r.Notices...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"tag CREATE SERVER", "tag DROP SERVER", `server "a" already exists, skipping`, `server "zz" does not exist, skipping`}
	if !slices.Equal(notices, want) {
		t.Fatalf("notices: got %q, want %q", notices, want)
	}
}
