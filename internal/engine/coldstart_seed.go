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

// fillLater returns sharedIndexes.reserve's later: a new index that a
// top-k of seeds reads is left for seedTopK to fill, in its pass over
// the table (fillSeeded).
func (b *builder) fillLater(seeds map[string]*op.TopK) func(compile.ReserveSpot, *sharedIndex) bool {
	if len(seeds) == 0 {
		return nil
	}
	return func(sp compile.ReserveSpot, si *sharedIndex) bool {
		k, ok := b.v.c.Circuit.Node(sp.Node).(*op.TopK)
		if !ok || seeds[sp.Relation] != k || !fillSeeded {
			return false
		}
		if b.fills == nil {
			b.fills = map[string]*sharedIndex{}
		}
		b.fills[sp.Relation] = si
		return true
	}
}

// fillSeeded, off, makes a seeded top-k's new index load beside the
// count, in a pass of its own: tests compare the two ways.
var fillSeeded = true

// seedTopK builds the state of top-k k over the table rel, as feeding it
// rel's rows would (op.TopK.SeedRows): it counts the rows that pass the
// filters and projections on the way to k, then feeds one step of the
// rows that may enter k's kept rows, read from the index, with the others
// counted. A new index (fills) is filled in the pass that counts
// (fillCounting); an index other views read already is read as it is,
// the count a pass of its own.
func (b *builder) seedTopK(rel string, k *op.TopK) error {
	t := b.e.tables[rel]
	var n int64
	var err error
	if si := b.fills[rel]; si != nil {
		n, err = fillCounting(si, t, k.Base())
	} else {
		n, err = k.Base().Count(func(yield func(value.Row) bool) {
			t.scan(func(_ uint64, r value.Row) bool { return yield(r) })
		})
	}
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

// fillCounting fills the empty reserve index si of table t and returns
// how many of t's rows pass base's stages (op.BaseRows.Count), in one
// pass over the table's rows in place, which tests each row against the
// index's filters and the stages and evaluates the sort keys of those the
// index holds (dataflow.Arrangement.LoadRowsWhere): on two cores when
// every filter is a column's comparison with a constant, which reads the
// row alone. The count's error, if any, is that of the first row in the
// table's order that meets one, as Count's.
func fillCounting(si *sharedIndex, t *table, base *op.BaseRows) (int64, error) {
	pass, split := base.Counter()
	for _, f := range si.fast {
		split = split && f.ok
	}
	// One per part, a cache line apart: the two parts count at once.
	var parts [2]struct {
		n   int64
		err error
		_   [48]byte
	}
	keep := func(part int, row value.Row) bool {
		if p := &parts[part]; p.err == nil {
			ok, err := pass(row)
			switch {
			case err != nil:
				p.err = err
			case ok:
				p.n++
			}
		}
		return si.holds(row)
	}
	err := si.a.LoadRowsWhere(t.rows.rows, keep, split)
	for _, p := range parts {
		if p.err != nil {
			return 0, p.err
		}
	}
	return parts[0].n + parts[1].n, err
}
