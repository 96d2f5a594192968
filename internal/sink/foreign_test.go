package sink_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/pgtest"
	_ "github.com/deltaview/deltaview/internal/sink" // CREATE SERVER, CREATE FOREIGN TABLE
)

// serverOptions turns a libpq connection string into CREATE SERVER's
// OPTIONS list, naming the sink's connections dvsink.
func serverOptions(conninfo string) string {
	var opts []string
	for _, kv := range strings.Fields(conninfo) {
		k, v, _ := strings.Cut(kv, "=")
		opts = append(opts, fmt.Sprintf("%s '%s'", k, v))
	}
	return strings.Join(append(opts, "application_name 'dvsink'"), ", ")
}

const foreignSchema = `
CREATE TABLE groups (gid int PRIMARY KEY, name text);
CREATE TABLE items (id int PRIMARY KEY, grp int NOT NULL, val text, n numeric(10,2));
CREATE MATERIALIZED VIEW named AS SELECT i.id, i.val, g.name FROM items i JOIN groups g ON i.grp = g.gid;
CREATE MATERIALIZED VIEW big AS SELECT id, n, val FROM items WHERE n > 50;
`

// randomTx is a random transaction over foreignSchema's tables.
func randomTx(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	for range 1 + r.IntN(6) {
		id := r.IntN(40)
		switch r.IntN(7) {
		case 0:
			fmt.Fprintf(&b, "INSERT INTO groups VALUES (%d, 'g%d') ON CONFLICT (gid) DO UPDATE SET name = excluded.name;\n", r.IntN(5), r.IntN(100))
		case 1, 2:
			fmt.Fprintf(&b, "INSERT INTO items VALUES (%d, %d, 'v%d', %d.%02d) ON CONFLICT (id) DO NOTHING;\n", id, r.IntN(5), r.IntN(100), r.IntN(100), r.IntN(100))
		case 3:
			fmt.Fprintf(&b, "UPDATE items SET n = n + %d, val = 'u%d' WHERE id %% 7 = %d;\n", r.IntN(30)-15, r.IntN(100), r.IntN(7))
		case 4:
			fmt.Fprintf(&b, "UPDATE items SET id = id + 40 WHERE id = %d;\n", id)
		case 5:
			fmt.Fprintf(&b, "DELETE FROM items WHERE id = %d OR id = %d;\n", id, id+40)
		case 6:
			fmt.Fprintf(&b, "DELETE FROM groups WHERE gid = %d;\n", r.IntN(5))
		}
	}
	if r.IntN(10) == 0 {
		b.WriteString("ROLLBACK;\n")
	} else {
		b.WriteString("COMMIT;\n")
	}
	return b.String()
}

