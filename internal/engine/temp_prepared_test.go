package engine_test

import (
	"fmt"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
)

// TestTempObjectsPrepared: a prepared statement names the temporary
// functions, sequences and types of the session that runs it, each time.
func TestTempObjectsPrepared(t *testing.T) {
	e := engine.New()
	a, b := e.NewSession(), e.NewSession()
	for i, s := range []*engine.Session{a, b} {
		q := fmt.Sprintf(`CREATE FUNCTION pg_temp.f() RETURNS int LANGUAGE sql AS 'SELECT %d';
			CREATE TEMP SEQUENCE s START %d; CREATE TYPE pg_temp.m AS ENUM ('x%d')`, i, 10*(i+1), i)
		if err := s.ExecScript(q, func(engine.Result) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	st, err := sql.Parse("SELECT pg_temp.f(), nextval('s'), 'x0'::m")
	if err != nil {
		t.Fatal(err)
	}
	p, err := a.Prepare(st)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range []*engine.Session{a, b, a} {
		res, err := s.ExecPrepared(p, nil)
		if i == 1 {
			if err == nil {
				t.Error("the second session's type m reads 'x0'")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(res[0].Rows[0][0], res[0].Rows[0][1]); got != fmt.Sprint(0, 10+i/2) {
			t.Errorf("run %d in the first session: %s", i, got)
		}
	}
	st, err = sql.Parse("SELECT pg_temp.f()")
	if err != nil {
		t.Fatal(err)
	}
	p, err = b.Prepare(st)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range []*engine.Session{a, b, a, b} {
		res, err := s.ExecPrepared(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := res[0].Rows[0][0].String(); got != fmt.Sprint(i%2) {
			t.Errorf("pg_temp.f() in session %d: %s", i%2, got)
		}
	}
}
