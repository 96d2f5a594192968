package store_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/deltaview/deltaview"
	istore "github.com/deltaview/deltaview/internal/store"
)

// probeTS commits an insertion into t and returns its logical time, read
// from the delta of the view v (count(*) over t).
func probeTS(t *testing.T, db *deltaview.DB, x int) uint64 {
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
	if err := db.Exec(fmt.Sprintf("INSERT INTO t VALUES (%d)", x)); err != nil {
		t.Fatal(err)
	}
	return <-got
}

// TestLogicalTimeAfterRestart: whichever way the last commit before a
// restart recorded its time (in a row it inserted, in deltaview_meta when
// it left no row inserted, in rows a DROP then removed), the next commit
// after the restart gets the time it would have got without the restart.
func TestLogicalTimeAfterRestart(t *testing.T) {
	scenarios := []string{
		"INSERT INTO t VALUES (100)",                                                               // the time in the row
		"DELETE FROM t WHERE x = 100",                                                              // deletions only: deltaview_meta
		"UPDATE t SET x = x + 1 WHERE x = 1",                                                       // deletion then insertion of one row id
		"BEGIN; INSERT INTO t VALUES (4); DELETE FROM t WHERE x = 4; COMMIT",                       // the row inserted is gone again
		"CREATE TABLE u (y int); INSERT INTO u VALUES (1); INSERT INTO u VALUES (2); DROP TABLE u", // the rows holding the last time are dropped
		"CREATE TABLE w (y int); INSERT INTO w VALUES (1); DELETE FROM w; INSERT INTO t VALUES (7); DELETE FROM t",
	}
	path := filepath.Join(t.TempDir(), "ts.db")
	const setup = "CREATE TABLE t (x int); CREATE MATERIALIZED VIEW v AS SELECT count(*) AS n FROM t; INSERT INTO t VALUES (1)"
	mem := deltaview.Open()
	defer mem.Close()
	execSQL(t, mem, setup)
	db := open(t, path)
	execSQL(t, db, setup)
	for i, s := range scenarios {
		execSQL(t, mem, s)
		execSQL(t, db, s)
		db.Close()
		db = open(t, path)
		want, got := probeTS(t, mem, 1000+i), probeTS(t, db, 1000+i)
		if got != want {
			t.Fatalf("after %q and a restart, the next commit is at time %d; without the restart at %d", s, got, want)
		}
	}
	db.Close()
}

// TestFormat2Opens checks that a file of format 2, whose rows hold no
// commit time, opens with its rows and its time, and is format 3 from
// then on; a column of the user's named deltaview_ts keeps its values.
func TestFormat2Opens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	db := open(t, path)
	execSQL(t, db, `CREATE TABLE t (x int, deltaview_ts text); CREATE MATERIALIZED VIEW v AS SELECT count(*) AS n FROM t;
		INSERT INTO t VALUES (1, 'one'); INSERT INTO t VALUES (2, 'two')`)
	last := probeTS(t, db, 3)
	want := query(t, db, "SELECT x, deltaview_ts FROM t ORDER BY x")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// Format 2: the user's column under its own name, no commit times in
	// the rows, the last commit's time in deltaview_meta, no table of
	// subscriptions.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"UPDATE deltaview_meta SET value = (SELECT max(deltaview_ts) FROM t) WHERE key = 'last_ts'",
		"ALTER TABLE t DROP COLUMN deltaview_ts",
		"ALTER TABLE t RENAME COLUMN c2_deltaview_ts TO deltaview_ts",
		"DROP TABLE deltaview_subscriptions",
		"DROP TABLE deltaview_servers",
		"DROP TABLE deltaview_foreign_tables",
		"DROP TABLE deltaview_sequences",
		"DROP TABLE deltaview_comments",
		"DROP TABLE deltaview_domains",
		"DROP TABLE deltaview_types",
		"DROP TABLE deltaview_schemas",
		"PRAGMA user_version = 2",
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db = open(t, path)
	if got := query(t, db, "SELECT x, deltaview_ts FROM t ORDER BY x"); !slices.Equal(got, want) {
		t.Errorf("rows of the format 2 file: %q, want %q", got, want)
	}
	if ts := probeTS(t, db, 4); ts != last+1 {
		t.Errorf("first commit after opening the format 2 file at time %d, the last before at %d", ts, last)
	}
	execSQL(t, db, "INSERT INTO t VALUES (5, 'five')")
	want = query(t, db, "SELECT x, deltaview_ts FROM t ORDER BY x")
	db.Close()
	db = open(t, path)
	defer db.Close()
	if got := query(t, db, "SELECT x, deltaview_ts FROM t ORDER BY x"); !slices.Equal(got, want) {
		t.Errorf("rows after a second open: %q, want %q", got, want)
	}
	checkFormatUpgraded(t, path)
}

// checkFormatUpgraded fails t unless the file at path is at the current
// format version, as an open of an older file leaves it.
func checkFormatUpgraded(t *testing.T, path string) {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var version int
	if err := raw.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != istore.FormatVersion {
		t.Errorf("format after opening: %d (%v), want %d", version, err, istore.FormatVersion)
	}
}
