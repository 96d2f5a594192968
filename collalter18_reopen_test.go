package deltaview_test

import "testing"

// TestCollAlter18RenameReopen: a collation renamed and moved to another
// schema while a column's own COLLATE, a check, a default, an index and
// views name it comes back from the file under its new name, the
// objects working as before; a rename rolled back leaves the file as it
// was.
func TestCollAlter18RenameReopen(t *testing.T) {
	db := reopenedFileDB(t, "collalter18.db", `CREATE COLLATION ca_de (provider = icu, locale = 'de');
CREATE SCHEMA ca_s;
CREATE TABLE ca_t (a text COLLATE ca_de, b text DEFAULT ('x' COLLATE ca_de), CHECK (b COLLATE ca_de > 'a'));
CREATE INDEX ca_ti ON ca_t (b COLLATE ca_de);
CREATE VIEW ca_v AS SELECT a, b COLLATE ca_de AS bc FROM ca_t WHERE b COLLATE ca_de < 'z';
CREATE MATERIALIZED VIEW ca_mv AS SELECT a, b COLLATE ca_de AS bc FROM ca_t;
INSERT INTO ca_t VALUES ('b', 'b'), ('B', 'c'), ('a', 'C');
ALTER COLLATION ca_de RENAME TO ca_de2;
ALTER COLLATION ca_de2 SET SCHEMA ca_s;
BEGIN;
ALTER COLLATION ca_s.ca_de2 RENAME TO ca_de3;
ROLLBACK`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT a.attname, c.collname FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation WHERE a.attrelid IN ('ca_t'::regclass, 'ca_mv'::regclass) AND a.attnum > 0 ORDER BY a.attrelid::regclass::text, a.attnum", "[[a ca_de2] [bc ca_de2] [a ca_de2] [b default]]"},
		{"SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'ca_t'::regclass", "[['x' COLLATE ca_s.ca_de2]]"},
		{"SELECT pg_get_indexdef('ca_ti'::regclass)", "[[CREATE INDEX ca_ti ON public.ca_t USING btree (b COLLATE ca_s.ca_de2)]]"},
		{"SELECT count(*) FROM regexp_matches(pg_get_viewdef('ca_v'), 'COLLATE ca_s.ca_de2\\M', 'g')", "[[2]]"},
		{"SELECT string_agg(a, ',' ORDER BY a) FROM ca_t", "[[a,b,B]]"},
		{"SELECT string_agg(bc, ',' ORDER BY bc) FROM ca_v", "[[b,c,C]]"},
	})
	if err := db.Exec("INSERT INTO ca_t (a) VALUES ('e')"); err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("INSERT INTO ca_t VALUES ('A', 'a')"); err == nil {
		t.Fatal("the check over the renamed collation lets 'a' in")
	}
	wantRows(t, db, []queryRows{
		{"SELECT a, b FROM ca_t WHERE b = 'x'", "[[e x]]"},
		{"SELECT string_agg(bc, ',' ORDER BY bc) FROM ca_mv", "[[b,c,C,x]]"},
	})
}

// TestCollAlter18PartitionReopen: a partitioned table's column, a
// trigger's WHEN and a policy naming a renamed and moved collation come
// back from the file under its new name.
func TestCollAlter18PartitionReopen(t *testing.T) {
	db := reopenedFileDB(t, "collalter18p.db", `CREATE COLLATION cm_de (provider = icu, locale = 'de');
CREATE SCHEMA cm_s;
CREATE TABLE cm_p (k int, a text COLLATE cm_de) PARTITION BY RANGE (k);
CREATE TABLE cm_p1 PARTITION OF cm_p FOR VALUES FROM (0) TO (10);
CREATE TABLE cm_t (a text);
CREATE FUNCTION cm_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.a := NEW.a || '!'; RETURN NEW; END $$;
CREATE TRIGGER cm_tr BEFORE INSERT ON cm_t FOR EACH ROW WHEN (NEW.a COLLATE cm_de > 'a') EXECUTE FUNCTION cm_f();
CREATE POLICY cm_pol ON cm_t USING (a COLLATE cm_de > 'a');
INSERT INTO cm_p VALUES (1, 'b'), (2, 'B'), (3, 'a');
ALTER COLLATION cm_de RENAME TO cm_de2;
ALTER COLLATION cm_de2 SET SCHEMA cm_s`)
	defer db.Close()
	if err := db.Exec("INSERT INTO cm_t VALUES ('B'), ('a')"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, db, []queryRows{
		{"SELECT string_agg(a, ',' ORDER BY a) FROM cm_p", "[[a,b,B]]"},
		{"SELECT string_agg(a, ',' ORDER BY a) FROM cm_t", "[[B!,a]]"},
		{"SELECT count(*) FROM pg_policies, regexp_matches(qual, 'COLLATE cm_s.cm_de2\\M', 'g') WHERE policyname = 'cm_pol'", "[[1]]"},
	})
}

// TestCollAlter18UniqueReopen: a unique index naming a nondeterministic
// collation keeps its equal strings one key after the file is reopened.
func TestCollAlter18UniqueReopen(t *testing.T) {
	db := reopenedFileDB(t, "collalter18u.db", `CREATE COLLATION cu_nd (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE cu_t (c text);
CREATE UNIQUE INDEX cu_ix ON cu_t (c COLLATE cu_nd);
INSERT INTO cu_t VALUES ('a')`)
	defer db.Close()
	if err := db.Exec("INSERT INTO cu_t VALUES ('A')"); err == nil {
		t.Fatal("'A' and 'a' are one key under cu_nd")
	}
	wantRows(t, db, []queryRows{{"SELECT pg_get_indexdef('cu_ix'::regclass)", "[[CREATE UNIQUE INDEX cu_ix ON public.cu_t USING btree (c COLLATE cu_nd)]]"}})
}
