package pgerr

import "testing"

// TestQuoteRaw: %q quotes a string as PostgreSQL's messages do, with
// its quotes, backslashes and control characters as they are.
func TestQuoteRaw(t *testing.T) {
	for _, tc := range []struct {
		format string
		args   []any
		want   string
	}{
		{"relation %q does not exist", []any{"a\nb"}, "relation \"a\nb\" does not exist"},
		{"column %q of %q", []any{`x"y`, `s\t`}, `column "x"y" of "s\t"`},
		{"%s and %q and %d", []any{"p", "q", 3}, `p and "q" and 3`},
		{"%[2]q %[1]q", []any{"a", "b"}, `"b" "a"`},
		{"%-4s|%q", []any{"ab", "c"}, `ab  |"c"`},
	} {
		if got := New("XX000", tc.format, tc.args...).Message; got != tc.want {
			t.Errorf("%q %q: got %q, want %q", tc.format, tc.args, got, tc.want)
		}
	}
}
