package postgres_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
	_ "github.com/deltaview/deltaview/store"
)

// TestRestartResumes keeps a subscription in a file: after a restart it
// resumes from the upstream position its last commit stored, without a
// new snapshot, so that the views equal upstream with nothing doubled
// (b has no key: a transaction applied twice would show twice) and
// nothing lost (commits made upstream while deltaview was down arrive).
// A disabled subscription stays disabled across a restart; a dropped one
// is gone.
func TestRestartResumes(t *testing.T) {
	_, conn, path, views, db := subscribed(t, "sub.db")
	var err error
	upstreamTx := func(i int) { upstreamTxOn(t, conn, i) }
	check := func(db *deltaview.DB, what string) {
		t.Helper()
		waitApplied(t, db, conn, "s")
		for name, q := range views {
			got, want := dvRows(t, db, "SELECT * FROM "+name), pgRows(t, conn, q)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: view %s holds\n%s\nupstream computes\n%s", what, name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	for i := range 20 {
		upstreamTx(i)
	}
	check(db, "before the restart")
	reopen := func() {
		t.Helper()
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if db, err = deltaview.OpenFile(path); err != nil {
			t.Fatal(err)
		}
	}
	// Changes made while deltaview is down arrive after the restart.
	reopen()
	for i := 20; i < 40; i++ {
		upstreamTx(i)
	}
	check(db, "after a restart")
	if got := dvRows(t, db, "SELECT rows_copied FROM deltaview_subscriptions"); !slices.Equal(got, []string{"0"}) {
		t.Errorf("rows copied after the restart: %v, want none (no new snapshot)", got)
	}
	// Twice in a row, then again with changes.
	reopen()
	reopen()
	for i := 40; i < 50; i++ {
		upstreamTx(i)
	}
	check(db, "after two restarts")
	// Restarts while transactions stream in: the server resends from the
	// position last confirmed to it, which lags behind what was applied;
	// the stored position skips what the file holds already.
	for round := range 5 {
		for i := 100 * (round + 1); i < 100*(round+1)+40; i++ {
			upstreamTx(i)
			if i%10 == 0 {
				reopen()
			}
		}
		check(db, "after restarts while streaming")
	}
	// A disabled subscription stays disabled.
	if err := db.Exec("ALTER SUBSCRIPTION s DISABLE"); err != nil {
		t.Fatal(err)
	}
	reopen()
	if got := dvRows(t, db, "SELECT state FROM deltaview_subscriptions"); !slices.Equal(got, []string{"disabled"}) {
		t.Errorf("state after a restart of a disabled subscription: %v", got)
	}
	upstreamTx(50)
	if err := db.Exec("ALTER SUBSCRIPTION s ENABLE"); err != nil {
		t.Fatal(err)
	}
	check(db, "after ENABLE")
	// A dropped subscription is gone, with its slot.
	if err := db.Exec("DROP SUBSCRIPTION s"); err != nil {
		t.Fatal(err)
	}
	reopen()
	defer db.Close()
	if got := dvRows(t, db, "SELECT name FROM deltaview_subscriptions"); len(got) != 0 {
		t.Errorf("subscriptions after DROP and a restart: %v", got)
	}
	if got := pgRows(t, conn, "SELECT slot_name FROM pg_replication_slots"); len(got) != 0 {
		t.Errorf("slots after DROP SUBSCRIPTION: %v", got)
	}
}

// upstreamTxOn commits upstream transaction i of the tests' stream over
// a (keyed) and b (no key, REPLICA IDENTITY FULL).
func upstreamTxOn(t *testing.T, conn *pgx.Conn, i int) {
	pgtest.MustQuery(t, conn, upstreamTxSQL(i))
}

func upstreamTxSQL(i int) string {
	return strings.NewReplacer("$i", strconv.Itoa(i)).Replace(`BEGIN;
INSERT INTO a VALUES (1000 + $i, $i % 7, $i);
UPDATE a SET v = v + 1 WHERE id = $i % 100 + 1;
INSERT INTO b VALUES ($i % 3, 'r');
DELETE FROM b WHERE ctid = (SELECT min(ctid) FROM b WHERE x = ($i + 1) % 3);
COMMIT`)
}

// waitApplied waits until subscription name has applied everything
// upstream committed so far.
func waitApplied(t *testing.T, db *deltaview.DB, conn *pgx.Conn, name string) {
	t.Helper()
	waitAppliedWithin(t, db, conn, name, time.Minute)
}

// waitAppliedWithin is waitApplied with the time it may take.
func waitAppliedWithin(t *testing.T, db *deltaview.DB, conn *pgx.Conn, name string, within time.Duration) {
	t.Helper()
	var lsnText string
	if err := conn.QueryRow(context.Background(), "SELECT pg_current_wal_insert_lsn()::text").Scan(&lsnText); err != nil {
		t.Fatal(err)
	}
	want, _ := pglogrepl.ParseLSN(lsnText)
	deadline := time.Now().Add(within)
	for {
		r, err := db.Query("SELECT state, applied_lsn, coalesce(last_error, '') FROM deltaview_subscriptions WHERE name = '" + name + "'")
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Rows) != 1 {
			t.Fatalf("subscription %s: %d rows in deltaview_subscriptions", name, len(r.Rows))
		}
		state, applied, lastErr := r.Rows[0][0].String(), r.Rows[0][1].String(), r.Rows[0][2].String()
		if state == "failed" {
			t.Fatalf("subscription %s failed: %s", name, lastErr)
		}
		if got, _ := pglogrepl.ParseLSN(applied); got >= want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("subscription %s: applied %s, waiting for %s (state %s, %s)", name, applied, lsnText, state, lastErr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// dvRows returns a query's rows in deltaview as sorted text lines.
func dvRows(t *testing.T, db *deltaview.DB, query string) []string {
	t.Helper()
	r, err := db.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	var out []string
	for _, row := range r.Rows {
		f := make([]string, len(row))
		for i, v := range row {
			f[i] = v.String()
		}
		out = append(out, strings.Join(f, "|"))
	}
	slices.Sort(out)
	return out
}

// pgRows returns a query's rows upstream as sorted text lines.
func pgRows(t *testing.T, conn *pgx.Conn, query string) []string {
	t.Helper()
	return pgtest.SortedLines(t, conn, query)
}

// subscribed starts a PostgreSQL whose tables a (keyed) and b (no key,
// REPLICA IDENTITY FULL) are published as pub, and a database kept in the
// file name of a temporary directory, subscribed to pub as s, with the
// views va and vb over the two tables.
func subscribed(t *testing.T, name string) (srv *pgtest.Server, conn *pgx.Conn, path string, views map[string]string, db *deltaview.DB) {
	t.Helper()
	srv = pgtest.Start(t)
	conn = srv.Conn(t)
	pgtest.MustQuery(t, conn, `CREATE TABLE a (id int PRIMARY KEY, grp int NOT NULL, v numeric(10,2));
CREATE TABLE b (x int, y text);
ALTER TABLE b REPLICA IDENTITY FULL;
INSERT INTO a SELECT g, g % 5, g * 1.5 FROM generate_series(1, 100) g;
INSERT INTO b VALUES (1, 'p'), (1, 'p'), (2, 'q');
CREATE PUBLICATION pub FOR TABLE a, b`)
	path = filepath.Join(t.TempDir(), name)
	views = map[string]string{
		"va": "SELECT grp, count(*) AS n, sum(v) AS s FROM a GROUP BY grp",
		"vb": "SELECT x, y, count(*) AS n FROM b GROUP BY x, y",
	}
	db, err := deltaview.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Exec("CREATE SUBSCRIPTION s CONNECTION '" + srv.ConnString(conn.Config().Database) + "' PUBLICATION pub"); err != nil {
		t.Fatal(err)
	}
	for name, q := range views {
		if err := db.Exec("CREATE MATERIALIZED VIEW " + name + " AS " + q); err != nil {
			t.Fatal(err)
		}
	}
	return srv, conn, path, views, db
}

// TestIdleConfirmStored: while the upstream writes only tables outside
// the publication, the subscription confirms the server's WAL end, so
// that the slot holds no WAL for nothing, but never past the position its
// file holds: a restart resumes from the stored position, which must not
// be behind the slot's.
func TestIdleConfirmStored(t *testing.T) {
	_, conn, path, _, db := subscribed(t, "idle.db")
	defer db.Close()
	waitApplied(t, db, conn, "s")
	pgtest.MustQuery(t, conn, "CREATE TABLE other (x int)")
	file, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	lsn := func(q string) pglogrepl.LSN {
		t.Helper()
		text := pgRows(t, conn, q)[0]
		l, err := pglogrepl.ParseLSN(text)
		if err != nil {
			t.Fatalf("%s: %q: %v", q, text, err)
		}
		return l
	}
	start := lsn("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = 's'")
	var confirmed pglogrepl.LSN
	for i := 0; i < 400; i++ {
		pgtest.MustQuery(t, conn, "INSERT INTO other VALUES ("+strconv.Itoa(i)+")")
		time.Sleep(10 * time.Millisecond)
		confirmed = lsn("SELECT confirmed_flush_lsn::text FROM pg_replication_slots WHERE slot_name = 's'")
		var stored int64
		if err := file.QueryRow("SELECT lsn FROM deltaview_subscriptions WHERE name = 's'").Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if confirmed > pglogrepl.LSN(stored) {
			t.Fatalf("the slot confirms %s, the file holds %s", confirmed, pglogrepl.LSN(stored))
		}
		if i >= 200 && confirmed > start {
			break
		}
	}
	if confirmed <= start {
		t.Fatalf("the slot's confirmed position stayed at %s while the upstream wrote other tables", start)
	}
}
