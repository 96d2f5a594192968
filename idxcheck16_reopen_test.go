package deltaview_test

import "testing"

// TestIdxcheck16LabelRenameReopen: after ALTER TYPE … RENAME VALUE of a
// label that a policy and the indexes of a table and of a materialized
// view write, and RENAME TO of the type, the file gives back their texts
// with the new label and name, and they behave.
func TestIdxcheck16LabelRenameReopen(t *testing.T) {
	db := reopenedFileDB(t, "idxcheck16.db", `CREATE TYPE e AS ENUM ('a', 'b');
CREATE TABLE te (id int, k e);
INSERT INTO te VALUES (1, 'a'), (2, 'b');
CREATE UNIQUE INDEX te_u ON te (id) WHERE k = 'a';
ALTER TABLE te ENABLE ROW LEVEL SECURITY;
CREATE POLICY pa ON te FOR SELECT USING (k = 'a');
CREATE POLICY pb ON te FOR INSERT WITH CHECK (k <> 'a'::e);
CREATE MATERIALIZED VIEW mv AS SELECT id, k FROM te;
CREATE INDEX mv_a ON mv (id) WHERE k = 'a';
ALTER TYPE e RENAME VALUE 'a' TO 'z';
ALTER TYPE e RENAME TO e2`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT policyname, coalesce(qual, with_check) FROM pg_policies WHERE tablename = 'te' ORDER BY 1", "[[pa (k = 'z')] [pb (k <> 'z'::e2)]]"},
		{"SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN ('te_u', 'mv_a') ORDER BY 1",
			"[[mv_a CREATE INDEX mv_a ON public.mv USING btree (id) WHERE (k = 'z')] [te_u CREATE UNIQUE INDEX te_u ON public.te USING btree (id) WHERE (k = 'z'::e2)]]"},
		{"SELECT id FROM mv WHERE k = 'z'", "[[1]]"},
	})
	if err := db.Exec("CREATE ROLE r; GRANT SELECT, INSERT ON te TO r"); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("SET ROLE r; INSERT INTO te VALUES (3, 'z')"); err == nil {
		t.Fatal("the policy pb lets a row with the label z in")
	}
	if err := db.Exec("SET ROLE r; INSERT INTO te VALUES (3, 'b')"); err != nil {
		t.Fatal(err)
	}
}
