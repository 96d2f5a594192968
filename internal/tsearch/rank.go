package tsearch

import (
	"math"
	"slices"
	"strings"
)

// Ranking, as PostgreSQL's ts_rank computes it in single precision (C's
// float arithmetic, with the double-precision steps where its code has
// them), so that results print with the same digits.

// DefaultWeights are the weights of D, C, B and A.
var DefaultWeights = [4]float32{0.1, 0.2, 0.4, 1.0}

// Normalization bits of ts_rank's third argument.
const (
	normLogLength = 0x01
	normLength    = 0x02
	normExtDist   = 0x04
	normUniq      = 0x08
	normLogUniq   = 0x10
	normRDivRPlus = 0x20
)

// CheckWeights validates the weights array of ts_rank (D, C, B, A): a
// negative weight takes the default; above 1 is an error.
func CheckWeights(ws []float32, hasNull bool, dims int) ([4]float32, error) {
	var out [4]float32
	if dims > 1 {
		return out, errorf(codeArrayIndex, "array of weight must be one-dimensional")
	}
	if len(ws) < 4 {
		return out, errorf(codeArrayIndex, "array of weight is too short")
	}
	if hasNull {
		return out, errorf(codeNullValue, "array of weight must not contain nulls")
	}
	for i := range out {
		out[i] = ws[i]
		if ws[i] < 0 {
			out[i] = DefaultWeights[i]
		}
		if out[i] > 1 {
			return out, errorf(codeInvalidParam, "weight out of range")
		}
	}
	return out, nil
}

func wordDistance(w int) float32 {
	if w > 100 {
		return 1e-30
	}
	return float32(1.0 / (1.005 + 0.05*math.Exp(float64(float32(w))/1.5-2)))
}

// uniqueOperands returns the operands of n sorted by lexeme, one per
// lexeme: the first after PostgreSQL's sort, whose prefix mark counts.
func uniqueOperands(n *Node) []*Node {
	ops := n.Operands(nil)
	pgSort(ops, func(a, b *Node) int { return strings.Compare(a.Word, b.Word) })
	return slices.CompactFunc(ops, func(a, b *Node) bool { return a.Word == b.Word })
}

// findEntries returns the lexemes of v an operand matches: its own, or
// every lexeme it begins with a prefix mark.
func findEntries(v Vector, op *Node) (first, n int) {
	if !op.Prefix {
		i := v.Find(op.Word)
		if i < 0 {
			return 0, 0
		}
		return i, 1
	}
	i := v.lowerBound(op.Word)
	j := i
	for j < v.Len() && strings.HasPrefix(v.Word(j), op.Word) {
		j++
	}
	return i, j - i
}

// posNull is the position of a lexeme without positions.
var posNull = []Pos{NewPos(MaxPos, 0)}

func (v Vector) positionsOrNull(i int) []Pos {
	if !v.HasPos(i) {
		return posNull
	}
	return v.Positions(i, nil)
}

func rankAnd(w *[4]float32, v Vector, q *Node) float32 {
	items := uniqueOperands(q)
	if len(items) < 2 {
		return rankOr(w, v, q)
	}
	pos := make([][]Pos, len(items))
	null := make([]bool, len(items))
	res := float32(-1)
	for i, it := range items {
		first, n := findEntries(v, it)
		for e := first; e < first+n; e++ {
			pos[i], null[i] = v.positionsOrNull(e), !v.HasPos(e)
			for k := 0; k < i; k++ {
				if pos[k] == nil {
					continue
				}
				for _, pl := range pos[i] {
					for _, pk := range pos[k] {
						dist := pl.Position() - pk.Position()
						if dist < 0 {
							dist = -dist
						}
						if dist != 0 || null[i] || null[k] {
							if dist == 0 {
								dist = MaxPos + 1
							}
							curw := float32(math.Sqrt(float64(float32(float32(w[pl.Weight()]*w[pk.Weight()]) * wordDistance(dist)))))
							if res < 0 {
								res = curw
							} else {
								res = float32(1.0 - float64((1.0-float64(res))*(1.0-float64(curw))))
							}
						}
					}
				}
			}
		}
	}
	return res
}

func rankOr(w *[4]float32, v Vector, q *Node) float32 {
	items := uniqueOperands(q)
	var res float32
	for _, it := range items {
		first, n := findEntries(v, it)
		for e := first; e < first+n; e++ {
			var resj float32
			wjm, jm := float32(-1), 0
			for j, p := range v.positionsOrNull(e) {
				resj = resj + w[p.Weight()]/float32((j+1)*(j+1))
				if w[p.Weight()] > wjm {
					wjm, jm = w[p.Weight()], j
				}
			}
			res = float32(float64(res) + float64(wjm+resj-wjm/float32((jm+1)*(jm+1)))/1.64493406685)
		}
	}
	if len(items) > 0 {
		res = res / float32(len(items))
	}
	return res
}

// countLength is the number of positions of v, one for a lexeme without.
func countLength(v Vector) int {
	n := 0
	for i := 0; i < v.Len(); i++ {
		n += max(v.NumPos(i), 1)
	}
	return n
}

// Rank is ts_rank(weights, v, q, method).
func Rank(w *[4]float32, v Vector, q Query, method int32) float32 {
	n := q.Tree()
	if v.Len() == 0 || n == nil {
		return 0
	}
	var res float32
	if n.Op == OpAnd || n.Op == OpPhrase {
		res = rankAnd(w, v, n)
	} else {
		res = rankOr(w, v, n)
	}
	if res < 0 {
		res = 1e-20
	}
	return normalize(res, v, method)
}

func normalize(res float32, v Vector, method int32) float32 {
	if method&normLogLength != 0 && v.Len() > 0 {
		res = float32(float64(res) / (math.Log(float64(countLength(v)+1)) / math.Log(2.0)))
	}
	if method&normLength != 0 {
		if l := countLength(v); l > 0 {
			res /= float32(l)
		}
	}
	if method&normUniq != 0 && v.Len() > 0 {
		res /= float32(v.Len())
	}
	if method&normLogUniq != 0 && v.Len() > 0 {
		res = float32(float64(res) / (math.Log(float64(v.Len()+1)) / math.Log(2.0)))
	}
	if method&normRDivRPlus != 0 {
		res /= res + 1
	}
	return res
}
