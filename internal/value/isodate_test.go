package value

import (
	"fmt"
	"testing"
)

// TestISODateFastPath checks that the fast path for YYYY-MM-DD gives the
// general decoder's value wherever it answers, and that it answers for
// every valid date of the common form.
func TestISODateFastPath(t *testing.T) {
	var inputs []string
	for y := 1; y <= 9999; y += 97 {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				inputs = append(inputs, fmt.Sprintf("%04d-%02d-%02d", y, m, d))
			}
		}
	}
	inputs = append(inputs, "2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29", "0000-01-01",
		"2024-1-01", "2024/01/01", " 2024-01-01", "2024-01-0a", "9999-12-31", "2024-12-31")
	answered := 0
	for _, s := range inputs {
		want, wantErr := parseDateGeneral(s)
		got, ok := parseISODate(s)
		if !ok {
			continue
		}
		answered++
		if wantErr != nil || Compare(got, want) != 0 {
			t.Errorf("%q: fast path %v, decoder %v (%v)", s, got, want, wantErr)
		}
	}
	if answered < len(inputs)/3 {
		t.Fatalf("fast path answered %d of %d inputs", answered, len(inputs))
	}
	for _, s := range []string{"2024-05-17", "0001-01-01", "2024-02-29"} {
		if _, ok := parseISODate(s); !ok {
			t.Errorf("%q: fast path did not answer", s)
		}
	}
}

func BenchmarkParseISODate(b *testing.B) {
	for b.Loop() {
		if _, err := parseDate("2024-05-17"); err != nil {
			b.Fatal(err)
		}
	}
}
