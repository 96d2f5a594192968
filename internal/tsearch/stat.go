package tsearch

import "sort"

// StatEntry is a row of ts_stat: a lexeme, the number of documents that
// hold it and the number of its occurrences.
type StatEntry struct {
	Word         string
	NDoc, NEntry int
}

// StatWeights reads ts_stat's weights text into a mask of weights (bit w
// for weight w), as PostgreSQL reads it: letters other than A to D count
// for nothing, and no letter means every weight.
func StatWeights(s string) int {
	mask := 0
	for i := 0; i < len(s); i++ {
		if w, ok := WeightOf(s[i]); ok {
			mask |= 1 << w
		}
	}
	return mask
}

// Stat is ts_stat over the vectors: per lexeme, the vectors that hold it
// and its positions, only those of the weights of mask when it is not 0
// (a lexeme without positions counts once, and not at all under a mask),
// in lexeme order.
func Stat(vs []Vector, mask int) []StatEntry {
	at := map[string]int{}
	var out []StatEntry
	var buf []Pos
	for _, v := range vs {
		for i := 0; i < v.Len(); i++ {
			n := 1
			switch {
			case mask != 0 && !v.HasPos(i):
				n = 0
			case mask != 0:
				n = 0
				buf = v.Positions(i, buf[:0])
				for _, p := range buf {
					if mask&(1<<p.Weight()) != 0 {
						n++
					}
				}
			case v.HasPos(i):
				n = v.NumPos(i)
			}
			if n == 0 {
				continue
			}
			w := v.Word(i)
			if j, ok := at[w]; ok {
				out[j].NDoc++
				out[j].NEntry += n
				continue
			}
			at[w] = len(out)
			out = append(out, StatEntry{Word: w, NDoc: 1, NEntry: n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return CompareLexemes(out[i].Word, out[j].Word) < 0 })
	return out
}
