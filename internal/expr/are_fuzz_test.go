package expr

import (
	"math/rand/v2"
	"testing"
)

// TestAREFuzzNoPanic compiles random strings of regular-expression
// syntax under random options and matches them against random texts:
// each is an error or an answer, never a panic.
func TestAREFuzzNoPanic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = `ab()[]{}^$.*+?|\-:=!<>,0123dswmMyYAZxuU#n `
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		p := make([]byte, r.IntN(12))
		for i := range p {
			p[i] = alphabet[r.IntN(len(alphabet))]
		}
		var opt areOptions
		for range r.IntN(3) {
			opt.set(rune("bceimnpqstwx"[r.IntN(12)]))
		}
		s := make([]byte, r.IntN(8))
		for i := range s {
			s[i] = "ab -\n"[r.IntN(5)]
		}
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Fatalf("pattern %q options %+v text %q: panic %v", p, opt, s, e)
				}
			}()
			prog, err := compileARE(string(p), opt)
			if err != nil {
				return
			}
			prog.findAll(string(s), r.IntN(len(s)+1), -1)
			prog.re2Source()
			prog.re2Captures()
		}()
	}
}
