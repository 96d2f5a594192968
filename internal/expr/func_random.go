package expr

import (
	"crypto/rand"
	"encoding/binary"
	"math"
	"strconv"
	"sync"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// random() and setseed() draw from the generator PostgreSQL 15 uses, so
// that after the same setseed(x) they give the same sequence: xoroshiro128**
// over two 64-bit words, seeded by two steps of splitmix64 from
// x·(2^52−1) truncated to an integer, each draw giving the top 52 bits of
// the output as a fraction in [0, 1). Unlike PostgreSQL, where each
// backend has its own, the generator is the server's: a session gets
// PostgreSQL's sequence after setseed as long as no other session draws
// meanwhile. Until setseed is called it starts from a random seed.

// prng is xoroshiro128**'s state.
type prng struct{ s0, s1 uint64 }

var randomState struct {
	sync.Mutex
	g      prng
	seeded bool
}

func rotl(x uint64, k uint) uint64 { return x<<k | x>>(64-k) }

// next is one step of xoroshiro128**.
func (g *prng) next() uint64 {
	s0 := g.s0
	sx := g.s1 ^ s0
	v := rotl(s0*5, 7) * 9
	g.s0 = rotl(s0, 24) ^ sx ^ sx<<16
	g.s1 = rotl(sx, 37)
	return v
}

// splitmix64 advances *seed and returns its next output.
func splitmix64(seed *uint64) uint64 {
	*seed += 0x9E3779B97F4A7C15
	return value.Mix64(*seed)
}

func (g *prng) seed(seed uint64) {
	g.s0 = splitmix64(&seed)
	g.s1 = splitmix64(&seed)
	if g.s0 == 0 && g.s1 == 0 {
		// An all-zero state would only ever give zeros.
		g.s0, g.s1 = 0x5851F42D4C957F2D, 0x14057B7EF767814F
	}
}

// seedFloat seeds from a fraction in [-1, 1], as setseed does: the
// product with 2^52−1 truncated toward zero, its two's complement bits.
func (g *prng) seedFloat(f float64) {
	g.seed(uint64(int64(float64(1<<52-1) * f)))
}

// float is a draw in [0, 1): the top 52 bits of the output over 2^52.
func (g *prng) float() float64 {
	return math.Ldexp(float64(g.next()>>12), -52)
}

func pgRandom([]value.Value) (value.Value, error) {
	randomState.Lock()
	defer randomState.Unlock()
	if !randomState.seeded {
		var b [8]byte
		_, _ = rand.Read(b[:])
		randomState.g.seed(binary.LittleEndian.Uint64(b[:]))
		randomState.seeded = true
	}
	return float8(randomState.g.float()), nil
}

// pgSetseed seeds the generator; it returns void.
func pgSetseed(a []value.Value) (value.Value, error) {
	f := a[0].Float()
	if f < -1 || f > 1 || math.IsNaN(f) {
		return value.Null, pgerr.New(pgerr.InvalidParameter, "setseed parameter %s is out of allowed range [-1,1]", formatG(f))
	}
	randomState.Lock()
	randomState.g.seedFloat(f)
	randomState.seeded = true
	randomState.Unlock()
	return value.VoidValue, nil
}

func init() {
	register(&FuncDef{Name: "setseed", Volatile: true, Strict: true, Params: kinds(value.Float8), Result: value.VoidType, Eval: pgSetseed})
}

// formatG is %g as PostgreSQL's snprintf prints it: six significant
// digits, NaN, Infinity and -Infinity.
func formatG(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', 6, 64)
}
