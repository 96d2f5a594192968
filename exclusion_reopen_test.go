package deltaview_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// TestExclusionReopen checks that EXCLUDE constraints, btree_gist's
// among them, are enforced and listed as before after the file is opened
// again, with the rows they hold then, and that btree_gist cannot be
// dropped under them.
func TestExclusionReopen(t *testing.T) {
	db := reopenedFileDB(t, "exclusion.db", `CREATE EXTENSION btree_gist;
CREATE TABLE booking (id int PRIMARY KEY, room int, during int4range, EXCLUDE USING gist (room WITH =, during WITH &&));
CREATE TABLE e (a int, b int);
INSERT INTO booking VALUES (1, 1, '[1,5)'), (2, 2, '[1,5)');
INSERT INTO e VALUES (1, 1), (2, 2);
ALTER TABLE e ADD CONSTRAINT e_sum EXCLUDE ((a + b) WITH =) WHERE (a > 0)`)
	defer db.Close()
	for _, c := range []struct{ stmt, code string }{
		{"INSERT INTO booking VALUES (3, 1, '[4,6)')", pgerr.ExclusionViolation},
		{"INSERT INTO booking VALUES (3, 1, '[5,6)')", ""},
		{"UPDATE booking SET during = '[0,2)' WHERE id = 2", ""},
		{"UPDATE booking SET room = 1 WHERE id = 2", pgerr.ExclusionViolation},
		{"INSERT INTO e VALUES (0, 2)", ""},
		{"INSERT INTO e VALUES (3, -1)", pgerr.ExclusionViolation},
		{"DROP EXTENSION btree_gist", pgerr.DependentObjects},
		{"DROP EXTENSION btree_gist CASCADE", pgerr.FeatureNotSupported},
	} {
		err := db.Exec(c.stmt)
		if got := pgerr.Code(err); err != nil && got != c.code || err == nil && c.code != "" {
			t.Errorf("%s after reopening: got %v, want %s", c.stmt, err, c.code)
		}
	}
	wantRows(t, db, []queryRows{
		{"SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE contype = 'x' ORDER BY 1",
			"[[booking_room_during_excl EXCLUDE USING gist (room WITH =, during WITH &&)] [e_sum EXCLUDE USING btree (((a + b)) WITH =) WHERE ((a > 0))]]"},
		{"SELECT id, room, during FROM booking ORDER BY id", "[[1 1 [1,5)] [2 2 [0,2)] [3 1 [5,6)]]"},
	})
}
