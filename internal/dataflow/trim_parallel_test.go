package dataflow

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// arranger is an operator that stages its input in an arrangement it owns
// and passes the input on.
type arranger struct{ a *Arrangement }

func (o *arranger) Step(in []zset.ZSet) (zset.ZSet, error) { return in[0], o.a.Stage(in[0]) }
func (o *arranger) Commit()                                { o.a.Commit() }
func (o *arranger) Abort()                                 { o.a.Abort() }
func (o *arranger) Info() Info                             { return Info{Kind: "Arranger"} }
func (o *arranger) State() StateSize                       { return o.a.State() }
func (o *arranger) Trim()                                  { o.a.Trim() }
func (o *arranger) PendingRows() int                       { return o.a.PendingRows() }
func (o *arranger) DeferLoads()                            { o.a.DeferLoads() }

// TestTrimLoadsInParallel builds three arrangements of two inputs as a
// cold start does (loads deferred, batches fed, then Trim), once with one
// core, where the loads run one after the other, and once with two, where
// Trim runs the big ones on two goroutines; the arrangements must hold the
// same rows, keys and weights in the same order either way, equal rows
// merged and cancelled ones gone.
func TestTrimLoadsInParallel(t *testing.T) {
	build := func(procs int) ([]string, bool) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := NewCircuit()
		in1, in2 := c.Input("a"), c.Input("b")
		var ops []*arranger
		for i, in := range []NodeID{in1, in1, in2} {
			a := NewArrangement(ArrangementSpec{Name: fmt.Sprint(i), Key: []expr.Expr{&expr.Col{Idx: i % 2, T: value.Int8Type}}, DropNullKeys: true})
			a.Claim()
			o := &arranger{a: a}
			ops = append(ops, o)
			c.Add(o, in)
		}
		c.DeferLoads()
		for b := range 8 {
			var za, zb zset.ZSet
			for i := range 6000 {
				n := int64(b*6000 + i)
				za = append(za, zset.Entry{Row: value.Row{value.NewInt(value.Int8, n%977), value.NewInt(value.Int8, n)}, W: 1})
				zb = append(zb, zset.Entry{Row: value.Row{value.NewInt(value.Int8, n), value.NewInt(value.Int8, n%13)}, W: 1 + n%3})
			}
			if b == 7 { // retracts 100 rows of the first batch
				for i := range 100 {
					n := int64(i)
					za = append(za, zset.Entry{Row: value.Row{value.NewInt(value.Int8, n%977), value.NewInt(value.Int8, n)}, W: -1})
				}
			}
			if err := c.Step(map[string]zset.ZSet{"a": za, "b": zb}); err != nil {
				t.Fatal(err)
			}
		}
		for _, o := range ops {
			if o.PendingRows() < minParallelLoad {
				t.Fatalf("arrangement %s keeps %d rows aside", o.a.Describe(), o.PendingRows())
			}
		}
		done := c.trimLoads()
		c.Trim()
		var out []string
		for _, o := range ops {
			if o.PendingRows() != 0 {
				t.Fatalf("arrangement %s still keeps %d rows aside", o.a.Describe(), o.PendingRows())
			}
			o.a.Scan(nil, false, func(r value.Row, w int64) bool {
				out = append(out, fmt.Sprintf("%s %s %d", o.a.Describe(), zset.FormatRow(r), w))
				return true
			})
		}
		return out, done != nil
	}
	serial, par := build(1)
	if par {
		t.Fatal("with one core, the loads ran in parallel")
	}
	parallel, par := build(2)
	if !par {
		t.Fatal("with two cores, the loads did not run in parallel")
	}
	if len(serial) != 3*48000-2*100 {
		t.Fatalf("%d entries in the arrangements", len(serial))
	}
	if !slices.Equal(serial, parallel) {
		t.Fatal("the arrangements loaded in parallel differ from those loaded one after the other")
	}
}
