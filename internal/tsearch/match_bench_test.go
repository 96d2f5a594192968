package tsearch

import "testing"

// BenchmarkMatchVector is one row of a view filter: a document's vector matched
// with a constant query.
func BenchmarkMatchVector(b *testing.B) {
	v := English.ToVector("The quick brown foxes jumped over the lazy dogs while the cats were sleeping on the mat")
	q, err := English.ToQuery("(fox | cat) & dog <-> !bird & sleep:*")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !Match(v, q) {
			b.Fatal("no match")
		}
	}
}
