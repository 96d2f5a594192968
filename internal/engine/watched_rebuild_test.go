package engine_test

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestRebuildOfWatchedViewRefused checks that a catalog change which
// rebuilds a materialized view (a function's strictness, the rename of a
// type its rows print) is refused with 0A000 inside a transaction block
// when the view has subscribers, whose delivered difference a ROLLBACK
// could not take back, and runs outside one.
func TestRebuildOfWatchedViewRefused(t *testing.T) {
	e := engine.New()
	s := e.NewSession()
	run := func(script string) error {
		return s.ExecScript(script, func(engine.Result) error { return nil })
	}
	if err := run(`CREATE FUNCTION f(int) RETURNS int LANGUAGE sql AS 'SELECT coalesce($1, 0)';
		CREATE TYPE mood AS ENUM ('sad', 'ok');
		CREATE TABLE t (a int, m mood);
		INSERT INTO t VALUES (1, 'ok'), (NULL, 'sad');
		CREATE MATERIALIZED VIEW vf AS SELECT f(a) FROM t;
		CREATE MATERIALIZED VIEW vt AS SELECT pg_typeof(m)::text AS ty FROM t;`); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"vf", "vt"} {
		if _, err := e.Subscribe(v, func(uint64, zset.ZSet) {}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ stmt, want string }{
		{"ALTER FUNCTION f(int) STRICT", "cannot change the strictness of function f(integer) inside a transaction block: materialized view vf"},
		{"ALTER TYPE mood RENAME TO feeling", "cannot rename type mood inside a transaction block: materialized view vt"},
	} {
		if err := run("BEGIN"); err != nil {
			t.Fatal(err)
		}
		err := run(c.stmt)
		if pgerr.Code(err) != pgerr.FeatureNotSupported || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s in a block: %v, want 0A000 %q", c.stmt, err, c.want)
		}
		if err := run("ROLLBACK"); err != nil {
			t.Fatal(err)
		}
		if err := run(c.stmt); err != nil {
			t.Errorf("%s outside a block: %v", c.stmt, err)
		}
	}
}
