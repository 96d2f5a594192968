package deltaview_test

import "testing"

// TestDomarr13CTASDomainReopen: the columns CREATE TABLE … AS takes of
// domains from its query (a column, a CASE over one domain, a set
// operation's column) keep their domains and constraints in the file, and
// a view's and a materialized view's columns their domains.
func TestDomarr13CTASDomainReopen(t *testing.T) {
	db := reopenedFileDB(t, "domarr13.db", `CREATE DOMAIN pos AS int CHECK (VALUE > 0);
CREATE TABLE src (a pos, b pos, c int);
INSERT INTO src VALUES (1, 2, 3);
CREATE TABLE ct AS SELECT a, CASE WHEN c > 0 THEN a ELSE b END AS k, a + 0 AS p FROM src;
CREATE TABLE ct2 AS SELECT a FROM src UNION SELECT b FROM src;
CREATE MATERIALIZED VIEW mv AS SELECT COALESCE(a, b) AS co, c FROM src;
CREATE VIEW v AS SELECT c, CASE WHEN c > 0 THEN a ELSE b END AS k FROM src`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT attrelid::regclass::text, attname, atttypid::regtype::text FROM pg_attribute WHERE attrelid IN ('ct'::regclass, 'ct2'::regclass) AND attnum > 0 ORDER BY 1, attnum", "[[ct a pos] [ct k pos] [ct p integer] [ct2 a pos]]"},
		{"SELECT pg_typeof(k)::text, k FROM ct", "[[pos 1]]"},
		{"SELECT attname, atttypid::regtype::text FROM pg_attribute WHERE attrelid = 'mv'::regclass AND attnum > 0 ORDER BY attnum", "[[co pos] [c integer]]"},
		{"SELECT attname, atttypid::regtype::text FROM pg_attribute WHERE attrelid = 'v'::regclass AND attnum > 0 ORDER BY attnum", "[[c integer] [k pos]]"},
		{"SELECT pg_typeof(k)::text FROM v", "[[pos]]"},
	})
	if err := db.Exec("INSERT INTO ct VALUES (1, -1, -1)"); err == nil {
		t.Fatal("a value outside the domain of a column CREATE TABLE … AS made was written")
	}
}

// TestDomarr13DomainUserCollationReopen: a domain's collation made by
// CREATE COLLATION, in public or another schema, comes back from the file
// with the domain: its columns order under it and the catalogs name it.
func TestDomarr13DomainUserCollationReopen(t *testing.T) {
	db := reopenedFileDB(t, "domarr13coll.db", `CREATE COLLATION ci (provider = icu, locale = 'und-u-ks-level2');
CREATE SCHEMA s;
CREATE COLLATION s.bytes (locale = 'C');
CREATE DOMAIN dci AS text COLLATE ci;
CREATE DOMAIN dby AS varchar(3) COLLATE s.bytes;
CREATE TABLE tc (a dci, b dby);
INSERT INTO tc VALUES ('b', 'b'), ('A', 'A'), ('a', 'a')`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT typname, typcollation::regcollation::text FROM pg_type WHERE typname IN ('dci', 'dby') ORDER BY 1", "[[dby s.bytes] [dci ci]]"},
		{"SELECT attname, attcollation::regcollation::text FROM pg_attribute WHERE attrelid = 'tc'::regclass AND attnum > 0 ORDER BY attnum", "[[a ci] [b s.bytes]]"},
		{"SELECT string_agg(a, ',' ORDER BY a, b), string_agg(b, ',' ORDER BY b) FROM tc", "[[A,a,b A,a,b]]"},
		{"SELECT count(*) FROM tc WHERE a < 'B'", "[[2]]"},
	})
	if err := db.Exec("DROP COLLATION ci"); err == nil {
		t.Fatal("DROP COLLATION of a domain's collation succeeded")
	}
}
