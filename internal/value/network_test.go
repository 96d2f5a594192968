package value

import (
	"math/rand"
	"testing"
)

// networkCmp is PostgreSQL's network_cmp_internal, written out: family,
// then the addresses over the shorter mask, then the mask lengths, then
// the whole addresses.
func networkCmp(a, b Value) int {
	x, xb := a.Inet()
	y, yb := b.Inet()
	if len(x) != len(y) {
		return cmpInt(int64(len(x)), int64(len(y)))
	}
	n := min(xb, yb)
	for i := 0; i < n; i++ {
		p, q := x[i/8]>>(7-i%8)&1, y[i/8]>>(7-i%8)&1
		if p != q {
			return cmpInt(int64(p), int64(q))
		}
	}
	if xb != yb {
		return cmpInt(int64(xb), int64(yb))
	}
	for i := range x {
		if x[i] != y[i] {
			return cmpInt(int64(x[i]), int64(y[i]))
		}
	}
	return 0
}

// TestInetOrderAndText checks that Compare and the key encoding order
// random inets as PostgreSQL does, and that their text reads back the
// same.
func TestInetOrderAndText(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	gen := func() Value {
		n := 4
		if r.Intn(3) == 0 {
			n = 16
		}
		a := make([]byte, n)
		for i := range a {
			if r.Intn(3) > 0 {
				a[i] = byte(r.Intn(4)) << 6
			}
		}
		return NewInet(Inet, a, r.Intn(8*n+1))
	}
	for i := 0; i < 20000; i++ {
		a, b := gen(), gen()
		want := networkCmp(a, b)
		if got := Compare(a, b); got != want {
			t.Fatalf("Compare(%s, %s) = %d, want %d", a, b, got, want)
		}
		ka, kb := string(AppendKey(nil, a)), string(AppendKey(nil, b))
		if (ka < kb) != (want < 0) || (ka == kb) != (want == 0) {
			t.Fatalf("keys of %s and %s disagree with %d", a, b, want)
		}
		for _, k := range []Kind{Inet, Cidr} {
			v := a
			if k == Cidr {
				v, _ = Cast(a, CidrType, true)
			}
			back, err := Parse(v.String(), Type{k, -1})
			if err != nil || Compare(back, v) != 0 {
				t.Fatalf("%s %s read back as %s, %v", k, v, back, err)
			}
		}
	}
}

func TestMacAddrInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"08:00:2B:01:02:03", "08:00:2b:01:02:03"},
		{"0800.2b01.0203", "08:00:2b:01:02:03"},
		{"08002b010203", "08:00:2b:01:02:03"},
		{"08:00:2b:01:02", "22P02"},
	} {
		v, err := Parse(c.in, MacAddrType)
		got := v.String()
		if err != nil {
			got = "22P02"
		}
		if got != c.want {
			t.Errorf("macaddr %q: %s, want %s", c.in, got, c.want)
		}
	}
}
