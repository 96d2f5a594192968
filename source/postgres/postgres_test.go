package postgres_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
	_ "github.com/deltaview/deltaview/source/postgres"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(killChildEnv); path != "" {
		killChild(path)
		return
	}
	pgtest.UseLogicalReplication()
	pgtest.Main(m)
}

// TestGoAPI subscribes through DB.Exec and stops the subscription with
// DB.Close, which keeps the slot.
func TestGoAPI(t *testing.T) {
	srv := pgtest.Start(t)
	conn := srv.Conn(t)
	pgtest.MustQuery(t, conn, `CREATE TABLE orders (id int PRIMARY KEY, customer text NOT NULL, amount numeric(10,2));
INSERT INTO orders VALUES (1, 'ann', 10), (2, 'bob', 5.5);
CREATE PUBLICATION shop FOR TABLE orders`)
	db := deltaview.Open()
	if err := db.Exec(`CREATE SUBSCRIPTION shop CONNECTION '` + srv.ConnString(conn.Config().Database) + `' PUBLICATION shop;
CREATE MATERIALIZED VIEW totals AS SELECT customer, sum(amount) AS total FROM orders GROUP BY customer`); err != nil {
		t.Fatal(err)
	}
	pgtest.MustQuery(t, conn, "INSERT INTO orders VALUES (3, 'ann', 1.25); UPDATE orders SET amount = 6 WHERE id = 2")
	want := "ann 11.25 bob 6.00 "
	deadline := time.Now().Add(30 * time.Second)
	for {
		rows, err := db.Query("SELECT customer, total FROM totals ORDER BY customer")
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, r := range rows.Rows {
			got += r[0].String() + " " + r[1].String() + " "
		}
		if got == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("totals: %q, want %q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// The walsender has gone; the slot stays for a later start.
	var active bool
	for i := 0; ; i++ {
		if err := conn.QueryRow(context.Background(), "SELECT active FROM pg_replication_slots WHERE slot_name = 'shop'").Scan(&active); err != nil {
			t.Fatal(err)
		}
		if !active {
			break
		}
		if i == 500 {
			t.Fatal("the slot is still active after Close")
		}
		time.Sleep(10 * time.Millisecond)
	}
	pgtest.MustQuery(t, conn, "SELECT pg_drop_replication_slot('shop')")
}
