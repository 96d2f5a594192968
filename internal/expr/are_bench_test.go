package expr

import (
	"testing"
)

// BenchmarkRegexCaptures measures finding every match of a pattern in a
// short text: by RE2 (without subexpressions, or with ones RE2 places as
// PostgreSQL does) and by the ARE matcher (mixed greediness, a
// back-reference).
func BenchmarkRegexCaptures(b *testing.B) {
	s := "user=alice id=42 role=admin path=/var/log/app.log"
	for _, c := range []struct{ name, p string }{
		{"re2", `\w+=\w+`},
		{"re2_captures", `(\w+)=(\w+)`},
		{"are_mixed", `(\w+?)=(\w+)`},
		{"are_backref", `(\w)\1`},
	} {
		re, err := pgRegexFor("regexp_match", c.p, "g", true)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				if _, err := re.findAll(s, 0, -1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
