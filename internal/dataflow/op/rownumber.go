package op

import (
	"slices"

	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// RowNumber keeps every row of its input, per partition, in sort order,
// and outputs each with its row_number() appended. A change to a partition
// renumbers the whole partition, so its cost is O(rows of the partition):
// it is meant over a TopK, whose partitions hold at most offset + limit
// rows.
type RowNumber struct {
	part  []expr.Expr
	order []dataflow.SortKey

	parts  map[string][]rnEntry // committed, each sorted
	staged map[string][]rnEntry
	out    zset.ZSet
	rows   int64
	bytes  int64
	buf    []byte
}

type rnEntry struct {
	row  value.Row
	keys []value.Value
	n    int64
}

var _ dataflow.Operator = (*RowNumber)(nil)

// NewRowNumber returns a row numbering of partitions ordered by order,
// ties broken by the whole row.
func NewRowNumber(part []expr.Expr, order []dataflow.SortKey) *RowNumber {
	return &RowNumber{part: part, order: order, parts: map[string][]rnEntry{}}
}

func (r *RowNumber) cmp(a, b *rnEntry) int {
	for i, o := range r.order {
		if c := compareSortValue(a.keys[i], b.keys[i], o.Desc, o.NullsFirst); c != 0 {
			return c
		}
	}
	return zset.CompareRows(a.row, b.row)
}

// compareSortValue compares two values under an ORDER BY item.
func compareSortValue(a, b value.Value, desc, nullsFirst bool) int {
	an, bn := a.IsNull(), b.IsNull()
	switch {
	case an && bn:
		return 0
	case an != bn:
		if an == nullsFirst {
			return -1
		}
		return 1
	}
	c := value.Compare(a, b)
	if desc {
		c = -c
	}
	return c
}

// Step renumbers each partition the input touches and emits the numbered
// rows that changed.
func (r *RowNumber) Step(in []zset.ZSet) (zset.ZSet, error) {
	out := dataflow.ReuseBatch(r.out)
	r.staged = map[string][]rnEntry{}
	for _, e := range in[0] {
		r.buf = r.buf[:0]
		for _, p := range r.part {
			v, err := p.Eval(e.Row)
			if err != nil {
				return nil, err
			}
			r.buf = value.AppendKey(r.buf, v)
		}
		key := string(r.buf)
		cur, ok := r.staged[key]
		if !ok {
			cur = slices.Clone(r.parts[key])
		}
		keys := make([]value.Value, len(r.order))
		for i, o := range r.order {
			v, err := o.Expr.Eval(e.Row)
			if err != nil {
				return nil, err
			}
			keys[i] = v
		}
		ent := rnEntry{row: e.Row, keys: keys, n: e.W}
		i, found := slices.BinarySearchFunc(cur, ent, func(a, b rnEntry) int { return r.cmp(&a, &b) })
		if found {
			cur[i].n += e.W
			if cur[i].n == 0 {
				cur = slices.Delete(cur, i, i+1)
			}
		} else {
			cur = slices.Insert(cur, i, ent)
		}
		r.staged[key] = cur
	}
	for key, cur := range r.staged {
		out = number(out, r.parts[key], -1)
		out = number(out, cur, 1)
	}
	r.out = zset.Consolidate(out)
	return r.out, nil
}

// number appends each row of a sorted partition, as many times as it
// occurs, with its row number, weighted w.
func number(out zset.ZSet, part []rnEntry, w int64) zset.ZSet {
	rn := int64(0)
	for _, e := range part {
		for k := int64(0); k < e.n; k++ {
			rn++
			row := make(value.Row, len(e.row)+1)
			copy(row, e.row)
			row[len(e.row)] = value.NewInt(value.Int8, rn)
			out = append(out, zset.Entry{Row: row, W: w})
		}
	}
	return out
}

// Commit applies the staged partitions.
func (r *RowNumber) Commit() {
	for key, cur := range r.staged {
		for _, e := range r.parts[key] {
			r.rows -= e.n
			r.bytes -= dataflow.RowBytes(e.row)
		}
		for _, e := range cur {
			r.rows += e.n
			r.bytes += dataflow.RowBytes(e.row)
		}
		if len(cur) == 0 {
			delete(r.parts, key)
		} else {
			r.parts[key] = cur
		}
	}
	r.staged = nil
}

// Abort drops the staged partitions.
func (r *RowNumber) Abort() { r.staged = nil }

// Info describes the numbering.
func (r *RowNumber) Info() dataflow.Info {
	return dataflow.Info{Kind: "RowNumber", State: "the rows of each partition, in order", Cost: "O(rows of the partition) per touched partition",
		Unbounded: "row numbering: a change renumbers the rows of its partition"}
}

// State reports the rows kept.
func (r *RowNumber) State() dataflow.StateSize {
	return dataflow.StateSize{Rows: r.rows, Bytes: r.bytes}
}
