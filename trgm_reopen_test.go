package deltaview_test

import (
	"fmt"
	"testing"
)

// TestTrgmThresholdReopen checks that a materialized view over pg_trgm's
// threshold operators keeps the threshold it was created under when the
// file is opened again, in a session whose setting is the default, and
// that REFRESH under another value is refused.
func TestTrgmThresholdReopen(t *testing.T) {
	db := reopenedFileDB(t, "trgm.db", `CREATE EXTENSION pg_trgm;
CREATE SCHEMA s;
SET search_path = s, public;
CREATE TABLE w (id int PRIMARY KEY, a text, b text);
INSERT INTO w VALUES (1, 'word', 'words'), (2, 'abc', 'abd'), (3, 'hello', 'world');
SET pg_trgm.similarity_threshold = 0.2;
CREATE MATERIALIZED VIEW wp AS SELECT id FROM w WHERE a % b;
RESET pg_trgm.similarity_threshold;
RESET search_path`)
	defer db.Close()
	// similarity('abc', 'abd') is 0.33…: in the view under 0.2, not 0.3's
	// 'abcd'/'abce' (0.25).
	if err := db.Exec("INSERT INTO s.w VALUES (4, 'abcd', 'abce')"); err != nil {
		t.Fatal(err)
	}
	rs, err := db.Query("SELECT id FROM s.wp ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[1] [2] [4]]"; g != w {
		t.Errorf("view after reopening: got %s, want %s", g, w)
	}
	rs, err = db.Query("SHOW pg_trgm.similarity_threshold")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprint(rs.Rows), "[[0.3]]"; g != w {
		t.Errorf("setting after reopening: got %s, want %s", g, w)
	}
	if err := db.Exec("REFRESH MATERIALIZED VIEW s.wp"); err == nil {
		t.Error("REFRESH under 0.3 of a view created under 0.2 succeeded")
	}
	if err := db.Exec("SET pg_trgm.similarity_threshold = 0.2; REFRESH MATERIALIZED VIEW s.wp"); err != nil {
		t.Error(err)
	}
}
