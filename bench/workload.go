package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Rand is mulberry32, a 32-bit generator simple enough to be written the
// same way in every language the peers run in: the Go systems and the
// JavaScript peers load the same rows and apply the same changes from the
// same seed (bench/peers/js/workload.mjs is its twin).
type Rand struct{ a uint32 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint32) *Rand { return &Rand{a: seed} }

// Next returns the next 32-bit value.
func (r *Rand) Next() uint32 {
	r.a += 0x6D2B79F5
	t := r.a
	t = (t ^ t>>15) * (t | 1)
	t ^= t + (t^t>>7)*(t|61)
	return t ^ t>>14
}

// IntN returns a value in [0, n).
func (r *Rand) IntN(n int) int { return int(r.Next() % uint32(n)) }

// Seed is the seed of every run: data and changes are the same for every
// system.
const Seed = 20240607

// Row of t: id is the position, so only the mutable columns are kept.
type Row struct {
	Grp, Val int64
}

// Data is the base data of one run and, as changes are applied, its
// current state: the oracle that every system's answer is checked against.
type Data struct {
	N    int
	T    []Row // T[id], id in 1..N; T[0] unused
	rand *Rand
}

// NewData generates t and u for n rows and readies the change stream.
//
//	t(id 1..n, grp = id % 1000, k = 1 + id % (n/10), val uniform 0..999999, pad text(20))
//	u(id 1..n/10, name = 'name-<id>', region = 'region-<id % 10>')
func NewData(n int) *Data {
	if n < 10 {
		panic("bench: N must be at least 10")
	}
	d := &Data{N: n, T: make([]Row, n+1), rand: NewRand(Seed)}
	for id := 1; id <= n; id++ {
		d.T[id] = Row{Grp: int64(id % 1000), Val: int64(d.rand.IntN(1_000_000))}
	}
	return d
}

// U returns the number of rows of u.
func (d *Data) U() int { return d.N / 10 }

// K returns t.k of row id.
func (d *Data) K(id int) int64 { return int64(1 + id%(d.N/10)) }

