package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestExclusionDeferrableReopen checks that DEFERRABLE EXCLUDE
// constraints stay so after the file is opened again: checked at the end
// of a statement, or at the commit while deferred, and shown as before;
// and that operator classes named stay so.
func TestExclusionDeferrableReopen(t *testing.T) {
	db := reopenedFileDB(t, "excldefer.db", `CREATE TABLE c (id int, d int4range, CONSTRAINT c_d EXCLUDE USING gist (d WITH &&) DEFERRABLE INITIALLY DEFERRED);
CREATE TABLE b (id int, d int4range);
INSERT INTO c VALUES (1, '[1,5)'), (2, '[5,6)');
INSERT INTO b VALUES (1, '[1,5)'), (2, '[5,6)');
ALTER TABLE b ADD CONSTRAINT b_d EXCLUDE USING gist (d WITH &&) DEFERRABLE;
CREATE TABLE p (s text, n inet, EXCLUDE (s text_pattern_ops WITH =), EXCLUDE USING gist (n inet_ops WITH &&))`)
	defer db.Close()
	for _, c := range []struct{ stmt, code string }{
		{"UPDATE b SET d = CASE id WHEN 1 THEN '[5,6)'::int4range ELSE '[1,5)' END", ""},
		{"INSERT INTO b VALUES (3, '[0,2)')", pgerr.ExclusionViolation},
		{"BEGIN; INSERT INTO c VALUES (3, '[4,6)'); UPDATE c SET d = '[7,8)' WHERE id = 3; COMMIT", ""},
		{"BEGIN; INSERT INTO c VALUES (4, '[0,2)'); COMMIT", pgerr.ExclusionViolation},
		{"BEGIN; INSERT INTO c VALUES (4, '[0,2)'); SET CONSTRAINTS c_d IMMEDIATE", pgerr.ExclusionViolation},
		{"ROLLBACK", ""},
		{"INSERT INTO c VALUES (5, '[9,10)') ON CONFLICT DO NOTHING", pgerr.ObjectNotInPrereqState},
		{"INSERT INTO p VALUES ('a', '10.0.0.0/8')", ""},
		{"INSERT INTO p VALUES ('a', '11.0.0.0/8')", pgerr.ExclusionViolation},
		{"INSERT INTO p VALUES ('b', '10.1.0.0/16')", pgerr.ExclusionViolation},
	} {
		err := db.Exec(c.stmt)
		if got := pgerr.Code(err); err != nil && got != c.code || err == nil && c.code != "" {
			t.Errorf("%s after reopening: got %v, want %s", c.stmt, err, c.code)
		}
	}
	wantRows(t, db, []queryRows{
		{"SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'x' AND conname IN ('b_d', 'c_d') ORDER BY 1",
			"[[b_d t f EXCLUDE USING gist (d WITH &&) DEFERRABLE] [c_d t t EXCLUDE USING gist (d WITH &&) DEFERRABLE INITIALLY DEFERRED]]"},
		{"SELECT id, d FROM b ORDER BY id", "[[1 [5,6)] [2 [1,5)]]"},
		{"SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'p'::regclass ORDER BY 1",
			"[[EXCLUDE USING btree (s text_pattern_ops WITH =)] [EXCLUDE USING gist (n inet_ops WITH &&)]]"},
		{"SELECT id, d FROM c ORDER BY id", "[[1 [1,5)] [2 [5,6)] [3 [7,8)]]"},
	})
}
