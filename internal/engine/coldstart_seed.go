package engine

import (
	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// seedTopKs, off, makes cold starts feed every top-k its relation's rows:
// tests compare the two ways.
var seedTopKs = true

// seededTopKs returns, by stored relation, the top-ks of one partition
// that read the relation's shared index (sharedIndexes.reserve) and
// through which alone, past filters and projections, the relation's rows
// reach the circuit: the cold start seeds each from its index
// (builder.seedTopK) instead of feeding it the relation's rows, of which
// it keeps the first few and counts the others.
func seededTopKs(c *compile.Compiled) map[string]*op.TopK {
	if !seedTopKs {
		return nil
	}
	var m map[string]*op.TopK
spots:
	for _, sp := range c.Reserves {
		k, ok := c.Circuit.Node(sp.Node).(*op.TopK)
		if !ok || !k.Seedable() {
			continue
		}
		path, ok := c.Circuit.PathTo(sp.Relation, sp.Node)
		if !ok {
			continue
		}
		for _, id := range path {
			switch c.Circuit.Node(id).(type) {
			case *op.Filter, *op.Map:
			default:
				continue spots
			}
		}
		if m == nil {
			m = map[string]*op.TopK{}
		}
		m[sp.Relation] = k
	}
	return m
}

// seedTopK builds the state of top-k k over the table rel, as feeding it
// rel's rows would (op.TopK.SeedRows): it counts the rows that pass the
// filters and projections on the way to k (reading the table once, while
// its index loads), then feeds one step of the rows that may enter k's
// kept rows, read from the index, with the others counted.
func (b *builder) seedTopK(rel string, k *op.TopK) error {
	t := b.e.tables[rel]
	n, err := k.Base().Count(func(yield func(value.Row) bool) {
		t.scan(func(_ uint64, r value.Row) bool { return yield(r) })
	})
	if err != nil {
		return err
	}
	if err := b.indexes(); err != nil {
		return err
	}
	rows, passed, err := k.SeedRows()
	if err != nil {
		return err
	}
	if passed > n || passed == 0 && n > 0 {
		return pgerr.New(pgerr.Internal, "top-k: its index holds %d of the %d rows of %s that pass its filters", passed, n, rel)
	}
	if n == 0 {
		b.done += int64(t.rows.Len())
		b.report(false)
		return nil
	}
	k.Uncounted(n - passed)
	return b.step(map[string]zset.ZSet{rel: rows}, int64(t.rows.Len()))
}