// execTx runs a random transaction, which a key change may make fail
// on a duplicate key: it is rolled back then.
func execTx(t testing.TB, e *engine.Engine, script string) {
	t.Helper()
	s := e.NewSession()
	defer s.Close()
	err := s.ExecScript(script, func(engine.Result) error { return nil })
	if err != nil {
		if pgerr.Code(err) != pgerr.UniqueViolation {
			t.Fatalf("%s: %v", script, err)
		}
		if err := s.ExecScript("ROLLBACK", func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
}

func viewText(t testing.TB, e *engine.Engine, q string) []string {
	t.Helper()
	rows, err := exec1(e, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = rowText(r)
	}
	return out
}

// waitSinks waits until every foreign table has applied its queue.
func waitSinks(t testing.TB, e *engine.Engine) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		rows, err := exec1(e, "SELECT name, state, pending_steps, coalesce(last_error, '') FROM deltaview_sinks")
		if err != nil {
			t.Fatal(err)
		}
		done := true
		for _, r := range rows {
			if r[1].String() == "failed" {
				t.Fatalf("foreign table %s failed: %s", r[0], r[3])
			}
			if r[2].Int() != 0 || r[1].String() == "loading" {
				done = false
			}
		}
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("foreign tables still behind: %v", rows)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func pgText(t testing.TB, conn *pgx.Conn, q string) []string {
	t.Helper()
	rows := pgtest.MustQuery(t, conn, q)
	out := make([]string, len(rows))
	for i, r := range rows {
		parts := make([]string, len(r))
		for j, v := range r {
			if v == nil {
				parts[j] = "NULL"
			} else {
				parts[j] = *v
			}
		}
		out[i] = strings.Join(parts, "|")
	}
	return out
}

// TestForeignTablePostgres keeps two views in PostgreSQL tables through
// CREATE SERVER and CREATE FOREIGN TABLE, under random transactions,
// terminating the sink's connection at random points: after each commit
// the target tables equal the views, with nothing doubled or lost. The
// target restarts twice on the way.
func TestForeignTablePostgres(t *testing.T) {
	srv := pgtest.Start(t)
	admin := srv.Conn(t)
	e := engine.New()
	defer e.Close()
	exec(t, e, foreignSchema+`
INSERT INTO groups VALUES (0, 'zero'), (1, 'one');
INSERT INTO items VALUES (1, 0, 'a', 60), (2, 1, 'b', 10);
CREATE SERVER wh FOREIGN DATA WRAPPER postgres OPTIONS (`+serverOptions(srv.ConnString(admin.Config().Database))+`);
CREATE FOREIGN TABLE named_out () SERVER wh OPTIONS (view 'named');
CREATE FOREIGN TABLE big_out (id int, n numeric(10,2), val text) SERVER wh OPTIONS (view 'big', table 'big_target');
`)
	steps := 400
	if testing.Short() {
		steps = 100
	}
	r := rand.New(rand.NewPCG(14, 1))
	killer := srv.Conn(t)
	kill := func() {
		killer.Exec(context.Background(), "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'dvsink'")
	}
	kills := 0
	dbname := admin.Config().Database
	reconnect := func() *pgx.Conn {
		c, err := pgx.Connect(context.Background(), srv.ConnString(dbname))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(context.Background()) })
		return c
	}
	for i := range steps {
		if i == steps/3 || i == 2*steps/3 {
			// The target restarts, with commits queued for it.
			execTx(t, e, randomTx(r))
			srv.Restart(t)
			admin, killer = reconnect(), reconnect()
		}
		var wg sync.WaitGroup
		switch r.IntN(8) {
		case 0: // before the commit
			kill()
			kills++
		case 1: // while the sink applies it
			wg.Add(1)
			kills++
			delay := time.Duration(r.IntN(3000)) * time.Microsecond
			go func() {
				defer wg.Done()
				time.Sleep(delay)
				kill()
			}()
		}
		execTx(t, e, randomTx(r))
		wg.Wait()
		waitSinks(t, e)
		for _, c := range []struct{ view, target string }{{"named", "named_out"}, {"big", "big_target"}} {
			want := viewText(t, e, "SELECT * FROM "+c.view+" ORDER BY id")
			got := pgText(t, admin, "SELECT * FROM "+c.target+" ORDER BY id")
			if !slices.Equal(got, want) {
				t.Fatalf("transaction %d: %s:\ngot  %q\nwant %q", i, c.target, got, want)
			}
		}
	}
	rows, err := exec1(e, "SELECT name, reconnects, transactions FROM deltaview_sinks")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d transactions, %d kills; sinks: %v", steps, kills, rows)
	// The progress table holds the step of each target's last commit.
	if got := pgText(t, admin, "SELECT target FROM deltaview_progress ORDER BY target"); !slices.Equal(got, []string{"big_target", "named_out"}) {
		t.Fatalf("deltaview_progress: %q", got)
	}
	exec(t, e, "DROP SERVER wh CASCADE")
	if rows, _ := exec1(e, "SELECT * FROM deltaview_sinks"); len(rows) != 0 {
		t.Fatalf("deltaview_sinks after DROP SERVER: %v", rows)
	}
}

