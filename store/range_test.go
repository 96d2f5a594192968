package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestRangesSurviveReopen stores ranges of every range type and
// multiranges in a table (a range in its key) and a view, and reads the same values after the file
// is opened again; the view stays maintained.
func TestRangesSurviveReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ranges.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE r (k int4range PRIMARY KEY, b int8range, n numrange, d daterange, ts tsrange, tz tstzrange, m datemultirange);
		INSERT INTO r VALUES ('[1,5)', '(,9]', '[1.50,"2.0"]', '[2020-01-01,infinity]', '["2020-01-01 10:00",)', 'empty', '{[2020-01-01,2020-01-03),(,2019-01-01]}'),
			('empty', NULL, '(,)', 'empty', '[-infinity,infinity]', '["2020-01-01 00:00:00+02","2020-01-02 00:00:00+00")', '{}'),
			('(,)', '[0,0]', 'empty', NULL, NULL, '(,)', NULL);
		CREATE MATERIALIZED VIEW m AS SELECT n, count(*) AS c FROM r GROUP BY n`)
	q := `SELECT k, b, n, d, ts, tz, m, pg_typeof(tz)::text FROM r ORDER BY k`
	qv := `SELECT * FROM m ORDER BY n`
	before, beforeV := query(t, db, q), query(t, db, qv)
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
	execSQL(t, db, `UPDATE r SET n = '[3,4]' WHERE k = 'empty'`)
	want := query(t, db, `SELECT n, count(*) FROM r GROUP BY n ORDER BY n`)
	if got := query(t, db, qv); !slices.Equal(got, want) || slices.Equal(got, beforeV) {
		t.Errorf("view after an update: %q, want %q", got, want)
	}
}
