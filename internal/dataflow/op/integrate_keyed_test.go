package op

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// TestIntegrateKeyedTwin steps two Integrates with the same random
// batches, one keyed by its rows' first column (KeyBy) and one hashing
// whole rows, and checks after every step the same output, the same error,
// and the same rows, weights, length and state. The rows are (id, v, s):
// most steps replace a row by another of its id (the pair a keyed
// Integrate swaps in place), some insert, delete, move ids, assert a row
// twice, retract what is not held (an error, then the step aborted), and
// some pile rows up under a few ids (more than longKey), which a keyed
// Integrate must survive by hashing whole rows again. Batches run from
// one row to several thousand (read in groups), and the first ones build
// the contents in a deferred load, on one goroutine and in halves.
func TestIntegrateKeyedTwin(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { testIntegrateKeyedTwin(t, seed, false) })
	}
}

// TestIntegrateSplitTwin is TestIntegrateKeyedTwin with the keyed
// Integrate finding every big step's rows in two halves at once, each on
// a goroutine (a commit's step that the engine lets split), the plain one
// in order: the same outputs, errors, rows and weights, and a key whose
// rows pile up found by either half.
func TestIntegrateSplitTwin(t *testing.T) {
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { testIntegrateKeyedTwin(t, seed, true) })
	}
}

func testIntegrateKeyedTwin(t *testing.T, seed uint64, split bool) {
	rng := rand.New(rand.NewPCG(seed, 99))
	piled := seed%3 == 2 // rows of one id pile up
	n := 200 + rng.IntN(3000)
	switch seed % 4 {
	case 1:
		n = 40_000 // a load in halves
	case 3:
		n = 10_000 // a load in order
	}
	row := func(id int64, v int) value.Row {
		return value.Row{value.NewInt(value.Int8, id), value.NewInt(value.Int4, int64(v)), value.NewText(value.Text, fmt.Sprint("s", v%7))}
	}
	held := map[int64]value.Row{} // the plain Integrate's rows, one an id while not piled
	keyed, plain := NewIntegrate(), NewIntegrate()
	keyed.KeyBy([]int{0})
	keyed.DeferLoads()
	halves := &countSplit{goSplit: goSplit{ways: 2}}
	pile := int64(3) // where a step's rows pile up
	if split {
		keyed.SetSplit(halves)
		pile = int64(n) - 3 // in a batch's second half
	}
	plain.DeferLoads()
	step := func(z zset.ZSet) {
		z = zset.Consolidate(z)
		var outs [2]zset.ZSet
		var errs [2]string
		for i, g := range []*Integrate{keyed, plain} {
			out, err := g.Step([]zset.ZSet{z})
			if err != nil {
				errs[i] = pgerr.Code(err)
				g.Abort()
				continue
			}
			outs[i] = out
			g.Commit()
		}
		if errs[0] != errs[1] || outs[0].String() != outs[1].String() {
			t.Fatalf("seed %d: keyed gave %q %s, plain %q %s", seed, errs[0], outs[0], errs[1], outs[1])
		}
		if errs[0] != "" {
			return
		}
		for _, e := range z {
			if e.W > 0 {
				held[e.Row[0].Int()] = e.Row
			} else if r, ok := held[e.Row[0].Int()]; ok && zset.CompareRows(r, e.Row) == 0 {
				delete(held, e.Row[0].Int())
			}
		}
	}
	// The cold start: batches of assertions loaded at once.
	for lo := int64(0); lo < int64(n); lo += 5000 {
		var z zset.ZSet
		for id := lo; id < min(lo+5000, int64(n)); id++ {
			z = append(z, zset.Entry{Row: row(id, rng.IntN(1000)), W: 1})
			if piled && id%5 == 0 {
				for k := range 3 {
					z = append(z, zset.Entry{Row: row(7, 1000+int(id)*3+k), W: 1})
				}
			}
		}
		step(z)
	}
	keyed.Trim()
	plain.Trim()
	compare := func(when string) {
		t.Helper()
		// The states' bytes differ by the slab's spare slots: a keyed
		// replacement needs none.
		if keyed.String() != plain.String() || keyed.Len() != plain.Len() || keyed.State().Rows != plain.State().Rows ||
			keyed.InputRowBytes() != plain.InputRowBytes() {
			t.Fatalf("seed %d, %s: keyed holds %d rows (%v), plain %d (%v)", seed, when, keyed.Len(), keyed.State(), plain.Len(), plain.State())
		}
		var nk, np int
		keyed.Each(func(r value.Row, w int64) bool {
			nk++
			if plain.Lookup(r) != w {
				t.Fatalf("seed %d, %s: %s has weight %d keyed, %d plain", seed, when, zset.FormatRow(r), w, plain.Lookup(r))
			}
			return true
		})
		plain.Each(func(value.Row, int64) bool { np++; return true })
		if nk != np {
			t.Fatalf("seed %d, %s: %d rows keyed, %d plain", seed, when, nk, np)
		}
	}
	compare("after the load")
	if piled && n >= minDeferred && keyed.counts.key != nil {
		// A load probes every row; steps only the rows they change.
		t.Fatalf("seed %d: rows piled up under one key and the load kept hashing by it", seed)
	}
	nextID := int64(n)
	for s := range 80 {
		var z zset.ZSet
		size := 1 + rng.IntN(8)
		if s%3 == 0 {
			size = 100 + rng.IntN(4000)
		}
		seen := map[int64]bool{}
		for range size {
			id := rng.Int64N(nextID)
			r, ok := held[id]
			switch k := rng.IntN(20); {
			case seen[id]:
			case k < 13 && ok: // replaced, the id kept
				z = append(z, zset.Entry{Row: r, W: -1}, zset.Entry{Row: row(id, rng.IntN(1000)), W: 1})
			case k < 15 && ok: // deleted
				z = append(z, zset.Entry{Row: r, W: -1})
			case k < 16 && ok: // the id moved
				z = append(z, zset.Entry{Row: r, W: -1}, zset.Entry{Row: row(nextID, int(r[1].Int())), W: 1})
				nextID++
			case k < 17: // inserted
				z = append(z, zset.Entry{Row: row(nextID, rng.IntN(1000)), W: 1})
				nextID++
			case k < 18 && ok: // asserted again: weight 2
				z = append(z, zset.Entry{Row: r, W: 1})
			case k < 19 && rng.IntN(10) == 0: // not held: an error
				z = append(z, zset.Entry{Row: row(id, 5000), W: -1})
			case piled: // one id's rows pile up
				z = append(z, zset.Entry{Row: row(pile, 2000+rng.IntN(100000)), W: 1})
			}
			seen[id] = true
		}
		step(z)
		if s%8 == 7 || keyed.Len() != plain.Len() {
			compare(fmt.Sprintf("step %d", s))
		}
	}
	compare("at the end")
	if split && halves.runs == 0 {
		t.Fatalf("seed %d: no step was found in halves", seed)
	}
	if piled && keyed.counts.key != nil {
		t.Fatalf("seed %d: rows piled up under one key and the Integrate kept hashing by it", seed)
	}
	if !piled && keyed.counts.key == nil {
		t.Fatalf("seed %d: the keyed Integrate stopped hashing by its key", seed)
	}
}
