package pgwire_test

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
)

// TestBehindReads reads views through the server (simple and extended
// protocol, the catalog) while a stream of transactions commits on two
// workers, whose views' commits run past each commit's end: every read
// must be what a server on one worker answers after some transaction,
// never an earlier one than the connection's last read.
func TestBehindReads(t *testing.T) {
	const schema = `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
		INSERT INTO t SELECT g, g % 10, (g * 7919) % 1000 FROM generate_series(1, 2000) g;
		CREATE MATERIALIZED VIEW filtered AS SELECT id, grp, val FROM t WHERE val < 300;
		CREATE MATERIALIZED VIEW grouped AS SELECT grp, count(*) AS n, max(val) AS hi FROM t GROUP BY grp;
		CREATE MATERIALIZED VIEW over AS SELECT grp, count(*) AS n FROM filtered GROUP BY grp`
	txn := func(db *deltaview.DB, k int) error {
		return db.Exec(fmt.Sprintf(`UPDATE t SET val = (val + %d) %% 1000 WHERE id %% 20 = %d`, 150+k, k%20))
	}
	reads := []struct {
		sql  string
		args []any
	}{
		{sql: "SELECT * FROM filtered ORDER BY id"},
		{sql: "SELECT * FROM grouped ORDER BY grp"},
		{sql: "SELECT o.grp, o.n, g.n FROM over o JOIN grouped g ON o.grp = g.grp ORDER BY 1"},
		{sql: "SELECT * FROM filtered WHERE grp = $1 ORDER BY id", args: []any{3}},
		{sql: "SELECT name, rows, steps FROM deltaview_views ORDER BY name"},
	}
	read := func(c *pgx.Conn, i int) (string, error) {
		rows, err := c.Query(ctx(t), reads[i].sql, reads[i].args...)
		if err != nil {
			return "", err
		}
		var out [][]any
		for rows.Next() {
			v, err := rows.Values()
			if err != nil {
				return "", err
			}
			out = append(out, v)
		}
		return fmt.Sprint(out), rows.Err()
	}
	open := func(workers int) (*deltaview.DB, string) {
		db := deltaview.Open()
		db.SetWorkers(workers)
		if err := db.Exec(schema); err != nil {
			t.Fatal(err)
		}
		return db, startServer(t, db)
	}
	const txns = 15
	serial, addr := open(1)
	c := connect(t, addr)
	seen := make([]map[string][]int, len(reads))
	record := func(k int) {
		for i := range reads {
			s, err := read(c, i)
			if err != nil {
				t.Fatal(err)
			}
			if seen[i] == nil {
				seen[i] = map[string][]int{}
			}
			seen[i][s] = append(seen[i][s], k)
		}
	}
	record(-1)
	for k := range txns {
		if err := txn(serial, k); err != nil {
			t.Fatal(err)
		}
		record(k)
	}
	db, addr := open(2)
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for r := range 2 {
		c := connect(t, addr)
		wg.Go(func() {
			last := make([]int, len(reads))
			for i := range last {
				last[i] = -1
			}
			for n := r; !stop.Load(); n++ {
				i := n % len(reads)
				s, err := read(c, i)
				if err != nil {
					errs <- err
					return
				}
				ks := seen[i][s]
				j := slices.IndexFunc(ks, func(k int) bool { return k >= last[i] })
				if j < 0 {
					errs <- fmt.Errorf("%s read what one worker reads after no transaction from %d on:\n%s", reads[i].sql, last[i], s)
					return
				}
				last[i] = ks[j]
			}
		})
	}
	for k := range txns {
		if err := txn(db, k); err != nil {
			t.Error(err)
			break
		}
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
