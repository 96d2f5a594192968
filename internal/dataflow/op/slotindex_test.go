package op

import (
	"math/rand/v2"
	"testing"
)

// TestSlotIndex inserts and deletes slots under hashes drawn from a small
// set, so that probe runs collide, wrap around the table's end and shift
// back on deletion, and checks after every operation that each slot is
// found from its hash's home.
func TestSlotIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var x slotIndex
	held := map[int32]uint64{} // slot → hash
	find := func(h uint64, slot int32) bool {
		for p := x.home(h); x.tab[p].s != 0; p = x.next(p) {
			if uint64(x.tab[p].h) == h && x.tab[p].s == slot+1 {
				return true
			}
		}
		return false
	}
	next := int32(0)
	for op := range 20000 {
		if len(held) == 0 || rng.IntN(5) < 3 && op < 15000 {
			// Hashes near the table's end (all bits set) wrap around.
			h := uint64(^uint32(0)) - rng.Uint64N(40) // hashes are 32 bits
			x.insert(h, next)
			held[next] = h
			next++
		} else {
			for s, h := range held {
				x.delete(h, s)
				delete(held, s)
				break
			}
		}
		if x.n != len(held) {
			t.Fatalf("op %d: %d entries, want %d", op, x.n, len(held))
		}
		if op%97 == 0 {
			for s, h := range held {
				if !find(h, s) {
					t.Fatalf("op %d: slot %d not found under %x", op, s, h)
				}
			}
		}
	}
}