// TestForeignTableSQLite keeps a view in a SQLite file, and a second
// foreign table created over the same target after a restart loads the
// view anew.
func TestForeignTableSQLite(t *testing.T) {
	file := filepath.Join(t.TempDir(), "views.db")
	e := engine.New()
	defer e.Close()
	exec(t, e, foreignSchema+`
CREATE SERVER lite FOREIGN DATA WRAPPER sqlite OPTIONS (file '`+file+`');
CREATE FOREIGN TABLE named_out () SERVER lite OPTIONS (view 'named');
`)
	db, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := rand.New(rand.NewPCG(14, 2))
	check := func(i int) {
		t.Helper()
		waitSinks(t, e)
		want := viewText(t, e, "SELECT * FROM named ORDER BY id")
		rows, err := db.Query("SELECT id, coalesce(val, 'NULL'), coalesce(name, 'NULL') FROM named_out ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for rows.Next() {
			var id int
			var val, name string
			if err := rows.Scan(&id, &val, &name); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%d|%s|%s", id, val, name))
		}
		rows.Close()
		if !slices.Equal(got, want) {
			t.Fatalf("transaction %d: named_out:\ngot  %q\nwant %q", i, got, want)
		}
	}
	for i := range 100 {
		execTx(t, e, randomTx(r))
		check(i)
	}
	// A new engine holding other rows replaces the target's rows.
	e.Close()
	e = engine.New()
	defer e.Close()
	exec(t, e, foreignSchema+`
INSERT INTO groups VALUES (9, 'nine');
INSERT INTO items VALUES (3, 9, 'c', 1);
CREATE SERVER lite FOREIGN DATA WRAPPER sqlite OPTIONS (file '`+file+`');
CREATE FOREIGN TABLE named_out () SERVER lite OPTIONS (view 'named');
`)
	check(100)
}

