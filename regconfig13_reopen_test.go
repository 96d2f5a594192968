package deltaview_test

import (
	"fmt"
	"testing"
)

// TestRegconfigColumnReopen checks that a regconfig column, and a
// materialized view computing with it, read and print the configurations
// by name after the file is opened again, and stay maintained.
func TestRegconfigColumnReopen(t *testing.T) {
	db := reopenedFileDB(t, "regconfig.db", `CREATE TABLE rc_t (id int PRIMARY KEY, cfg regconfig, cfgs regconfig[], body text);
INSERT INTO rc_t VALUES (1, 'english', '{english,simple}', 'The foxes'), (2, 3748, NULL, 'The foxes'), (3, NULL, NULL, 'x');
CREATE MATERIALIZED VIEW rc_v AS SELECT id, cfg, to_tsvector(cfg, body) AS v FROM rc_t`)
	defer db.Close()
	if err := db.Exec(`INSERT INTO rc_t VALUES (4, 'pg_catalog.simple', NULL, 'Dogs')`); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		`SELECT id, cfg::text, cfg::oid, cfgs::text, pg_typeof(cfg)::text FROM rc_t ORDER BY id`: "[[1 english 13164 {english,simple} regconfig] [2 simple 3748 NULL regconfig] [3 NULL NULL NULL regconfig] [4 simple 3748 NULL regconfig]]",
		`SELECT id, cfg::text, v::text FROM rc_v ORDER BY id`:                                    "[[1 english 'fox':2] [2 simple 'foxes':2 'the':1] [3 NULL NULL] [4 simple 'dogs':1]]",
	} {
		rs, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		if g := fmt.Sprint(rs.Rows); g != want {
			t.Errorf("%s after reopening:\n got %s\nwant %s", q, g, want)
		}
	}
}
