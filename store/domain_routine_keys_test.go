package store_test

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
)

// TestDomainRoutineKeysBefore: a file that keeps an operator and an
// aggregate over a domain under their base types' signature, as versions
// before domains were part of them did, is re-keyed at open: a DROP then
// removes them from the file, and a domain's rename keeps one of each.
func TestDomainRoutineKeysBefore(t *testing.T) {
	const schema = `CREATE DOMAIN dd AS int;
CREATE FUNCTION f(int, dd) RETURNS bool LANGUAGE sql AS 'SELECT $1 = $2';
CREATE OPERATOR === (leftarg = int, rightarg = dd, function = f);
CREATE FUNCTION sf(int, dd) RETURNS int LANGUAGE sql AS 'SELECT coalesce($1, 0) + $2';
CREATE AGGREGATE ag(dd) (sfunc = sf, stype = int)`
	// earlier writes path as an earlier version would have: the same
	// statements under the keys it gave them.
	earlier := func(path string) {
		db := open(t, path)
		execSQL(t, db, schema)
		db.Close()
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		for _, k := range [][2]string{{"operator ===(integer,dd)", "operator ===(integer,integer)"}, {"ag(dd)", "ag(integer)"}} {
			r, err := raw.Exec("UPDATE deltaview_catalog SET name = ? WHERE name = ?", k[1], k[0])
			if err != nil {
				t.Fatal(err)
			}
			if n, _ := r.RowsAffected(); n != 1 {
				t.Fatalf("no stored %s", k[0])
			}
		}
	}
	dir := t.TempDir()

	dropped := filepath.Join(dir, "dropped.db")
	earlier(dropped)
	db := open(t, dropped)
	execSQL(t, db, "DROP OPERATOR === (int, dd); DROP AGGREGATE ag(dd)")
	db.Close()
	db = open(t, dropped)
	if got := query(t, db, "SELECT count(*) FROM pg_operator WHERE oprname = '===' UNION ALL SELECT count(*) FROM pg_proc WHERE proname = 'ag'"); !slices.Equal(got, []string{"bigint:0", "bigint:0"}) {
		t.Errorf("dropped from an earlier file, after reopening: %q", got)
	}
	db.Close()

	renamed := filepath.Join(dir, "renamed.db")
	earlier(renamed)
	db = open(t, renamed)
	execSQL(t, db, "ALTER DOMAIN dd RENAME TO ee")
	db.Close()
	db = open(t, renamed)
	defer db.Close()
	if got := query(t, db, "SELECT oprright::regtype::text FROM pg_operator WHERE oprname = '===' UNION ALL SELECT 'ag(ee)'::regprocedure::text"); !slices.Equal(got, []string{"text:ee", "text:ag(ee)"}) {
		t.Errorf("renamed in an earlier file, after reopening: %q", got)
	}
}
