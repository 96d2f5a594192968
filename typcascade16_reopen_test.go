package deltaview_test

import "testing"

// TestTypcascade16DropTypeCascadeReopen: what DROP TYPE … CASCADE took
// (the routines, another composite type's attribute and its typed
// table's column, the range and domain types over the type, a default
// and a check) stays gone in the file, and what it kept comes back.
func TestTypcascade16DropTypeCascadeReopen(t *testing.T) {
	db := reopenedFileDB(t, "typcascade16.db", `CREATE TYPE e AS ENUM ('a', 'b');
CREATE FUNCTION f(e) RETURNS int LANGUAGE sql AS 'SELECT 1';
CREATE FUNCTION h() RETURNS text LANGUAGE sql AS $$SELECT 'a'::e::text$$;
CREATE TYPE c AS (x e, y int);
CREATE TABLE tt OF c;
INSERT INTO tt VALUES ('a', 1);
CREATE TYPE r AS RANGE (subtype = e);
CREATE DOMAIN d AS e;
CREATE TABLE x (id int, a text DEFAULT 'a'::e, b text CHECK (b::e <> 'b'), k int CHECK (k > 0));
INSERT INTO x VALUES (1, 'a', 'a', 1);
DROP TYPE e CASCADE;
INSERT INTO x (id, b, k) VALUES (2, 'b', 2)`)
	defer db.Close()
	wantRows(t, db, []queryRows{
		{"SELECT proname FROM pg_proc WHERE proname IN ('f', 'h') ORDER BY 1", "[[h]]"},
		{"SELECT typname FROM pg_type WHERE typname IN ('e', 'r', 'r_multirange', 'd', 'c') ORDER BY 1", "[[c]]"},
		{"SELECT attname FROM pg_attribute WHERE attrelid = 'c'::regclass AND attnum > 0 AND NOT attisdropped", "[[y]]"},
		{"SELECT * FROM tt", "[[1]]"},
		{"SELECT conname FROM pg_constraint WHERE conrelid = 'x'::regclass", "[[x_k_check]]"},
		{"SELECT id, a, b FROM x ORDER BY id", "[[1 a a] [2 NULL b]]"},
	})
}
