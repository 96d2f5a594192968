package op

import (
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// temporalConds returns ts > now() - interval '1 hour' AND
// ts + interval '1 mon' <= now() + interval '2 days 3 hours' over a row
// (id, ts timestamptz), and the predicate with the clock as a constant
// at a given time: the naive twin.
func temporalConds(t *testing.T) ([]*expr.Temporal, func(at int64) expr.Expr) {
	now, _, _, err := expr.ResolveFunc("now", nil)
	if err != nil {
		t.Fatal(err)
	}
	clock := &expr.Func{Def: now, T: value.TimestampTZType}
	ts := &expr.Col{Idx: 1, T: value.TimestampTZType, Name: "ts"}
	iv := func(months, days int32, us int64) expr.Expr {
		return &expr.Const{V: value.NewInterval(value.Span{Months: months, Days: days, Micros: us}), T: value.IntervalType}
	}
	tz := value.TimestampTZType
	c1 := &expr.Cmp{Op: expr.GT, L: ts, R: &expr.Arith{Op: expr.OpSub, L: clock, R: iv(0, 0, 3600_000000), T: tz}}
	c2 := &expr.Cmp{Op: expr.LE, L: &expr.Arith{Op: expr.OpAdd, L: ts, R: iv(1, 0, 0), T: tz},
		R: &expr.Arith{Op: expr.OpAdd, L: clock, R: iv(0, 2, 3*3600_000000), T: tz}}
	var conds []*expr.Temporal
	for _, c := range []*expr.Cmp{c1, c2} {
		tc, why := expr.AsTemporal(c)
		if tc == nil {
			t.Fatalf("%s: %s", c, why)
		}
		conds = append(conds, tc)
	}
	at := func(at int64) expr.Expr {
		fixed := &expr.Const{V: value.NewTimestamp(value.TimestampTZ, at), T: tz}
		sub := func(e expr.Expr) expr.Expr {
			return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
				if x == expr.Expr(clock) {
					return fixed
				}
				return x
			})
		}
		return &expr.And{Args: []expr.Expr{sub(c1), sub(c2)}}
	}
	return conds, at
}

// TestTemporalTwin steps a Temporal with random rows (some NULL, some
// retracted) and random clock advances, committing or aborting each step,
// and compares its integrated output after every step with a filter of
// the live rows at the time; the tree holds no row past its instants.
func TestTemporalTwin(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		temporalTwin(t, seed)
	}
}

func temporalTwin(t *testing.T, seed uint64) {
	conds, at := temporalConds(t)
	const hour = int64(3600_000000)
	now := int64(9500) * 24 * hour
	op := NewTemporal(conds, 0)
	op.Start(now)
	r := rand.New(rand.NewPCG(seed, 18))
	live := map[int64]value.Row{}
	out := map[string]int64{}
	var ids []int64
	next := int64(1)
	for step := 0; step < 3000; step++ {
		var data, clock zset.ZSet
		stepNow := now
		switch k := r.IntN(10); {
		case k < 4:
			for i := 0; i < 1+r.IntN(3); i++ {
				ts := value.NewTimestamp(value.TimestampTZ, now+r.Int64N(70*24*hour)-40*24*hour)
				if r.IntN(10) == 0 {
					ts = value.Null
				}
				row := value.Row{value.NewInt(value.Int4, next), ts}
				data = append(data, zset.Entry{Row: row, W: 1})
				live[next] = row
				ids = append(ids, next)
				next++
			}
		case k < 6 && len(ids) > 0:
			i := r.IntN(len(ids))
			data = append(data, zset.Entry{Row: live[ids[i]], W: -1})
			delete(live, ids[i])
			ids = append(ids[:i], ids[i+1:]...)
		default:
			stepNow = now + r.Int64N(3*24*hour)
			if r.IntN(4) == 0 {
				stepNow = now + 1
			}
			clock = zset.ZSet{{Row: value.Row{value.NewTimestamp(value.TimestampTZ, stepNow)}, W: 1}}
		}
		got, err := op.Step([]zset.ZSet{zset.Consolidate(data), clock})
		if err != nil {
			t.Fatal(err)
		}
		if !zset.IsConsolidated(got) {
			t.Fatalf("step %d: unconsolidated output %v", step, got)
		}
		if r.IntN(8) == 0 && len(data) == 0 {
			op.Abort()
			continue
		}
		for _, e := range got {
			key := e.Row.String()
			out[key] += e.W
			if out[key] == 0 {
				delete(out, key)
			}
		}
		op.Commit()
		now = stepNow
		pred := at(now)
		want := map[string]int64{}
		for _, row := range live {
			v, err := pred.Eval(row)
			if err != nil {
				t.Fatal(err)
			}
			if v.Kind() == value.Bool && v.Bool() {
				want[row.String()]++
			}
		}
		if len(want) != len(out) {
			for k := range out {
				if want[k] == 0 {
					t.Logf("extra %s", k)
				}
			}
			for k := range want {
				if out[k] == 0 {
					t.Logf("missing %s", k)
				}
			}
			t.Fatalf("seed %d, step %d at %s: %d rows out, want %d", seed, step, value.NewTimestamp(value.TimestampTZ, now), len(out), len(want))
		}
		for k, w := range want {
			if out[k] != w {
				t.Fatalf("seed %d, step %d at %s: row %s has weight %d, want %d", seed, step, value.NewTimestamp(value.TimestampTZ, now), k, out[k], w)
			}
		}
		if n := op.State().Rows; n > int64(len(live)) {
			t.Fatalf("step %d: the tree holds %d rows, %d are live", step, n, len(live))
		}
	}
}

// BenchmarkTemporalAdvance measures a step that advances the clock of a
// Temporal holding n rows by a second, moving one row out, and adds one
// row: the work is those rows', not n's.
func BenchmarkTemporalAdvance(b *testing.B) {
	conds, _ := temporalConds(&testing.T{})
	const sec = int64(1_000000)
	row := func(i int) value.Row {
		return value.Row{value.NewInt(value.Int4, int64(i)), value.NewTimestamp(value.TimestampTZ, int64(i)*sec)}
	}
	for _, n := range []int{1000, 1000000} {
		b.Run(value.NewInt(value.Int4, int64(n)).String(), func(b *testing.B) {
			op := NewTemporal(conds[:1], 0)
			var data zset.ZSet
			for i := 0; i < n; i++ {
				data = append(data, zset.Entry{Row: row(i), W: 1})
			}
			if _, err := op.Step([]zset.ZSet{zset.Consolidate(data), nil}); err != nil {
				b.Fatal(err)
			}
			op.Commit()
			now := int64(3600) * sec // row 0 leaves at the first advance
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				in := zset.ZSet{{Row: row(n + i), W: 1}}
				clock := zset.ZSet{{Row: value.Row{value.NewTimestamp(value.TimestampTZ, now)}, W: 1}}
				out, err := op.Step([]zset.ZSet{in, clock})
				if err != nil {
					b.Fatal(err)
				}
				if len(out) != 2 {
					b.Fatalf("advance %d: %d rows out, want 2", i, len(out))
				}
				op.Commit()
				now += sec
			}
		})
	}
}
