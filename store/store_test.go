package store_test

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/deltaview/deltaview"
	_ "github.com/deltaview/deltaview/store"
)

// open opens the database at path or fails the test.
func open(t *testing.T, path string) *deltaview.DB {
	t.Helper()
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatalf("OpenFile(%s): %v", path, err)
	}
	return db
}

func execSQL(t *testing.T, db *deltaview.DB, script string) {
	t.Helper()
	if err := db.Exec(script); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
}

// dump prints a result set one row a line, each value with its type, in
// the order given.
func dump(r *deltaview.Rows) []string {
	var out []string
	for _, row := range r.Rows {
		var b strings.Builder
		for i, v := range row {
			if i > 0 {
				b.WriteString(" | ")
			}
			if v.IsNull() {
				b.WriteString("NULL")
				continue
			}
			fmt.Fprintf(&b, "%s:%s", r.Columns[i].Type, v.String())
		}
		out = append(out, b.String())
	}
	return out
}

func query(t *testing.T, db *deltaview.DB, q string) []string {
	t.Helper()
	r, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return dump(r)
}

// viewsEqualRecomputation checks that every view holds what its query
// computes from the tables now.
func viewsEqualRecomputation(t *testing.T, db *deltaview.DB, defs map[string]string) {
	t.Helper()
	for name, def := range defs {
		v, err := db.View(name)
		if err != nil {
			t.Fatalf("view %s: %v", name, err)
		}
		got := dump(v)
		want := query(t, db, def)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("view %s holds\n%s\nits query computes\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestRoundTrip stores a value of every supported type, edge values
// included, and reads them back equal after the file is opened again.
func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rt.db")
	db := open(t, path)
	long := strings.Repeat("long text é ✓ ", 100000)
	execSQL(t, db, `CREATE TABLE t (
		id int PRIMARY KEY, b bool, i2 int2, i4 int4, i8 int8, n numeric, n2 numeric(12,4),
		f4 float4, f8 float8, s text, vc varchar(10), c char(6), d date, ts timestamp, tz timestamptz, iv interval)`)
	execSQL(t, db, `INSERT INTO t VALUES
		(1, true, -32768, -2147483648, -9223372036854775808, 1.50, 2.0000, 'NaN', 'NaN', '', '', '', '-infinity', '-infinity', '-infinity', '-1 year -2 mons +3 days -04:05:06.000007'),
		(2, false, 32767, 2147483647, 9223372036854775807, 'NaN', -0.0001, 'Infinity', 'Infinity', 'a''b"c\\d', 'ten chars!', 'ab', 'infinity', 'infinity', 'infinity', '0'),
		(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
		(4, true, 0, 0, 0, '-Infinity', 0, '-Infinity', '-Infinity', ' lead and trail ', 'x', 'abcdef', '2000-01-01', '2000-01-01 00:00:00', '1999-12-31 23:59:59.999999+00', '178000000 years'),
		(5, false, 1, 1, 1, '123456789012345678901234567890.123456789012345678901234567890', 12345678.1234, '-0', '-0', 'line1
line2	tab', 'é✓', ' ', '4713-01-01 BC', '294276-12-31 23:59:59.999999', '1970-01-01 00:00:00+00', '1 day 00:00:00.000001'),
		(6, true, 2, 2, 2, 0.000000000000000000000000001, 1e-4, 1.17549435e-38, 4.9e-324, 'x', 'y', 'z', '2024-02-29', '2024-02-29 12:34:56.789', '2024-02-29 12:34:56.789+05:30', '-178000000 years'),
		(7, false, 3, 3, 3, 1e100, 0.5, 3.4028235e+38, 1.7976931348623157e+308, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`)
	execSQL(t, db, "INSERT INTO t (id, s) VALUES (8, '"+long+"')")
	q := "SELECT * FROM t ORDER BY id"
	before := query(t, db, q)
	// -0 prints as -0 and compares equal to 0: keep its sign bit in view.
	sign := func(db *deltaview.DB) []bool {
		r, err := db.Query("SELECT f4, f8 FROM t WHERE id = 5")
		if err != nil {
			t.Fatal(err)
		}
		return []bool{math.Signbit(r.Rows[0][0].Float()), math.Signbit(r.Rows[0][1].Float())}
	}
	if !slices.Equal(sign(db), []bool{true, true}) {
		t.Fatalf("-0 lost before storing")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	defer db.Close()
	after := query(t, db, q)
	if !slices.Equal(before, after) {
		for i := range before {
			if i < len(after) && before[i] != after[i] {
				t.Errorf("row %d stored\n%.300s\nread back\n%.300s", i, before[i], after[i])
			}
		}
		t.Fatalf("%d rows stored, %d read back", len(before), len(after))
	}
	if !slices.Equal(sign(db), []bool{true, true}) {
		t.Fatalf("-0 read back as +0")
	}
	if got := query(t, db, "SELECT length(s) FROM t WHERE id = 8"); got[0] != fmt.Sprintf("integer:%d", len([]rune(long))) {
		t.Fatalf("long text read back with length %s", got[0])
	}
}

// TestRestart checks that DDL, DML and drops survive a restart, that the
// views are rebuilt equal to their recomputation, and that maintenance
// goes on from there.
func TestRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "restart.db")
	db := open(t, path)
	execSQL(t, db, `
		CREATE TABLE c (id int PRIMARY KEY, region text NOT NULL, score numeric(6,2) DEFAULT 0);
		CREATE TABLE o (id int PRIMARY KEY, cust int, amt numeric(10,2), at timestamptz);
		CREATE TABLE gone (x int);
		CREATE VIEW big AS SELECT * FROM o WHERE amt > 10;
		CREATE MATERIALIZED VIEW by_region AS SELECT c.region, count(*) AS n, sum(o.amt) AS total FROM c JOIN o ON o.cust = c.id GROUP BY c.region;
		CREATE MATERIALIZED VIEW big_count AS SELECT count(*) AS n FROM big;
		CREATE MATERIALIZED VIEW dropped AS SELECT x FROM gone;
		INSERT INTO c (id, region) VALUES (1, 'north'), (2, 'south'), (3, 'north');
		INSERT INTO o VALUES (1, 1, 5.50, '2024-01-01 00:00:00+00'), (2, 1, 20, NULL), (3, 2, 30.25, NULL), (4, 3, 1, NULL);
		BEGIN; UPDATE o SET amt = amt * 2 WHERE cust = 1; DELETE FROM o WHERE id = 4; COMMIT;
		BEGIN; INSERT INTO o VALUES (9, 2, 99, NULL); ROLLBACK;
		DROP TABLE gone CASCADE;
		CREATE TABLE later (k text PRIMARY KEY);
		INSERT INTO later VALUES ('a'), ('b');
		DELETE FROM later WHERE k = 'a';
	`)
	defs := map[string]string{
		"by_region": "SELECT c.region, count(*) AS n, sum(o.amt) AS total FROM c JOIN o ON o.cust = c.id GROUP BY c.region",
		"big_count": "SELECT count(*) AS n FROM big",
	}
	tables := []string{"SELECT * FROM c ORDER BY id", "SELECT * FROM o ORDER BY id", "SELECT * FROM later"}
	var want [][]string
	for _, q := range tables {
		want = append(want, query(t, db, q))
	}
	wantViews := map[string][]string{}
	for name := range defs {
		r, _ := db.View(name)
		wantViews[name] = dump(r)
	}
	db.Close()

	db = open(t, path)
	for i, q := range tables {
		if got := query(t, db, q); !slices.Equal(got, want[i]) {
			t.Fatalf("%s after restart:\n%s\nwant\n%s", q, strings.Join(got, "\n"), strings.Join(want[i], "\n"))
		}
	}
	for name, w := range wantViews {
		r, err := db.View(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := dump(r); !slices.Equal(got, w) {
			t.Fatalf("view %s after restart: %v, want %v", name, got, w)
		}
	}
	viewsEqualRecomputation(t, db, defs)
	for _, gone := range []string{"gone", "dropped"} {
		if _, err := db.Query("SELECT * FROM " + gone); deltaview.Code(err) != "42P01" {
			t.Fatalf("dropped relation %s: %v, want 42P01", gone, err)
		}
	}
	// Defaults and constraints came back with the tables.
	execSQL(t, db, "INSERT INTO c (id, region) VALUES (4, 'east'); INSERT INTO o VALUES (10, 4, 7, NULL)")
	if err := db.Exec("INSERT INTO c (id) VALUES (5)"); deltaview.Code(err) != "23502" {
		t.Fatalf("NOT NULL after restart: %v", err)
	}
	if err := db.Exec("INSERT INTO c VALUES (1, 'dup', 0)"); deltaview.Code(err) != "23505" {
		t.Fatalf("PRIMARY KEY after restart: %v", err)
	}
	if got := query(t, db, "SELECT score FROM c WHERE id = 4"); got[0] != "numeric(6,2):0.00" {
		t.Fatalf("default after restart: %v", got)
	}
	viewsEqualRecomputation(t, db, defs)
	db.Close()
	db = open(t, path)
	defer db.Close()
	viewsEqualRecomputation(t, db, defs)
	if got := query(t, db, "SELECT count(*) FROM c"); got[0] != "bigint:4" {
		t.Fatalf("rows after the second restart: %v", got)
	}
}

// TestCompaction churns a table until the engine renumbers its rows, and
// checks that the file follows.
func TestCompaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "compact.db")
	db := open(t, path)
	execSQL(t, db, "CREATE TABLE q (id int PRIMARY KEY, v int); CREATE MATERIALIZED VIEW s AS SELECT count(*) AS n, sum(v) AS total FROM q")
	execSQL(t, db, "INSERT INTO q SELECT g, g FROM generate_series(1, 3000) AS g")
	execSQL(t, db, "DELETE FROM q WHERE id <= 2500")
	execSQL(t, db, "UPDATE q SET v = v + 1 WHERE id > 2990; INSERT INTO q VALUES (1, 1)")
	want := query(t, db, "SELECT * FROM q ORDER BY id")
	db.Close()
	db = open(t, path)
	defer db.Close()
	if got := query(t, db, "SELECT * FROM q ORDER BY id"); !slices.Equal(got, want) {
		t.Fatalf("after compaction and restart: %d rows, want %d", len(got), len(want))
	}
	execSQL(t, db, "UPDATE q SET v = 0 WHERE id = 3000; DELETE FROM q WHERE id = 2999")
	want = query(t, db, "SELECT * FROM q ORDER BY id")
	db.Close()
	db = open(t, path)
	if got := query(t, db, "SELECT * FROM q ORDER BY id"); !slices.Equal(got, want) {
		t.Fatalf("changes after compaction, restarted: %d rows, want %d", len(got), len(want))
	}
	viewsEqualRecomputation(t, db, map[string]string{"s": "SELECT count(*) AS n, sum(v) AS total FROM q"})
}

