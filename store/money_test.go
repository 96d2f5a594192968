package store_test

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestMoneySurvivesReopen stores money values (one in the key, the
// extremes among them) in a table and a view's sums, and reads the same
// values after the file is opened again; the view stays maintained, and
// a change that takes its sum out of range fails whole.
func TestMoneySurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "money.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE m (k money PRIMARY KEY, acct text, amt money);
		INSERT INTO m VALUES ('$1.50', 'a', '92233720368547758.07'), ('-2', 'a', '-92233720368547758.08'), ('0', 'b', NULL), ('1,000', 'b', '(12.345)');
		CREATE MATERIALIZED VIEW v AS SELECT acct, sum(amt) AS total, min(k) AS lo FROM m GROUP BY acct`)
	q := `SELECT k, acct, amt FROM m ORDER BY k`
	qv := `SELECT * FROM v ORDER BY acct`
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
	// The view's sum of group a would leave money's range: the update
	// fails and changes nothing.
	if err := db.Exec(`UPDATE m SET amt = '5' WHERE k = '-2'`); err == nil {
		t.Error("a sum out of money's range was accepted")
	}
	if got := query(t, db, qv); !slices.Equal(got, beforeV) {
		t.Errorf("view after a failed update: %q, want %q", got, beforeV)
	}
	execSQL(t, db, `UPDATE m SET amt = '5' WHERE k = '$1.50'`)
	want := query(t, db, `SELECT acct, sum(amt), min(k) FROM m GROUP BY acct ORDER BY acct`)
	if got := query(t, db, qv); !slices.Equal(got, want) || slices.Equal(got, beforeV) {
		t.Errorf("view after an update: %q, want %q", got, want)
	}
}
