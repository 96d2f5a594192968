package exec

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bitStringAggregate is bit_and, bit_or or bit_xor of bit strings, which
// must all have the same length (22026, as PostgreSQL's bitand); NULLs
// are skipped, and no value gives NULL.
func bitStringAggregate(f plan.AggFunc, ins []aggInput) (value.Value, error) {
	var acc []byte
	for _, in := range ins {
		if in.arg.IsNull() {
			continue
		}
		s := in.arg.Str()
		if acc == nil {
			acc = []byte(s)
			continue
		}
		if len(s) != len(acc) {
			verb := map[plan.AggFunc]string{plan.AggBitAnd: "AND", plan.AggBitOr: "OR", plan.AggBitXor: "XOR"}[f]
			return value.Null, pgerr.New("22026", "cannot %s bit strings of different sizes", verb)
		}
		for i := range acc {
			x, y := acc[i]-'0', s[i]-'0'
			switch f {
			case plan.AggBitAnd:
				x &= y
			case plan.AggBitOr:
				x |= y
			default:
				x ^= y
			}
			acc[i] = '0' + x
		}
	}
	if acc == nil {
		return value.Null, nil
	}
	return value.NewBits(value.Bit, string(acc)), nil
}
