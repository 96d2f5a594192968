package engine

import (
	"io"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// panicStore panics when a commit is written to it, as a bug under the
// engine's lock would.
type panicStore struct{ closedStore }

func (panicStore) Write(*Commit) error { panic("a bug in the store's write") }

func drop(Result) error { return nil }

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

var _ io.Closer = nopCloser{}

// TestPanicHaltsEngine: a statement that panics under the engine's lock
// releases it and halts the engine: the panic reaches the caller, every
// later statement of every session fails with XX000 at once instead of
// waiting on the lock, and closing the store does not hang.
func TestPanicHaltsEngine(t *testing.T) {
	one := value.Row{value.NewInt(value.Int4, 2)}
	for _, tc := range []struct {
		name  string
		write func(s *Session) error
	}{
		{"sql", func(s *Session) error { return s.ExecScript("INSERT INTO t VALUES (2)", drop) }},
		{"sql block", func(s *Session) error {
			return s.ExecScript("BEGIN; INSERT INTO t VALUES (2); COMMIT", drop)
		}},
		{"typed", func(s *Session) error { return s.Insert("t", one) }},
		{"typed block", func(s *Session) error {
			if err := s.Begin(); err != nil {
				return err
			}
			if err := s.Insert("t", one); err != nil {
				return err
			}
			return s.Commit()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := New()
			a, b := e.NewSession(), e.NewSession()
			if err := a.ExecScript("CREATE TABLE t (id int PRIMARY KEY); CREATE MATERIALIZED VIEW v AS SELECT count(*) FROM t; INSERT INTO t VALUES (1)", drop); err != nil {
				t.Fatal(err)
			}
			e.SetStore(panicStore{})
			func() {
				defer func() {
					if recover() == nil {
						t.Fatal("the write did not panic")
					}
				}()
				tc.write(a) //nolint:errcheck // it panics
			}()
			later := []func() error{
				func() error { return b.ExecScript("SELECT * FROM v", drop) },
				func() error { return b.ExecScript("INSERT INTO t VALUES (3)", drop) },
				func() error { return b.Insert("t", value.Row{value.NewInt(value.Int4, 4)}) },
				func() error { return a.ExecScript("SELECT 1", drop) },
				func() error { return a.Commit() },
				func() error { return e.CloseStore(nopCloser{}) },
			}
			for i, f := range later {
				done := make(chan error, 1)
				go func() { done <- f() }()
				select {
				case err := <-done:
					if i < len(later)-1 && pgerr.Code(err) != pgerr.Internal {
						t.Errorf("statement %d after the panic: %v, want XX000", i, err)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("statement %d after the panic waits on the lock", i)
				}
			}
		})
	}
}
