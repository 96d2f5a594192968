package engine

import (
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestWatch checks what a delivering subscriber relies on: the snapshot
// is the view's rows at the last commit's time, a subscription whose
// function returns false is called no more, and dropping the view calls
// end instead of fn.
func TestWatch(t *testing.T) {
	e := New()
	sess := e.NewSession()
	run := func(sql string) {
		t.Helper()
		if err := sess.ExecScript(sql, func(Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	run(`CREATE TABLE q (id int PRIMARY KEY, v int);
		INSERT INTO q VALUES (1, 5), (2, 5), (3, 6);
		CREATE MATERIALIZED VIEW w AS SELECT v FROM q`)
	var got []string
	var ended []error
	snap, _, err := e.Watch("w", true, func(ts uint64, d zset.ZSet) bool {
		got = append(got, itoa(int(ts))+" "+d.String())
		return len(got) < 2
	}, func(err error) { ended = append(ended, err) })
	if err != nil {
		t.Fatal(err)
	}
	if snap.TS != 1 || snap.Rows.String() != "+2 (5)\n+1 (6)\n" {
		t.Fatalf("snapshot at %d: %v", snap.TS, snap.Rows)
	}
	run("INSERT INTO q VALUES (4, 6); INSERT INTO q VALUES (5, 7); INSERT INTO q VALUES (6, 8)")
	if len(got) != 2 {
		t.Fatalf("calls after returning false: %v", got)
	}
	if len(e.subs) != 0 {
		t.Fatalf("%d subscriptions left after the only one ended", len(e.subs))
	}
	_, _, err = e.Watch("w", false, func(uint64, zset.ZSet) bool { t.Error("a call after the drop"); return true },
		func(err error) { ended = append(ended, err) })
	if err != nil {
		t.Fatal(err)
	}
	run("DROP MATERIALIZED VIEW w; INSERT INTO q VALUES (7, 9)")
	if len(ended) != 1 || pgerr.Code(ended[0]) != pgerr.UndefinedTable {
		t.Fatalf("ended with %v", ended)
	}
	if _, _, err := e.Watch("w", true, nil, nil); pgerr.Code(err) != pgerr.UndefinedTable {
		t.Fatalf("watching a dropped view: %v", err)
	}
}
