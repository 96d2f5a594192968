package value

import (
	"math"
	"math/rand"
	"testing"
)

// TestGeometricTextRoundTrip checks that random values of every geometric
// type read back from their text as the same value, with the same key,
// and that a NaN coordinate has one encoding whatever its payload.
func TestGeometricTextRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	coord := func() float64 {
		switch r.Intn(6) {
		case 0:
			return math.Inf(1 - 2*r.Intn(2))
		case 1:
			return math.NaN()
		case 2:
			return float64(r.Intn(9) - 4)
		}
		return r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
	}
	pt := func() GPoint { return GPoint{coord(), coord()} }
	pts := func() []GPoint {
		ps := make([]GPoint, 1+r.Intn(4))
		for i := range ps {
			ps[i] = pt()
		}
		return ps
	}
	for range 2000 {
		var v Value
		switch r.Intn(7) {
		case 0:
			v = NewPoint(pt())
		case 1:
			v = NewLSeg(GLSeg{pt(), pt()})
		case 2:
			v = NewBox(makeBox(pt(), pt()))
		case 3:
			v = NewLine(GLine{coord(), 1 + math.Abs(coord()), coord()})
		case 4:
			v = NewCircle(GCircle{pt(), math.Abs(coord())})
		case 5:
			v = NewPath(GPath{Closed: r.Intn(2) == 0, Points: pts()})
		default:
			v = NewPolygon(pts())
		}
		text := string(AppendText(nil, v))
		back, err := Parse(text, Type{v.Kind(), -1})
		if err != nil {
			t.Fatalf("%s %s: %v", v.Kind(), text, err)
		}
		if string(AppendKey(nil, back)) != string(AppendKey(nil, v)) {
			t.Fatalf("%s %s reads back as %s", v.Kind(), text, AppendText(nil, back))
		}
	}
	quiet := NewPoint(GPoint{math.Float64frombits(0x7ff8000000000001), 0})
	if string(AppendKey(nil, quiet)) != string(AppendKey(nil, NewPoint(GPoint{math.NaN(), 0}))) {
		t.Error("two NaN points have different keys")
	}
}

// TestSinCos checks the correctly rounded sine and cosine at angles
// where math.Sin and math.Cos are an ulp away from it.
func TestSinCos(t *testing.T) {
	s, c := sinCos(math.Pi / 2)
	if c != 6.123233995736766e-17 || s != 1 {
		t.Errorf("sinCos(π/2) = %v, %v", s, c)
	}
	s, c = sinCos(math.Pi)
	if s != 1.2246467991473532e-16 || c != -1 {
		t.Errorf("sinCos(π) = %v, %v", s, c)
	}
}
