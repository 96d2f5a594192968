package expr

import (
	"math"
	"math/rand/v2"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// NewSample returns the predicate of TABLESAMPLE method (percent)
// [REPEATABLE (seed)] over a table's rows, cols: true for each row with
// probability percent/100, decided per row for both BERNOULLI and SYSTEM
// (PostgreSQL's SYSTEM decides per block of rows, which a row store
// without blocks has not). With a seed the decision is a hash of the seed
// and the row's values, so the same seed picks the same rows of the same
// table; without, it is random. percent is real, seed double precision,
// as in PostgreSQL.
func NewSample(method string, percent, seed Expr, cols []Expr) Expr {
	args := append([]Expr{percent}, cols...)
	if seed != nil {
		args = append([]Expr{percent, seed}, cols...)
	}
	hasSeed := seed != nil
	return &Func{Def: &FuncDef{Name: "tablesample", Volatile: !hasSeed, Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, pgerr.New(pgerr.InvalidTablesampleArg, "TABLESAMPLE parameter cannot be null")
		}
		p := a[0].Float()
		if !(p >= 0 && p <= 100) {
			return value.Null, pgerr.New(pgerr.InvalidTablesampleArg, "sample percentage must be between 0 and 100")
		}
		var u float64
		if hasSeed {
			if a[1].IsNull() {
				return value.Null, pgerr.New(pgerr.InvalidTablesampleRepeat, "TABLESAMPLE REPEATABLE parameter cannot be null")
			}
			// Mixed, a seed and a row hash combined by xor give
			// uniform fractions.
			h := value.HashRow(a[2:]) ^ math.Float64bits(a[1].Float())
			u = float64(value.Mix64(h)>>11) / (1 << 53)
		} else {
			u = rand.Float64()
		}
		return value.NewBool(u*100 < p), nil
	}, Print: func(args []Expr) string {
		s := "TABLESAMPLE " + method + " (" + args[0].String() + ")"
		if hasSeed {
			s += " REPEATABLE (" + args[1].String() + ")"
		}
		return s
	}}, Args: args, T: value.BoolType}
}
