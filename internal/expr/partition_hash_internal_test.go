package expr

import "testing"

// TestPartitionHashes checks the hashes against PostgreSQL 15's
// hashint4extended and hashtextextended with the partition seed.
func TestPartitionHashes(t *testing.T) {
	if got := int64(hashUint32(5, partitionSeed)); got != -2840406021921404358 {
		t.Errorf("hashint4extended(5) = %d", got)
	}
	if got := int64(hashUint32(0xFFFFFFFF, partitionSeed)); got != -5017072347659237694 {
		t.Errorf("hashint4extended(-1) = %d", got)
	}
	for s, want := range map[string]int64{
		"": -5700645584453517373, "a": -6705225459120232837, "abcd": 4029384952263848046,
		"abcde": 4809259092934399961, "abcdefghi": -7860738947571725408,
		"abcdefghijkl": -7876791541613377658, "abcdefghijklmnopq": -4290088002765369671,
	} {
		if got := int64(hashBytes([]byte(s), partitionSeed)); got != want {
			t.Errorf("hashtextextended(%q) = %d, want %d", s, got, want)
		}
	}
}
