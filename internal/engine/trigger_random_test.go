package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestTriggerRandom runs random data changes in deltaview and in
// PostgreSQL against a table with a random set of triggers: BEFORE ROW
// triggers that rewrite or skip rows, AFTER ROW and AFTER STATEMENT
// triggers that write an audit table, one that raises (undoing its
// statement), WHEN conditions and UPDATE OF, transition tables, a
// deferred constraint trigger (whose error fails the commit), and DML on
// a view through its INSTEAD OF trigger. After each statement the
// outcome (the SQLSTATE of a failure) and the tables must be the same;
// after each commit every view must hold the rows PostgreSQL computes.
func TestTriggerRandom(t *testing.T) {
	pg, ctx, r := randomPG(t, 47)
	e := engine.New()
	run, runPG := scriptRunners(t, ctx, pg, e)
	setup := []string{
		`CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL CHECK (v >= 0), tag text)`,
		`CREATE TABLE audit (op text, lvl text, id int, v int)`,
		`CREATE MATERIALIZED VIEW tv AS SELECT id % 3 AS g, count(*) AS n, sum(v) AS s FROM t GROUP BY id % 3`,
		`CREATE MATERIALIZED VIEW tags AS SELECT tag, count(*) AS n FROM t GROUP BY tag`,
		`CREATE MATERIALIZED VIEW av AS SELECT op, lvl, count(*) AS n, sum(v) AS s FROM audit GROUP BY op, lvl`,
		`CREATE FUNCTION rewrite() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := NEW.v % 40; NEW.tag := lower(TG_OP) || TG_ARGV[0]; RETURN NEW; END $$`,
		`CREATE FUNCTION skip() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'DELETE' THEN IF OLD.v = 13 THEN RETURN NULL; END IF; RETURN OLD; END IF; IF NEW.v % 10 = 7 THEN RETURN NULL; END IF; RETURN NEW; END $$`,
		`CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'DELETE' THEN INSERT INTO audit VALUES (TG_OP, TG_LEVEL, OLD.id, OLD.v); ELSE INSERT INTO audit VALUES (TG_OP, TG_LEVEL, NEW.id, NEW.v); END IF; RETURN NULL; END $$`,
		`CREATE FUNCTION audit_stmt() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO audit VALUES (TG_OP, TG_WHEN || TG_LEVEL, NULL, (SELECT count(*) FROM t)); RETURN NULL; END $$`,
		`CREATE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'v % too big', NEW.v; END $$`,
		`CREATE FUNCTION audit_trans() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO audit SELECT TG_OP, 'trans', count(*), (SELECT sum(v) FROM nt) - (SELECT sum(v) FROM ot) FROM nt; RETURN NULL; END $$`,
		`CREATE FUNCTION con_check() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NOT EXISTS (SELECT 1 FROM t WHERE id = NEW.id AND v < 50) THEN RAISE EXCEPTION 'row % gone or big', NEW.id; END IF; INSERT INTO audit VALUES ('CHECK', 'deferred', NEW.id, NEW.v); RETURN NULL; END $$`,
		`CREATE FUNCTION tvw_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'INSERT' THEN INSERT INTO t VALUES (NEW.id, NEW.v, 'view'); RETURN NEW; ELSIF TG_OP = 'UPDATE' THEN UPDATE t SET v = NEW.v WHERE id = OLD.id; RETURN NEW; END IF; DELETE FROM t WHERE id = OLD.id; RETURN OLD; END $$`,
		`CREATE VIEW tvw AS SELECT id, v FROM t`,
		`CREATE TRIGGER tvw_iud INSTEAD OF INSERT OR UPDATE OR DELETE ON tvw FOR EACH ROW EXECUTE FUNCTION tvw_row()`,
	}
	triggers := []string{
		`CREATE TRIGGER a_rewrite BEFORE INSERT OR UPDATE ON t FOR EACH ROW EXECUTE FUNCTION rewrite('!')`,
		`CREATE TRIGGER b_skip BEFORE INSERT OR UPDATE OR DELETE ON t FOR EACH ROW EXECUTE FUNCTION skip()`,
		`CREATE TRIGGER c_audit AFTER INSERT OR UPDATE OR DELETE ON t FOR EACH ROW EXECUTE FUNCTION audit_row()`,
		`CREATE TRIGGER d_stmt AFTER INSERT OR DELETE ON t FOR EACH STATEMENT EXECUTE FUNCTION audit_stmt()`,
		`CREATE TRIGGER e_stmt BEFORE UPDATE OR TRUNCATE ON t EXECUTE FUNCTION audit_stmt()`,
		`CREATE TRIGGER f_fail AFTER UPDATE OF v ON t FOR EACH ROW WHEN (NEW.v > 30 AND OLD.v <= 30) EXECUTE FUNCTION fail()`,
		`CREATE TRIGGER g_when AFTER UPDATE ON t FOR EACH ROW WHEN (OLD.tag IS DISTINCT FROM NEW.tag) EXECUTE FUNCTION audit_row()`,
		`CREATE TRIGGER h_trans AFTER UPDATE ON t REFERENCING OLD TABLE AS ot NEW TABLE AS nt FOR EACH STATEMENT EXECUTE FUNCTION audit_trans()`,
		`CREATE CONSTRAINT TRIGGER i_con AFTER INSERT ON t DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION con_check()`,
	}
	for _, tr := range triggers {
		if r.IntN(3) > 0 {
			setup = append(setup, tr)
		}
	}
	for _, stmt := range setup {
		t.Log(stmt)
		if _, code := run(stmt); code != "" {
			t.Fatalf("%s: %s", stmt, code)
		}
		if _, code := runPG(strings.Replace(stmt, "MATERIALIZED ", "", 1)); code != "" {
			t.Fatalf("PostgreSQL: %s: %s", stmt, code)
		}
	}
	views := []string{"tv", "tags", "av"}
	steps := 400
	if testing.Short() {
		steps = 100
	}
	inBlock := false
	for range steps {
		var stmt string
		k := r.IntN(20)
		switch n := r.IntN(100); {
		case n < 6 && !inBlock:
			stmt = "BEGIN"
		case n < 26:
			var vals []string
			for range 1 + r.IntN(3) {
				vals = append(vals, fmt.Sprintf("(%d, %d, 'x')", r.IntN(20), r.IntN(60)))
			}
			stmt = "INSERT INTO t VALUES " + strings.Join(vals, ", ")
		case n < 36:
			stmt = fmt.Sprintf("INSERT INTO t VALUES (%d, %d, 'y') ON CONFLICT (id) DO UPDATE SET v = t.v + excluded.v", k, r.IntN(20))
		case n < 40:
			stmt = fmt.Sprintf("INSERT INTO t VALUES (%d, %d, 'z') ON CONFLICT DO NOTHING", k, r.IntN(20))
		case n < 58:
			stmt = fmt.Sprintf("UPDATE t SET v = v + %d WHERE id BETWEEN %d AND %d", r.IntN(15)-3, k, k+r.IntN(6))
		case n < 62:
			stmt = fmt.Sprintf("UPDATE t SET tag = 'w%d' WHERE id = %d", r.IntN(3), k)
		case n < 74:
			stmt = fmt.Sprintf("DELETE FROM t WHERE id BETWEEN %d AND %d", k, k+r.IntN(4))
		case n < 77:
			stmt = fmt.Sprintf("MERGE INTO t USING (VALUES (%d, %d)) AS s(id, v) ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v, 'm')", k, r.IntN(40))
		case n < 79:
			stmt = "TRUNCATE t"
		case n < 81:
			stmt = "DELETE FROM audit"
		case n < 84:
			stmt = fmt.Sprintf("INSERT INTO tvw VALUES (%d, %d)", k, r.IntN(60))
		case n < 87:
			stmt = fmt.Sprintf("UPDATE tvw SET v = v + %d WHERE id BETWEEN %d AND %d", r.IntN(15)-3, k, k+r.IntN(4))
		case n < 88:
			stmt = fmt.Sprintf("DELETE FROM tvw WHERE id = %d", k)
		case n < 89:
			stmt = []string{"SET CONSTRAINTS ALL IMMEDIATE", "SET CONSTRAINTS i_con DEFERRED"}[r.IntN(2)]
			if !inBlock || !slices.Contains(setup, triggers[8]) {
				stmt = "SELECT 3"
			}
		case n < 92:
			if inBlock {
				stmt = "COMMIT"
			} else {
				stmt = "SELECT 1"
			}
		default:
			if inBlock {
				stmt = "ROLLBACK"
			} else {
				stmt = "SELECT 2"
			}
		}
		got, gotErr := run(stmt)
		want, wantErr := runPG(stmt)
		if gotErr != wantErr {
			t.Fatalf("%s: deltaview fails with %q, PostgreSQL with %q", stmt, gotErr, wantErr)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s:\ndeltaview %s\nPostgreSQL %s", stmt, show(got), show(want))
		}
		switch stmt {
		case "BEGIN":
			inBlock = true
		case "COMMIT", "ROLLBACK":
			inBlock = false
		}
		for _, q := range []string{"SELECT * FROM t", "SELECT * FROM audit"} {
			got, gotErr := run(q)
			want, wantErr := runPG(q)
			if gotErr != wantErr {
				t.Fatalf("after %s: %s: deltaview fails with %q, PostgreSQL with %q", stmt, q, gotErr, wantErr)
			}
			if g, w := sorted(got), sorted(want); !slices.Equal(g, w) {
				t.Fatalf("after %s: %s:\ndeltaview %s\nPostgreSQL %s", stmt, q, show(g), show(w))
			}
		}
		if !inBlock {
			checkViewsPG(t, e, runPG, stmt, views)
		}
	}
}
