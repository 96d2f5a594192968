package postgres_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/sink/postgres"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// A dimension view, maintained from partial change events, is kept in a
// PostgreSQL table through the public API; a commit the table cannot take
// is rolled back in deltaview too.
func TestTable(t *testing.T) {
	conn := pgtest.Start(t).Conn(t)
	db := deltaview.Open()
	if err := db.Exec(`
		CREATE TABLE addresses (aid int PRIMARY KEY, city text) WITH (change_stream = true);
		CREATE TABLE customers (cid int PRIMARY KEY, name text, aid int NOT NULL) WITH (change_stream = true);
		CREATE MATERIALIZED VIEW dim AS SELECT c.cid, c.name, a.city FROM customers c JOIN addresses a ON c.aid = a.aid;
COPY addresses FROM STDIN WITH (FORMAT upsert);
{"key": 1, "value": {"city": "Essen"}}
\.
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op": "c", "after": {"cid": 7, "name": "Adam", "aid": 1}}
\.
`); err != nil {
		t.Fatal(err)
	}
	detach, err := db.SinkTo("dim", postgres.Database(conn).Table("dim"))
	if err != nil {
		t.Fatal(err)
	}
	defer detach()
	rows := func() string {
		t.Helper()
		var out []string
		for _, r := range pgtest.MustQuery(t, conn, "SELECT cid, name, city FROM dim ORDER BY cid") {
			out = append(out, fmt.Sprintf("%s %s %s", *r[0], *r[1], *r[2]))
		}
		return fmt.Sprint(out)
	}
	if got := rows(); got != "[7 Adam Essen]" {
		t.Fatalf("after attaching: %s", got)
	}
	if err := db.Exec(`
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op": "c", "after": {"cid": 8, "name": "Eva", "aid": 1}}
\.
COPY addresses FROM STDIN WITH (FORMAT debezium);
{"op": "u", "before": null, "after": {"aid": 1, "city": "Bonn"}}
\.
`); err != nil {
		t.Fatal(err)
	}
	if got := rows(); got != "[7 Adam Bonn 8 Eva Bonn]" {
		t.Fatalf("after two commits: %s", got)
	}
	// The table lost a row the view still has: deleting it must fail the
	// commit, here and in deltaview.
	pgtest.MustQuery(t, conn, "DELETE FROM dim WHERE cid = 8")
	err = db.Exec(`
COPY customers FROM STDIN WITH (FORMAT debezium);
{"op": "d", "before": {"cid": 8, "name": "Eva", "aid": 1}}
\.
`)
	if deltaview.Code(err) != "P0002" {
		t.Fatalf("deleting a row the table lost: %v, want P0002", err)
	}
	view, err := db.View("dim")
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Rows) != 2 {
		t.Fatalf("the failed commit left the view with %v", view.Rows)
	}
}
