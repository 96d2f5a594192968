package httpapi_test

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
)

// TestBehindReads reads views, their EXPLAIN and the metrics over HTTP
// while a stream of transactions commits on two workers, whose views'
// commits run past each commit's end: every view and EXPLAIN read must be
// what a server on one worker answers after some transaction, never an
// earlier one than the reader's last.
func TestBehindReads(t *testing.T) {
	const schema = `CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, val int NOT NULL);
		INSERT INTO t SELECT g, g % 10, (g * 7919) % 1000 FROM generate_series(1, 2000) g;
		CREATE MATERIALIZED VIEW filtered AS SELECT id, grp, val FROM t WHERE val < 300;
		CREATE MATERIALIZED VIEW over AS SELECT grp, count(*) AS n FROM filtered GROUP BY grp`
	txn := func(db *deltaview.DB, k int) error {
		return db.Exec(fmt.Sprintf(`UPDATE t SET val = (val + %d) %% 1000 WHERE id %% 20 = %d`, 150+k, k%20))
	}
	// The metrics count bytes of state that reads may add: read, not
	// compared.
	paths := []string{"/v1/views/filtered", "/v1/views/over?format=csv", "/v1/views/over/explain", "/metrics"}
	get := func(base, path string) (string, error) {
		resp, err := http.Get(base + path)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("GET %s: %s: %s", path, resp.Status, b)
		}
		return string(b), err
	}
	open := func(workers int) (*deltaview.DB, string) {
		db := deltaview.Open()
		db.SetWorkers(workers)
		if err := db.Exec(schema); err != nil {
			t.Fatal(err)
		}
		return db, start(t, db, httpapi.Options{})
	}
	const txns = 15
	serial, base := open(1)
	seen := make([]map[string][]int, len(paths))
	record := func(k int) {
		for i, p := range paths {
			s, err := get(base, p)
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
	db, base := open(2)
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for r := range 2 {
		wg.Go(func() {
			last := make([]int, len(paths))
			for i := range last {
				last[i] = -1
			}
			for n := r; !stop.Load(); n++ {
				i := n % len(paths)
				s, err := get(base, paths[i])
				if err != nil {
					errs <- err
					return
				}
				if paths[i] == "/metrics" {
					continue
				}
				ks := seen[i][s]
				j := slices.IndexFunc(ks, func(k int) bool { return k >= last[i] })
				if j < 0 {
					errs <- fmt.Errorf("%s read what one worker reads after no transaction from %d on:\n%s", paths[i], last[i], s)
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
