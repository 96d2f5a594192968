package value

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestRecordText(t *testing.T) {
	txt := func(s string) Value { return NewText(Text, s) }
	for _, c := range []struct {
		v    Value
		want string
	}{
		{NewRecord(nil), "()"},
		{NewRecord([]Value{NewInt(Int4, 1), txt("a")}), "(1,a)"},
		{NewRecord([]Value{Null, Null}), "(,)"},
		{NewRecord([]Value{txt(""), txt("NULL"), txt("x y"), txt(`a"b\c`), txt("(,)")}), `("",NULL,"x y","a""b\\c","(,)")`},
		{NewRecord([]Value{NewRecord([]Value{NewInt(Int4, 1), txt("a b")}), NewArray(ArrayOf(Int4), []Value{NewInt(Int4, 1), NewInt(Int4, 2)})}), `("(1,""a b"")","{1,2}")`},
	} {
		if got := c.v.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
	if RecordNullTest(NewRecord([]Value{Null, NewInt(Int4, 1)}), false) || RecordNullTest(NewRecord([]Value{Null, NewInt(Int4, 1)}), true) {
		t.Error("a row with some NULL fields is neither NULL nor NOT NULL")
	}
	if !RecordNullTest(NewRecord([]Value{Null, Null}), false) || !RecordNullTest(Null, false) || RecordNullTest(Null, true) {
		t.Error("NULL tests of all-NULL rows")
	}
}

// TestRecordKeyOrder checks that the key encoding orders records, nested
// records and arrays of records as Compare does, and is equal exactly
// when Compare is.
func TestRecordKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// A shape gives each position one type, as a query's rows have:
	// 0 int, 1 text, 2 record of sub, 3 array of records of sub.
	type shape struct {
		kind int
		sub  []shape
	}
	var mkShape func(depth int) shape
	mkShape = func(depth int) shape {
		s := shape{kind: r.IntN(4)}
		if depth >= 3 {
			s.kind %= 2
		}
		if s.kind >= 2 {
			s.sub = make([]shape, 1+r.IntN(3))
			for i := range s.sub {
				s.sub[i] = mkShape(depth + 1)
			}
		}
		return s
	}
	var gen func(s shape) Value
	fields := func(s shape) []Value {
		fs := make([]Value, len(s.sub))
		for i := range fs {
			fs[i] = gen(s.sub[i])
		}
		return fs
	}
	gen = func(s shape) Value {
		if r.IntN(5) == 0 {
			return Null
		}
		switch s.kind {
		case 0:
			return NewInt(Int4, int64(r.IntN(3)))
		case 1:
			return NewText(Text, []string{"", "a", "b"}[r.IntN(3)])
		case 2:
			return NewRecord(fields(s))
		}
		es := make([]Value, r.IntN(3))
		for i := range es {
			es[i] = NewRecord(fields(s))
		}
		return NewArray(ArrayOf(Record), es)
	}
	var top shape
	rec := func() Value { return NewRecord(fields(top)) }
	for round := 0; round < 200; round++ {
		top = shape{kind: 2, sub: []shape{mkShape(1), mkShape(1), mkShape(1)}}
		for i := 0; i < 100; i++ {
			a, b := rec(), rec()
			c := Compare(a, b)
			k := bytes.Compare(AppendKey(nil, a), AppendKey(nil, b))
			if c != k {
				t.Fatalf("%s vs %s: Compare %d, keys %d", a, b, c, k)
			}
			if c == 0 && HashValue(a) != HashValue(b) {
				t.Fatalf("%s and %s are equal but hash apart", a, b)
			}
		}
	}
}
