package engine

import (
	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/plan"
)

// keyView makes the view's maintained rows hashed by a key of its output
// (plan.Keys: a table's primary key through filters, projections and
// joins on the other side's key) rather than whole: a change then hashes
// one integer where it hashed a row, and a replacement keeping the key
// takes its old row's place (op.Integrate.KeyBy). The rows held, read and
// output are the same.
func (e *Engine) keyView(c *compile.Compiled, p plan.Node) {
	if viewKeysOff {
		return
	}
	ks := plan.Keys(p, e.primaryKey)
	if len(ks) > 0 {
		c.View.KeyBy(ks[0])
	}
}

// viewKeysOff turns the keys off: every view hashes its rows whole (tests
// compare the two).
var viewKeysOff bool

// primaryKey returns a table's primary key, as plan.Keys reads keys: its
// columns are never NULL.
func (e *Engine) primaryKey(rel string) [][]int {
	if t, ok := e.tables[rel]; ok && t.def.PrimaryKey != nil {
		return [][]int{t.def.PrimaryKey}
	}
	return nil
}
