package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestRangeTypesSurviveReopen keeps user range types (over a float, text
// and an enum, one renamed, one with a multirange named by
// MULTIRANGE_TYPE_NAME, one over a character type without its length), a table with columns of them, of a multirange
// and of an array, and a view over them; after the file is opened again
// the rows, the view and the constructors are the same, the view is
// maintained, new types take object numbers after the old, and a type
// dropped stays dropped.
func TestRangeTypesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "range.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
		CREATE TYPE moodrange AS RANGE (subtype = mood);
		CREATE TYPE fr AS RANGE (subtype = float8, subtype_diff = float8mi);
		CREATE TYPE tr AS RANGE (subtype = text, multirange_type_name = texts);
		ALTER TYPE tr RENAME TO tr2;
		CREATE TYPE cr AS RANGE (subtype = char(1));
		CREATE TYPE gone AS RANGE (subtype = int4);
		DROP TYPE gone;
		CREATE TABLE t (id int PRIMARY KEY, r fr, m fr_multirange, a fr[], mr moodrange, s tr2, ss texts, c cr);
		INSERT INTO t VALUES (1, fr(1.5, 2), '{[1,2),[3,4]}', ARRAY[fr(1, 2)], '[sad,ok]', tr('a', 'b'), '{[a,b)}', NULL),
			(2, 'empty', '{}', '{}', moodrange('ok', NULL), '(,"x y")', texts(), '[ab,cde)');
		CREATE MATERIALIZED VIEW v AS SELECT id, r * fr(1.75, 9) AS cut, mr @> 'ok'::mood AS ok FROM t`)
	q := `SELECT * FROM t ORDER BY r`
	qv := `SELECT * FROM v ORDER BY id`
	before, beforeV := query(t, db, q), query(t, db, qv)
	if len(before) != 2 || len(beforeV) != 2 {
		t.Fatalf("before reopening: %q, %q", before, beforeV)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	if after := query(t, db, q); !slices.Equal(before, after) {
		t.Errorf("table before %q\nafter %q", before, after)
	}
	if after := query(t, db, qv); !slices.Equal(beforeV, after) {
		t.Errorf("view before %q\nafter %q", beforeV, after)
	}
	execSQL(t, db, `INSERT INTO t VALUES (3, fr(0, 5), NULL, NULL, moodrange('happy', 'happy', '[]'), tr('c', 'd'), NULL, '[xyz,zz]')`)
	if got, want := query(t, db, qv), query(t, db, `SELECT id, r * fr(1.75, 9), mr @> 'ok'::mood FROM t ORDER BY id`); !slices.Equal(got, want) || len(got) != 3 {
		t.Errorf("view after an insert: %q, want %q", got, want)
	}
	if err := db.Exec(`CREATE TYPE gone AS RANGE (subtype = date)`); err != nil {
		t.Errorf("a dropped type came back: %v", err)
	}
	if got := query(t, db, `SELECT pg_typeof(tr(NULL, NULL)), pg_typeof(texts()), pg_typeof(gone_multirange())`); got[0] != "text:tr2 | text:texts | text:gone_multirange" {
		t.Errorf("types after reopening: %q", got)
	}
}