// TestForeignTableErrors: the statements' errors carry their SQLSTATE.
func TestForeignTableErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "views.db")
	e := engine.New()
	defer e.Close()
	exec(t, e, foreignSchema+`
CREATE MATERIALIZED VIEW counts AS SELECT grp, count(*) FROM items GROUP BY grp;
CREATE SERVER lite FOREIGN DATA WRAPPER sqlite OPTIONS (file '`+file+`');
CREATE FOREIGN TABLE named_out () SERVER lite OPTIONS (view 'named');
`)
	for _, c := range []struct{ stmt, code, msg string }{
		{"CREATE SERVER x FOREIGN DATA WRAPPER oracle", pgerr.UndefinedObject, `foreign-data wrapper "oracle" does not exist`},
		{"CREATE SERVER x FOREIGN DATA WRAPPER sqlite", pgerr.InvalidParameter, "needs OPTIONS (file 'path')"},
		{"CREATE SERVER x FOREIGN DATA WRAPPER postgres OPTIONS (colour 'red')", pgerr.InvalidParameter, `invalid option "colour"`},
		{"CREATE SERVER lite FOREIGN DATA WRAPPER sqlite OPTIONS (file 'x')", pgerr.DuplicateObject, `server "lite" already exists`},
		{"CREATE FOREIGN TABLE f () SERVER nowhere OPTIONS (view 'named')", pgerr.UndefinedObject, `server "nowhere" does not exist`},
		{"CREATE FOREIGN TABLE f () SERVER lite", pgerr.InvalidParameter, "needs OPTIONS (view"},
		{"CREATE FOREIGN TABLE f () SERVER lite OPTIONS (view 'named', colour 'red')", pgerr.InvalidParameter, `invalid option "colour"`},
		{"CREATE FOREIGN TABLE f () SERVER lite OPTIONS (view 'nothing')", pgerr.UndefinedTable, `materialized view "nothing" does not exist`},
		{"CREATE FOREIGN TABLE f () SERVER lite OPTIONS (view 'counts')", pgerr.FeatureNotSupported, "has no key"},
		{"CREATE FOREIGN TABLE f (id int, val int, name text) SERVER lite OPTIONS (view 'named')", pgerr.DatatypeMismatch, "column 2 of foreign table f is val integer"},
		{"CREATE FOREIGN TABLE named_out () SERVER lite OPTIONS (view 'big', table 'other')", pgerr.DuplicateTable, `foreign table "named_out" already exists`},
		{"CREATE FOREIGN TABLE f () SERVER lite OPTIONS (view 'big', table 'named_out')", pgerr.DuplicateObject, "keeps a view in table named_out"},
		{"BEGIN; CREATE FOREIGN TABLE f () SERVER lite OPTIONS (view 'big')", pgerr.ActiveTransaction, "cannot run inside a transaction block"},
		{"DROP SERVER lite", pgerr.DependentObjects, "cannot drop server lite"},
		{"DROP FOREIGN TABLE nothing", pgerr.UndefinedTable, `foreign table "nothing" does not exist`},
		{"CREATE SERVER pg FOREIGN DATA WRAPPER postgres OPTIONS (host '/nonexistent', port '1'); CREATE FOREIGN TABLE f () SERVER pg OPTIONS (view 'big')", "08001", "server pg: cannot connect"},
	} {
		err := e.NewSession().ExecScript(c.stmt, func(engine.Result) error { return nil })
		if pgerr.Code(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v (%s), want %s containing %q", c.stmt, err, pgerr.Code(err), c.code, c.msg)
		}
	}
	exec(t, e, "DROP FOREIGN TABLE IF EXISTS nothing; DROP SERVER IF EXISTS nothing; DROP FOREIGN TABLE named_out; DROP SERVER lite, pg")
	// Dropping the view marks its foreign table failed.
	exec(t, e, "CREATE SERVER lite FOREIGN DATA WRAPPER sqlite OPTIONS (file '"+file+"'); CREATE FOREIGN TABLE big_out () SERVER lite OPTIONS (view 'big'); DROP MATERIALIZED VIEW big")
	rows, err := exec1(e, "SELECT state, last_error FROM deltaview_sinks")
	if err != nil || len(rows) != 1 || rows[0][0].String() != "failed" || rows[0][1].String() != "materialized view big was dropped" {
		t.Fatalf("deltaview_sinks after DROP MATERIALIZED VIEW: %v %v", rows, err)
	}
}

// TestForeignTablesCreateTogether: foreign tables created at once in a
// database without the progress table all create it (CREATE TABLE IF NOT
// EXISTS, which fails in one of two sessions racing to create one table)
// and load their targets; none fails.
func TestForeignTablesCreateTogether(t *testing.T) {
	srv := pgtest.Start(t)
	admin := srv.Conn(t)
	opts := serverOptions(srv.ConnString(admin.Config().Database))
	for round := range 8 {
		if _, err := admin.Exec(context.Background(), "DROP TABLE IF EXISTS deltaview_progress, t0, t1, t2, t3"); err != nil {
			t.Fatal(err)
		}
		e := engine.New()
		script := foreignSchema + "INSERT INTO groups VALUES (0, 'zero'); INSERT INTO items VALUES (1, 0, 'a', 60);\n" +
			"CREATE SERVER wh FOREIGN DATA WRAPPER postgres OPTIONS (" + opts + ");\n"
		for i := range 4 {
			script += fmt.Sprintf("CREATE FOREIGN TABLE t%d () SERVER wh OPTIONS (view '%s');\n", i, []string{"named", "big"}[i%2])
		}
		exec(t, e, script)
		waitSinks(t, e)
		for i := range 4 {
			if got := pgText(t, admin, fmt.Sprintf("SELECT count(*) FROM t%d", i)); len(got) != 1 || got[0] != "1" {
				t.Fatalf("round %d: target t%d holds %v", round, i, got)
			}
		}
		e.Close()
	}
}