// Pad returns t.pad of row id: 20 characters.
func Pad(id int) string {
	b := [20]byte{'p', 'a', 'd', 'd', 'i', 'n', 'g', '-', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'}
	for i, n := len(b)-1, id; n > 0 && i >= 8; i, n = i-1, n/10 {
		b[i] = byte('0' + n%10)
	}
	return string(b[:])
}

// Name returns u.name of row id.
func Name(id int) string { return "name-" + strconv.Itoa(id) }

// Region returns u.region of row id.
func Region(id int) string { return "region-" + strconv.Itoa(id%10) }

// Change sets the grp and val of row ID; Old is the row before.
type Change struct {
	ID       int
	Old, New Row
}

// Next draws the next change (a row picked uniformly, new grp and val
// drawn uniformly) and applies it to the data.
func (d *Data) Next() Change {
	id := 1 + d.rand.IntN(d.N)
	c := Change{ID: id, Old: d.T[id], New: Row{Grp: int64(d.rand.IntN(1000)), Val: int64(d.rand.IntN(1_000_000))}}
	d.T[id] = c.New
	return c
}

// Batch draws n changes.
func (d *Data) Batch(n int) []Change { return d.BatchInto(nil, n) }

// BatchInto draws n changes into buf's memory when it has room: a run
// that draws a batch at a time reuses one, so that the harness's own
// garbage does not bring the collections of a system in its process
// (deltaview's) forward.
func (d *Data) BatchInto(buf []Change, n int) []Change {
	buf = slices.Grow(buf[:0], n)[:n]
	for i := range buf {
		buf[i] = d.Next()
	}
	return buf
}

// View is one of the workload's views.
type View struct {
	Name    string
	SQL     string // the same text for every SQL system
	Ordered bool   // the answer is a sequence (top-k), not a set
	// ReadOrder is the ORDER BY clause that reads a materialized copy of
	// an ordered view back in its order.
	ReadOrder string
}

// Views are the workload's views, in the order they run.
var Views = []View{
	{Name: "filter", SQL: "SELECT id, grp, val FROM t WHERE val < 100000"},
	{Name: "groupby", SQL: "SELECT grp, count(*) AS n, sum(val) AS total, min(val) AS lo, max(val) AS hi FROM t GROUP BY grp"},
	{Name: "groupcount", SQL: "SELECT grp, count(*) AS n FROM t GROUP BY grp"},
	{Name: "join", SQL: "SELECT t.id, t.val, u.name FROM t JOIN u ON t.k = u.id"},
	{Name: "topk", SQL: "SELECT id, grp, val FROM t WHERE grp < 500 ORDER BY val DESC, id LIMIT 50", Ordered: true, ReadOrder: " ORDER BY val DESC, id"},
}

// Rel is the name of the view's materialized relation ("join" is a
// reserved word).
func (v View) Rel() string { return "v_" + v.Name }

// ViewByName returns the view called name.
func ViewByName(name string) (View, bool) {
	for _, v := range Views {
		if v.Name == name {
			return v, true
		}
	}
	return View{}, false
}

// Answer is a view's rows as text, in PostgreSQL's output format.
type Answer [][]string

// Expected recomputes view v from the current data.
func (d *Data) Expected(v View) Answer {
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	var out Answer
	switch v.Name {
	case "filter":
		for id := 1; id <= d.N; id++ {
			if r := d.T[id]; r.Val < 100000 {
				out = append(out, []string{itoa(int64(id)), itoa(r.Grp), itoa(r.Val)})
			}
		}
	case "groupby", "groupcount":
		type agg struct{ n, sum, lo, hi int64 }
		groups := map[int64]*agg{}
		for id := 1; id <= d.N; id++ {
			r := d.T[id]
			g := groups[r.Grp]
			if g == nil {
				g = &agg{lo: r.Val, hi: r.Val}
				groups[r.Grp] = g
			}
			g.n++
			g.sum += r.Val
			g.lo = min(g.lo, r.Val)
			g.hi = max(g.hi, r.Val)
		}
		for grp, g := range groups {
			if v.Name == "groupcount" {
				out = append(out, []string{itoa(grp), itoa(g.n)})
			} else {
				out = append(out, []string{itoa(grp), itoa(g.n), itoa(g.sum), itoa(g.lo), itoa(g.hi)})
			}
		}
	case "join":
		for id := 1; id <= d.N; id++ {
			out = append(out, []string{itoa(int64(id)), itoa(d.T[id].Val), Name(int(d.K(id)))})
		}
	case "topk":
		var ids []int
		for id := 1; id <= d.N; id++ {
			if d.T[id].Grp < 500 {
				ids = append(ids, id)
			}
		}
		slices.SortFunc(ids, func(a, b int) int {
			if d.T[a].Val != d.T[b].Val {
				return int(d.T[b].Val - d.T[a].Val)
			}
			return a - b
		})
		for _, id := range ids[:min(50, len(ids))] {
			out = append(out, []string{itoa(int64(id)), itoa(d.T[id].Grp), itoa(d.T[id].Val)})
		}
	default:
		panic("bench: unknown view " + v.Name)
	}
	return out
}

// Compare returns nil when got equals want as a set of rows (or as a
// sequence for an ordered view), else an error naming the first difference.
func Compare(v View, got, want Answer) error {
	key := func(r []string) string { return strings.Join(r, "|") }
	g := make([]string, len(got))
	for i, r := range got {
		g[i] = key(r)
	}
	w := make([]string, len(want))
	for i, r := range want {
		w[i] = key(r)
	}
	if !v.Ordered {
		slices.Sort(g)
		slices.Sort(w)
	}
	for i := 0; i < min(len(g), len(w)); i++ {
		if g[i] != w[i] {
			return fmt.Errorf("%s: row %d is (%s), want (%s)", v.Name, i+1, g[i], w[i])
		}
	}
	if len(g) != len(w) {
		return fmt.Errorf("%s: %d rows, want %d", v.Name, len(g), len(w))
	}
	return nil
}
