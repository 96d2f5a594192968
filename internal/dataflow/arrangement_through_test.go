package dataflow

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestReadThrough keeps a table of rows (id, k, v) by id and two
// arrangements of it on k, one holding the rows and one reading them
// through the table by id, loaded from the same rows (a big load and a
// small one), then staged and committed with the same random steps
// (values replaced with the key kept, which the second drops; keys moved;
// ids moved; deletes and inserts; NULL keys), the table read as of the
// last commit until the step commits: each key's rows and weights, Len,
// Total, the whole scan and Weight agree after every step, and the second
// holds no row's bytes.
func TestReadThrough(t *testing.T) {
	for _, n := range []int{100, 40000} {
		testReadThrough(t, n)
	}
}

func testReadThrough(t *testing.T, n int) {
	rng := rand.New(rand.NewPCG(uint64(n), 3))
	i4 := func(x int64) value.Value { return value.NewInt(value.Int4, x) }
	keyOf := func(id int64) value.Value {
		if id%53 == 0 {
			return value.Null
		}
		return i4(1 + id%97)
	}
	table := map[int64]value.Row{}
	var ids []value.Row
	for id := int64(1); id <= int64(n); id++ {
		r := value.Row{i4(id), keyOf(id), i4(rng.Int64N(1000))}
		table[id] = r
		ids = append(ids, r)
	}
	spec := ArrangementSpec{Name: "t", Key: []expr.Expr{&expr.Col{Idx: 1, T: value.Int4Type}}, DropNullKeys: true}
	rows, through := NewArrangement(spec), NewArrangement(spec)
	rows.Claim()
	through.Claim()
	if !through.ReadThrough(func(id int64) value.Row {
		r, ok := table[id]
		if !ok {
			t.Fatalf("read of id %d, which the table does not hold", id)
		}
		return r
	}) {
		t.Fatal("ReadThrough refused an index on one integer column")
	}
	if err := rows.LoadRows(ids); err != nil {
		t.Fatal(err)
	}
	if err := through.LoadRows(ids); err != nil {
		t.Fatal(err)
	}
	check := func(step int) {
		t.Helper()
		if rows.Len() != through.Len() || rows.Total() != through.Total() {
			t.Fatalf("step %d: %d rows (%d) against %d (%d)", step, through.Len(), through.Total(), rows.Len(), rows.Total())
		}
		if through.RowBytes() != 0 {
			t.Fatalf("step %d: reading through counts %d bytes of rows", step, through.RowBytes())
		}
		for k := int64(0); k <= 99; k++ {
			var a, b []string
			key := value.Row{i4(k)}
			rows.Lookup(key, func(r value.Row, w int64) bool { a = append(a, zset.ZSet{{Row: r, W: w}}.String()); return true })
			through.Lookup(key, func(r value.Row, w int64) bool { b = append(b, zset.ZSet{{Row: r, W: w}}.String()); return true })
			if !slices.Equal(a, b) {
				t.Fatalf("step %d: key %d: %v against %v", step, k, b, a)
			}
		}
		if n <= 1000 && rows.String() != through.String() {
			t.Fatalf("step %d: scans differ:\n%s\n%s", step, through.String(), rows.String())
		}
		for range 20 {
			r := table[1+rng.Int64N(int64(n))]
			if r != nil && rows.Weight(r) != through.Weight(r) {
				t.Fatalf("step %d: weight of %v: %d against %d", step, r, through.Weight(r), rows.Weight(r))
			}
		}
	}
	check(-1)
	next := int64(n + 1)
	for step := range 60 {
		size := 1 + rng.IntN(5)
		if step%3 == 0 {
			size = 100 + rng.IntN(2000)
		}
		after := map[int64]value.Row{}
		gone := map[int64]bool{}
		for range size {
			id := 1 + rng.Int64N(next-1)
			if after[id] != nil || gone[id] {
				continue
			}
			old, ok := table[id]
			switch c := rng.IntN(10); {
			case !ok:
				after[id] = value.Row{i4(id), keyOf(id), i4(rng.Int64N(1000))}
			case c < 6: // the key kept
				after[id] = value.Row{i4(id), old[1], i4(rng.Int64N(1000))}
			case c < 8: // the key moved
				after[id] = value.Row{i4(id), i4(rng.Int64N(99)), old[2]}
			case c < 9:
				gone[id] = true
			default: // the id moved: a retraction and an assertion apart
				gone[id] = true
				after[next] = value.Row{i4(next), old[1], old[2]}
				next++
			}
		}
		var d zset.ZSet
		for id, r := range after {
			if old, ok := table[id]; ok {
				d = append(d, zset.Entry{Row: old, W: -1})
			}
			d = append(d, zset.Entry{Row: r, W: 1})
		}
		for id := range gone {
			d = append(d, zset.Entry{Row: table[id], W: -1})
		}
		d = zset.Consolidate(d)
		if err := rows.Stage(d); err != nil {
			t.Fatal(err)
		}
		if err := through.Stage(d); err != nil {
			t.Fatal(err)
		}
		if step%7 == 3 {
			rows.Abort()
			through.Abort()
			check(step)
			continue
		}
		rows.Commit()
		through.Commit()
		for id := range gone {
			delete(table, id)
		}
		for id, r := range after {
			table[id] = r
		}
		check(step)
	}
}
