package engine_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
)

// TestCurrentUserPrepared checks that current_user in a prepared
// statement is the role of the session that executes it, not of the one
// that prepared it: the binding reads it when it runs.
func TestCurrentUserPrepared(t *testing.T) {
	e := engine.New()
	execAll(t, e, "CREATE ROLE alice LOGIN; CREATE ROLE bob LOGIN")
	st, err := sql.Parse("SELECT current_user")
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Prepare(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, role := range []string{"alice", "bob", ""} {
		s := e.NewSession()
		if role != "" {
			if err := s.SetRole(role); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.ExecPrepared(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := role
		if want == "" {
			want = engine.SuperuserName
		}
		if got := res[0].Rows[0][0].String(); got != want {
			t.Errorf("current_user in a session acting as %q = %q, want %q", role, got, want)
		}
	}
}
