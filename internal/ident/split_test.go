package ident

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		sep  byte
		want []string // nil with ok false: a syntax error
		ok   bool
	}{
		{"", '.', nil, true},
		{"  ", ',', nil, true},
		{"Public.T", '.', []string{"public", "t"}, true},
		{` "My ""T""" . x `, '.', []string{`My "T"`, "x"}, true},
		{`"$user", public`, ',', []string{"$user", "public"}, true},
		{"a,,b", ',', nil, false},
		{"a,", ',', nil, false},
		{`""`, '.', nil, false},
		{`"open`, '.', nil, false},
		{"a b", '.', nil, false},
		{"a.b.c", '.', []string{"a", "b", "c"}, true},
		{`a"b`, ',', []string{`a"b`}, true},
	} {
		got, ok := Split(c.in, c.sep)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("Split(%q, %q) = %q, %v; want %q, %v", c.in, c.sep, got, ok, c.want, c.ok)
		}
	}
}
