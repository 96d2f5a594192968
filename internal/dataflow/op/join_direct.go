package op

import (
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// A join's pair usually becomes an output row of a few columns of l and
// r (SELECT t.id, t.val, u.name): when the projection is columns alone
// and there is no residual, the row is copied from l and r by the columns'
// places (directColumns), without first copying both rows into c.cat and
// evaluating each column over it.

// directColumns returns the place in l ++ r of each output column when
// spec's output is columns alone and it has no residual, else nil.
func directColumns(spec JoinSpec) []int {
	if spec.Residual != nil || spec.Project == nil {
		return nil
	}
	idx := make([]int, len(spec.Project))
	for i, x := range spec.Project {
		col, ok := x.(*expr.Col)
		if !ok || col.Idx < 0 {
			return nil
		}
		idx[i] = col.Idx
	}
	return idx
}

// directFits reports whether every output column lies in c.pl ++ c.pr.
func (c *joinCore) directFits() bool {
	n := len(c.pl) + len(c.pr)
	for _, i := range c.direct {
		if i >= n {
			return false
		}
	}
	return true
}

// copyDirect fills row with the output columns of the pair c.pl, c.pr.
func (c *joinCore) copyDirect(row value.Row) {
	nl := len(c.pl)
	for j, i := range c.direct {
		if i < nl {
			row[j] = c.pl[i]
		} else {
			row[j] = c.pr[i-nl]
		}
	}
}

// probe calls visit for the rows of a whose key is key. In a big batch,
// whose entries of one key are together (a table's replaced row beside
// its new row: one primary key, so one join key when the key is a column
// that did not change), an entry whose key is the previous entry's pairs
// with the rows that lookup found, kept in c.matches, instead of looking
// them up again.
func (c *joinCore) probe(a *dataflow.Arrangement, key []byte, visit func(value.Row, int64) bool, big bool) {
	if !big {
		a.LookupEncoded(key, visit)
		return
	}
	if c.matchOK && string(key) == string(c.matchKey) {
		for _, m := range c.matches {
			if !visit(m.Row, m.W) {
				return
			}
		}
		return
	}
	c.matches = c.matches[:0]
	c.record = true
	a.LookupEncoded(key, visit)
	c.record = false
	// A lookup cut short by an error ends the step: what it recorded is
	// never reused.
	c.matchKey = append(c.matchKey[:0], key...)
	c.matchOK = c.err == nil
}
