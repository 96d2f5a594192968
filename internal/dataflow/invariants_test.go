//go:build invariants

package dataflow

import (
	"strings"
	"testing"

	"github.com/deltaview/deltaview/internal/zset"
)

type unsorted struct{ spy }

func (u *unsorted) Step(in []zset.ZSet) (zset.ZSet, error) {
	return zset.ZSet{e(r(2), 1), e(r(1), 1)}, nil
}

func TestInvariantConsolidated(t *testing.T) {
	c := NewCircuit()
	c.Add(&unsorted{}, c.Input("t"))
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "unconsolidated") {
			t.Fatalf("recovered %q", msg)
		}
	}()
	c.Step(map[string]zset.ZSet{"t": {e(r(1), 1)}})
	t.Fatal("no panic")
}