// TestLogicalTimeSurvives: the logical time goes on from the last commit
// stored, so that deltas after a restart never reuse a time.
func TestLogicalTimeSurvives(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ts.db")
	tsOfNext := func(db *deltaview.DB, stmt string) uint64 {
		t.Helper()
		got := make(chan uint64, 1)
		cancel, err := db.Subscribe("v", func(d deltaview.Delta) {
			select {
			case got <- d.TS:
			default:
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
		execSQL(t, db, stmt)
		return <-got
	}
	db := open(t, path)
	execSQL(t, db, "CREATE TABLE t (x int); CREATE MATERIALIZED VIEW v AS SELECT count(*) AS n FROM t; INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)")
	before := tsOfNext(db, "INSERT INTO t VALUES (3)")
	execSQL(t, db, "BEGIN; INSERT INTO t VALUES (4); DELETE FROM t WHERE x = 4; COMMIT") // cancels out
	db.Close()
	db = open(t, path)
	defer db.Close()
	if after := tsOfNext(db, "INSERT INTO t VALUES (5)"); after != before+1 {
		t.Fatalf("first delta after restart at time %d, the last before at %d", after, before)
	}
}

// TestNamesSQLiteConfuses: names that differ only in letter case, or that
// the store uses, are distinct tables and columns in deltaview; the file
// keeps them apart.
func TestNamesSQLiteConfuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "names.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE "T" ("A" int, a int, deltaview_row_id int, "DELTAVIEW_ROW_ID" text, "Deltaview_TS" text);
		CREATE TABLE t (x int); CREATE TABLE deltaview_catalog (y int); CREATE TABLE sqlite_x (z int);
		INSERT INTO "T" VALUES (1, 2, 3, 'four', 'five'); INSERT INTO t VALUES (5); INSERT INTO deltaview_catalog VALUES (6); INSERT INTO sqlite_x VALUES (7)`)
	qs := []string{`SELECT * FROM "T"`, "SELECT * FROM t", "SELECT * FROM deltaview_catalog", "SELECT * FROM sqlite_x"}
	var want [][]string
	for _, q := range qs {
		want = append(want, query(t, db, q))
	}
	db.Close()
	db = open(t, path)
	defer db.Close()
	for i, q := range qs {
		if got := query(t, db, q); !slices.Equal(got, want[i]) {
			t.Fatalf("%s after restart: %v, want %v", q, got, want[i])
		}
	}
}
