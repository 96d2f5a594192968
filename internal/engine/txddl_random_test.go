package engine_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestTxDDLRandom runs random transaction blocks of catalog changes (ALTER
// TABLE of columns, defaults, NOT NULL and checks, CREATE and DROP of
// indexes, tables and materialized views, and those of catalog2: roles,
// row security, partitions, domains, trigger modes, statistics) and row
// changes, with random
// savepoints, ROLLBACK TO, failing statements, COMMIT and ROLLBACK, in
// deltaview and in PostgreSQL, and compares the SQLSTATE of each
// statement; after each block, the catalog (columns, types, defaults,
// NOT NULL, indexes, constraints), every table's rows, and every
// materialized view's rows against PostgreSQL and against a recomputation
// from scratch. Some blocks are DO blocks outside BEGIN, some of which
// COMMIT part way. DELTAVIEW_SEED runs a logged seed again.
func TestTxDDLRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 91)
	e := engine.New()
	tw := newPGTwin(t, ctx, pg, e)
	run := func(s string) ([]string, string) { o := tw.run(s); return o.rows, o.code }
	runPG := func(s string) ([]string, string) { o := tw.runPG(s); return o.rows, o.code }
	// Roles belong to PostgreSQL's whole cluster, which outlives this
	// test's database: drop those an earlier run left, and this run's.
	dropRoles := func() {
		runPG("ROLLBACK") // a failed block may have left one open
		if _, code := runPG("DROP ROLE IF EXISTS rr0, rr1, rr2"); code != "" {
			t.Fatalf("dropping the roles of an earlier run: %s", code)
		}
	}
	dropRoles()
	t.Cleanup(dropRoles)
	setupBoth(t, run, runPG, `CREATE TABLE t1 (id int PRIMARY KEY, v int, w text);
CREATE TABLE t2 (id int PRIMARY KEY, v int);
INSERT INTO t1 VALUES (1, 1, 'a'), (2, 2, 'b'), (3, 3, 'c');
INSERT INTO t2 VALUES (1, 5), (2, 6);
CREATE MATERIALIZED VIEW m1 AS SELECT v, count(*) AS n FROM t1 GROUP BY v;
CREATE MATERIALIZED VIEW m3 AS SELECT t1.v, count(*) AS n, min(t2.v) AS lo, max(t2.v) AS hi FROM t1 JOIN t2 ON t2.id = t1.id GROUP BY t1.v;
CREATE MATERIALIZED VIEW m4 AS SELECT id, v FROM t1 ORDER BY v DESC, id LIMIT 3;
CREATE TABLE pt (k int, v int) PARTITION BY RANGE (k);
CREATE TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (10);
CREATE TABLE px (k int, v int);
INSERT INTO px VALUES (12, 1);
CREATE DOMAIN dd AS int;
CREATE TABLE td (x dd);
CREATE TABLE tlog (id int);
CREATE FUNCTION tlogit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO tlog VALUES (NEW.id); RETURN NEW; END $$;
CREATE TRIGGER tg AFTER INSERT ON t2 FOR EACH ROW EXECUTE FUNCTION tlogit()`)
	tables := []string{"t1", "t2", "t3"}
	next := 0
	added := map[string][]string{} // the columns the blocks added, by table
	sps := 0
	stmt := func() string {
		tb := tables[r.IntN(2)]
		id, v := 1+r.IntN(8), r.IntN(10)
		switch r.IntN(22 + len(catalog2)/2) {
		case 0, 1, 2:
			return fmt.Sprintf("INSERT INTO %s (id, v) VALUES (%d, %d)", tables[r.IntN(3)], id, v)
		case 3:
			return fmt.Sprintf("UPDATE %s SET v = v + %d WHERE id %% 2 = %d", tables[r.IntN(3)], r.IntN(3), r.IntN(2))
		case 4:
			return fmt.Sprintf("DELETE FROM %s WHERE id = %d", tables[r.IntN(3)], id)
		case 5, 6:
			next++
			return fmt.Sprintf("ALTER TABLE %s ADD COLUMN c%d int DEFAULT %d", tb, next, r.IntN(5))
		case 7:
			if cs := added[tb]; len(cs) > 0 {
				return fmt.Sprintf("ALTER TABLE %s DROP COLUMN %s", tb, cs[r.IntN(len(cs))])
			}
			return fmt.Sprintf("ALTER TABLE %s DROP COLUMN IF EXISTS w", tb)
		case 8:
			return fmt.Sprintf("ALTER TABLE %s ALTER COLUMN v %s NOT NULL", tb, []string{"SET", "DROP"}[r.IntN(2)])
		case 9:
			return fmt.Sprintf("ALTER TABLE %s ALTER COLUMN v SET DEFAULT %d", tb, v)
		case 10:
			return fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s_chk CHECK (v < %d)", tb, tb, 5+r.IntN(10))
		case 11:
			return fmt.Sprintf("ALTER TABLE %s DROP CONSTRAINT IF EXISTS %s_chk", tb, tb)
		case 12:
			return fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s_v%d ON %s (v)", tb, r.IntN(2), tb)
		case 13:
			return fmt.Sprintf("DROP INDEX IF EXISTS %s_v%d", tb, r.IntN(2))
		case 14:
			return "CREATE TABLE IF NOT EXISTS t3 (id int PRIMARY KEY, v int NOT NULL DEFAULT 0)"
		case 15:
			return "DROP TABLE IF EXISTS t3"
		case 16:
			return "CREATE MATERIALIZED VIEW m2 AS SELECT id, v FROM t2 WHERE v > 3"
		case 17:
			return "DROP MATERIALIZED VIEW IF EXISTS m2"
		case 18:
			sps++
			return fmt.Sprintf("SAVEPOINT s%d", sps)
		case 19:
			if sps > 0 {
				return fmt.Sprintf("ROLLBACK TO s%d", 1+r.IntN(sps))
			}
		case 20:
			return []string{"SELECT 1 / 0", "INSERT INTO t1 (id) VALUES (1)", "ALTER TABLE t1 ADD COLUMN id int"}[r.IntN(3)]
		case 21:
			return fmt.Sprintf("SELECT * FROM %s ORDER BY id", tables[r.IntN(3)])
		default:
			return catalog2[r.IntN(len(catalog2))](r.IntN(3), v)
		}
		return fmt.Sprintf("INSERT INTO t2 (id, v) VALUES (%d, %d)", id, v)
	}
	forPG := func(s string) string {
		s = strings.Replace(s, "MATERIALIZED VIEW IF EXISTS", "VIEW IF EXISTS", 1)
		return strings.Replace(s, "MATERIALIZED ", "", 1)
	}
	codes := map[string]int{}
	commits, refused := 0, 0
	// doCommitBlock runs a DO block outside BEGIN that commits after its
	// first split statements, the parts on lines 2 and 4 of its code:
	// what the first part did stays when the second fails
	// (plpgsql_catalog_read.txt). PostgreSQL runs each part in a block
	// of its own, rolled back where deltaview refuses it.
	doCommitBlock := func(b int, body, pgBody []string, split int) ([]string, bool) {
		do := "DO $$ BEGIN\n" + strings.Join(body[:split], "; ") + ";\nCOMMIT;\n" + strings.Join(body[split:], "; ") + "; END $$"
		err := tw.sess.ExecScript(do, func(engine.Result) error { return nil })
		code, late := "", false
		if err != nil {
			code = pgerr.Code(err)
			var pe *pgerr.Error
			late = errors.As(err, &pe) && strings.Contains(pe.Context, "line 4")
		}
		codes[code]++
		for part, stmts := range [][]string{pgBody[:split], pgBody[split:]} {
			runPG("BEGIN")
			_, pgCode := runPG("DO $$ BEGIN " + strings.Join(stmts, "; ") + "; END $$")
			want := ""
			if part == 1 || !late {
				want = code // the part deltaview failed in, or the last
			}
			switch {
			case want == "0A000":
				refused++ // refused by deltaview, maybe before PostgreSQL's error: undone on both
			case want != pgCode:
				t.Fatalf("block %d: %s: part %d: deltaview %q (%v), PostgreSQL %q", b, do, part+1, code, err, pgCode)
			case pgCode == "":
				runPG("COMMIT")
				continue
			}
			runPG("ROLLBACK")
			if part == 0 && want != "" {
				return []string{do}, false
			}
		}
		return []string{do}, code == ""
	}
	// doBlock runs a block's statements as one DO block outside BEGIN,
	// sometimes failing at its end, which undoes everything it did
	// (plpgsql_catalog.txt); PostgreSQL runs it inside a block, rolled
	// back where deltaview refuses it.
	doBlock := func(b int) ([]string, bool) {
		var body, pgBody []string
		for n := 1 + r.IntN(6); len(body) < n; {
			s := stmt()
			if strings.HasPrefix(s, "SAVEPOINT") || strings.HasPrefix(s, "ROLLBACK") {
				continue
			}
			if rest, ok := strings.CutPrefix(s, "SELECT "); ok {
				s = "PERFORM " + rest
			}
			body, pgBody = append(body, s), append(pgBody, forPG(s))
		}
		if r.IntN(4) == 0 {
			body, pgBody = append(body, "RAISE EXCEPTION 'undone'"), append(pgBody, "RAISE EXCEPTION 'undone'")
		}
		if len(body) > 1 && r.IntN(3) == 0 {
			return doCommitBlock(b, body, pgBody, 1+r.IntN(len(body)-1))
		}
		do := "DO $$ BEGIN " + strings.Join(body, "; ") + "; END $$"
		err := tw.sess.ExecScript(do, func(engine.Result) error { return nil })
		code := ""
		if err != nil {
			code = pgerr.Code(err)
		}
		runPG("BEGIN")
		_, pgCode := runPG("DO $$ BEGIN " + strings.Join(pgBody, "; ") + "; END $$")
		codes[code]++
		switch {
		case code == "0A000":
			// Refused by deltaview only (a catalog change after a
			// change a view reads, one of a table with row security),
			// maybe before PostgreSQL's error: undone on both.
			refused++
		case code != pgCode:
			t.Fatalf("block %d: %s: deltaview %q (%v), PostgreSQL %q", b, do, code, err, pgCode)
		case code == "":
			runPG("COMMIT")
			return []string{do}, true
		}
		runPG("ROLLBACK")
		return []string{do}, false
	}
	blocks := 60
	if testing.Short() {
		blocks = 20
	}
	for b := 0; b < blocks; b++ {
		sps = 0
		var script []string
		if r.IntN(4) == 0 {
			var committed bool
			if script, committed = doBlock(b); committed {
				commits++
			}
		} else {
			if _, code := run("BEGIN"); code != "" {
				t.Fatal(code)
			}
			runPG("BEGIN")
			cut, domainDropped := false, false
			for i, n := 0, 1+r.IntN(10); i < n; i++ {
				s := stmt()
				if strings.HasPrefix(s, "SAVEPOINT") && domainDropped {
					// PostgreSQL 15 leaves ALTER DOMAIN … DROP
					// CONSTRAINT's invalidations unprocessed: after a
					// SAVEPOINT the next catalog change fails with
					// XX000 ("cannot start a subtransaction when there
					// are unprocessed inval messages").
					s = "SELECT 1"
				}
				domainDropped = domainDropped || strings.HasPrefix(s, "ALTER DOMAIN dd DROP CONSTRAINT")
				script = append(script, s)
				got, code := run(s)
				want, pgCode := runPG(forPG(s))
				if code == "0A000" && pgCode == "" && (strings.HasPrefix(s, "ALTER") || strings.HasPrefix(s, "CREATE") || strings.HasPrefix(s, "DROP")) {
					// A catalog change after a change a view reads in
					// the block: refused by deltaview only.
					refused++
					cut = true
					break
				}
				if code != pgCode {
					t.Fatalf("block %d: %s\n%s: deltaview %q, PostgreSQL %q", b, strings.Join(script, ";\n"), s, code, pgCode)
				}
				if code == "" && strings.HasPrefix(s, "SELECT") && !slices.Equal(got, want) {
					t.Fatalf("block %d: %s\nin the block: deltaview\n%s\nPostgreSQL\n%s", b, strings.Join(script, ";\n"), show(got), show(want))
				}
				codes[code]++
			}
			end := []string{"COMMIT", "COMMIT", "ROLLBACK"}[r.IntN(3)]
			if cut {
				end = "ROLLBACK" // the block failed in deltaview only
			}
			script = append(script, end)
			run(end)
			runPG(end)
			if end == "COMMIT" {
				commits++
			}
		}
		ctxt := func() string { return fmt.Sprintf("block %d:\n%s", b, strings.Join(script, ";\n")) }
		for _, q := range []string{
			"SELECT table_name, column_name, data_type, column_default, is_nullable FROM information_schema.columns WHERE table_name IN ('t1', 't2', 't3')",
			"SELECT tablename, indexname, indexdef FROM pg_indexes WHERE tablename IN ('t1', 't2', 't3')",
			"SELECT c.relname, con.conname, pg_get_constraintdef(con.oid) FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid WHERE c.relname IN ('t1', 't2', 't3')",
			"SELECT relname FROM pg_class WHERE relname IN ('t1', 't2', 't3', 'm1', 'm2')",
			"SELECT * FROM t1", "SELECT * FROM t2", "SELECT * FROM t3",
			"SELECT rolname FROM pg_roles WHERE rolname LIKE 'rr%'",
			"SELECT polname, pg_get_expr(polqual, polrelid) FROM pg_policy",
			"SELECT relname, relrowsecurity FROM pg_class WHERE relname IN ('t1', 't2')",
			"SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid",
			"SELECT typname FROM pg_type WHERE typname IN ('dd', 'dd2')",
			"SELECT tgname, tgenabled FROM pg_trigger WHERE tgname = 'tg'",
			"SELECT stxname FROM pg_statistic_ext",
			"SELECT * FROM pt", "SELECT * FROM px", "SELECT * FROM tlog", "SELECT * FROM td",
		} {
			got, code := run(q)
			want, pgCode := runPG(q)
			if code != pgCode || !slices.Equal(sorted(got), sorted(want)) {
				t.Fatalf("%s\n%s: deltaview %q\n%s\nPostgreSQL %q\n%s", ctxt(), q, code, show(sorted(got)), pgCode, show(sorted(want)))
			}
		}
		// Track the columns added that are left.
		for _, tb := range tables {
			got, _ := run(fmt.Sprintf("SELECT column_name FROM information_schema.columns WHERE table_name = '%s' AND column_name LIKE 'c%%'", tb))
			added[tb] = got
		}
		for _, v := range []string{"m1", "m2", "m3", "m4"} {
			_, rows, err := e.ViewRows(v)
			if err != nil {
				continue // m2 may not exist; the catalog comparison covers it
			}
			want, _ := runPG("SELECT * FROM " + v)
			if got := sorted(rowTexts(rows)); !slices.Equal(got, sorted(want)) {
				t.Fatalf("%s\nview %s holds\n%s\nPostgreSQL computes\n%s", ctxt(), v, show(got), show(sorted(want)))
			}
			fresh, err := e.Recompute(v)
			if err != nil {
				t.Fatal(err)
			}
			if got, scratch := sorted(rowTexts(rows)), sorted(rowTexts(fresh)); !slices.Equal(got, scratch) {
				t.Fatalf("%s\nview %s holds\n%s\nrecomputed\n%s", ctxt(), v, show(got), show(scratch))
			}
		}
	}
	t.Logf("statements by SQLSTATE: %v; %d commits, %d blocks cut by a refusal", codes, commits, refused)
	if codes[""] < blocks || commits < blocks/4 {
		t.Fatalf("too few statements succeed: %v, %d commits", codes, commits)
	}
}

