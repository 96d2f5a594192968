package value

import "testing"

// A zone of the tz database is read from its file once, then from the
// cache: AT TIME ZONE by name costs no file read per row.
func BenchmarkLookupZone(b *testing.B) {
	if _, err := LookupZone("Europe/Paris"); err != nil {
		b.Skip("no tz database:", err)
	}
	ts := NewTimestamp(Timestamp, 777*usecsPerDay)
	b.ReportAllocs()
	for b.Loop() {
		z, err := LookupZone("Europe/Paris")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := AtTimeZone(z, ts, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func TestPosixOffset(t *testing.T) {
	for _, c := range []struct {
		in   string
		west int64
		ok   bool
	}{
		{"+05", 5 * 3600, true}, {"UTC+3", 3 * 3600, true}, {"-05:30", -(5*3600 + 30*60), true},
		{"<+0330>-3:30", -(3*3600 + 30*60), true}, {"EST5", 5 * 3600, true}, {"UT5", 0, false},
		{"Europe/Paris", 0, false}, {"+5x", 0, false}, {"", 0, false}, {"+1:60", 0, false},
	} {
		west, ok := posixOffset(c.in)
		if ok != c.ok || west != c.west {
			t.Errorf("posixOffset(%q) = %d, %v; want %d, %v", c.in, west, ok, c.west, c.ok)
		}
	}
}
