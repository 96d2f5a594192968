package op

import (
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// A cold start seeded from the index. A TopK of one partition over a
// stored relation (Base) keeps, of the relation's rows that pass the
// stages, the first capacity positions and a count of the others; its
// shared index already holds those rows in order. Fed only the rows
// SeedRows reads from the index, and told of the others with Uncounted,
// it builds the state that feeding it the whole relation builds: the
// kept rows are the shortest prefix of the partition's order holding
// capacity positions, whichever rows below them it saw.

// SeedRows returns the rows of the TopK's relation that may enter its
// kept rows, read from its shared index in order (each with its
// multiplicity there): those of the first capacity positions that pass
// the stages and, under a projection, then those whose sort values tie
// with the last of them (the index orders a tie by the relation's row,
// the TopK by its input's, which a projection may order otherwise; read
// no further, so that a bounded index is not extended for nothing).
// passed is their multiplicity through the stages. Only for a TopK that Seedable reports, whose index
// is loaded.
func (t *TopK) SeedRows() (rows zset.ZSet, passed int64, err error) {
	capa, projects := t.capacity(), t.base.Projects()
	var last []value.Value
	t.index.ScanFrom(value.Row{}, nil, func(row value.Row, w int64) bool {
		if passed >= capa && !projects {
			return false
		}
		r, pass, aerr := t.base.apply(row)
		if aerr != nil || !pass {
			err = aerr
			return aerr == nil
		}
		keys, kerr := t.appendOrderKeys(nil, r)
		if kerr != nil {
			err = kerr
			return false
		}
		if passed >= capa && compareSortKeys(t.order, last, keys) != 0 {
			return false
		}
		rows = append(rows, zset.Entry{Row: row, W: w})
		passed += w
		last = keys
		return true
	})
	return rows, passed, err
}

// Seedable reports whether a cold start may seed the TopK (SeedRows): it
// has one partition and reads a stored relation's shared index.
func (t *TopK) Seedable() bool { return t.base != nil && len(t.part) == 0 }

// Uncounted makes the next step count n more rows of the input than it
// is fed, all of them ordering after those it is fed: in a cold start
// seeded by SeedRows, the relation's rows that pass the stages and that
// SeedRows did not return. Only for a TopK that SeedRows seeds.
func (t *TopK) Uncounted(n int64) { t.uncounted = n }
