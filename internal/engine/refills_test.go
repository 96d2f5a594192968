package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/engine"
)

// TestRefillNotice checks that refills are counted per view and that a
// step refilling more often than the threshold raises a notice.
func TestRefillNotice(t *testing.T) {
	saved := op.DefaultReserve
	op.DefaultReserve = 1
	defer func() { op.DefaultReserve = saved }()
	e := engine.New()
	sess := e.NewSession()
	run := func(sql string) []string {
		var notices []string
		if err := sess.ExecScript(sql, func(r engine.Result) error {
			notices = append(notices, r.Notices...)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return notices
	}
	run(`SET deltaview.refill_notice = 1;
		CREATE TABLE t (id int PRIMARY KEY, g int, v int);
		INSERT INTO t SELECT i, i % 3, i FROM generate_series(1, 30) i;
		CREATE MATERIALIZED VIEW m AS SELECT g, max(v) FROM t GROUP BY g;`)
	// Deleting one group's maximum refills that group once: no notice.
	if n := run(`DELETE FROM t WHERE id = 30`); len(n) != 0 {
		t.Fatalf("notices after one refill: %q", n)
	}
	// Deleting every group's maximum in one step refills three times.
	n := run(`DELETE FROM t WHERE id IN (27, 28, 29)`)
	if len(n) != 1 || !strings.Contains(n[0], `"m" refilled its reserves 3 times`) {
		t.Fatalf("notices: %q", n)
	}
	var refills string
	if err := sess.ExecScript(`SELECT refills FROM deltaview_views WHERE name = 'm'`, func(r engine.Result) error {
		refills = r.Rows[0][0].String()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if refills != "4" {
		t.Fatalf("deltaview_views.refills = %s, want 4", refills)
	}
}

func TestRefillNoticeSetting(t *testing.T) {
	e := engine.New()
	sess := e.NewSession()
	err := sess.ExecScript(`SET deltaview.refill_notice = 'many'`, func(engine.Result) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "invalid value") {
		t.Fatalf("err = %v", err)
	}
	if err := sess.ExecScript(`SET deltaview.refill_notice = -1; RESET deltaview.refill_notice`, func(engine.Result) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestRefillNoticeZero checks that a threshold of 0 raises a notice on
// every refill, that a negative one raises none and that RESET restores
// the default.
func TestRefillNoticeZero(t *testing.T) {
	saved := op.DefaultReserve
	op.DefaultReserve = 1
	defer func() { op.DefaultReserve = saved }()
	sess := engine.New().NewSession()
	notices := func(sql string) int {
		n := 0
		if err := sess.ExecScript(sql, func(r engine.Result) error {
			n += len(r.Notices)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	notices(`CREATE TABLE t (id int PRIMARY KEY, g int, v int);
		INSERT INTO t SELECT i, i % 3, i FROM generate_series(1, 30) i;
		CREATE MATERIALIZED VIEW m AS SELECT g, max(v) FROM t GROUP BY g;`)
	for _, c := range []struct {
		set  string
		id   int
		want int
	}{
		{"SET deltaview.refill_notice = 0", 30, 1},
		{"SET deltaview.refill_notice = -1", 29, 0},
		{"RESET deltaview.refill_notice", 28, 0},
		{"SET deltaview.refill_notice = 0", 27, 1},
	} {
		notices(c.set)
		if got := notices(fmt.Sprintf("DELETE FROM t WHERE id = %d", c.id)); got != c.want {
			t.Errorf("%s: one refill raised %d notices, want %d", c.set, got, c.want)
		}
	}
}
