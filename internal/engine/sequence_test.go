package engine_test

import (
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestSequenceConcurrent: sessions that call nextval at once, ad hoc
// (under the shared lock) and through a serial column's default (as
// writers), never get the same number, and together get every number.
func TestSequenceConcurrent(t *testing.T) {
	e := engine.New()
	run(t, e, "CREATE TABLE t (id serial PRIMARY KEY, v int)")
	const sessions, calls = 4, 100
	got := make([][]int, sessions)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Go(func() {
			s := e.NewSession()
			for range calls {
				script := "SELECT nextval('t_id_seq')"
				if i%2 == 1 {
					script = "INSERT INTO t (v) VALUES (1) RETURNING id"
				}
				out := runIn(t, s, script)
				lines := strings.Split(strings.TrimSpace(out), "\n")
				n, err := strconv.Atoi(lines[1])
				if err != nil {
					t.Errorf("%s: %q", script, out)
					return
				}
				got[i] = append(got[i], n)
			}
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for i, ns := range got {
		for j, n := range ns {
			if seen[n] {
				t.Fatalf("%d handed out twice", n)
			}
			if j > 0 && n <= ns[j-1] {
				t.Errorf("session %d got %d after %d", i, n, ns[j-1])
			}
			seen[n] = true
		}
	}
	for n := 1; n <= sessions*calls; n++ {
		if !seen[n] {
			t.Errorf("%d was never handed out", n)
		}
	}
}