// catalog2 are TestTxDDLRandom's catalog changes of roles, row security,
// partitions, domains, trigger modes and statistics, each given a small
// number n and a value v.
var catalog2 = []func(n, v int) string{
	func(n, _ int) string { return fmt.Sprintf("CREATE ROLE rr%d", n) },
	func(n, _ int) string { return fmt.Sprintf("DROP ROLE IF EXISTS rr%d", n) },
	func(n, _ int) string {
		return fmt.Sprintf("ALTER TABLE t2 %s ROW LEVEL SECURITY", []string{"ENABLE", "DISABLE", "FORCE"}[n])
	},
	func(n, v int) string { return fmt.Sprintf("CREATE POLICY pp%d ON t2 USING (v > %d)", n, v) },
	func(n, v int) string { return fmt.Sprintf("ALTER POLICY pp%d ON t2 USING (v < %d)", n, v) },
	func(n, _ int) string { return fmt.Sprintf("DROP POLICY IF EXISTS pp%d ON t2", n) },
	func(int, int) string { return "ALTER TABLE pt ATTACH PARTITION px FOR VALUES FROM (10) TO (20)" },
	func(int, int) string { return "ALTER TABLE pt DETACH PARTITION px" },
	func(int, int) string { return "CREATE TABLE pq PARTITION OF pt FOR VALUES FROM (20) TO (30)" },
	func(int, int) string { return "DROP TABLE IF EXISTS pq" },
	func(n, v int) string { return fmt.Sprintf("INSERT INTO pt VALUES (%d, %d)", 9*n+v, v) },
	func(_, v int) string {
		return fmt.Sprintf("ALTER DOMAIN dd ADD CONSTRAINT dd_c CHECK (VALUE < %d)", 3+v)
	},
	func(int, int) string { return "ALTER DOMAIN dd DROP CONSTRAINT IF EXISTS dd_c" },
	func(_, v int) string { return fmt.Sprintf("INSERT INTO td VALUES (%d)", v) },
	func(n, _ int) string {
		return []string{"CREATE DOMAIN dd2 AS int", "DROP DOMAIN IF EXISTS dd2", "ALTER DOMAIN dd SET NOT NULL"}[n]
	},
	func(n, _ int) string {
		return fmt.Sprintf("ALTER TABLE t2 %s TRIGGER tg", []string{"ENABLE", "DISABLE", "ENABLE ALWAYS"}[n])
	},
	func(int, int) string { return "CREATE STATISTICS IF NOT EXISTS sx ON id, v FROM t1" },
	func(int, int) string { return "DROP STATISTICS IF EXISTS sx" },
}
