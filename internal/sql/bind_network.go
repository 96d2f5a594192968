package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// networkOps are the operators over the network types other than the
// comparisons.
var networkOps = map[string]bool{
	"<<": true, "<<=": true, ">>": true, ">>=": true, "&&": true, "&": true, "|": true, "+": true, "-": true,
}

// networkOperator binds an operator of networkOps with an inet, cidr,
// macaddr or macaddr8 operand. An untyped literal beside one is of its
// type (a bigint beside an inet's +), as in PostgreSQL; a cidr is taken
// as an inet. The other operand
// must be of the same type, or for + and - a bigint (also before an inet
// for +). ok is false for other operands.
func (b *binder) networkOperator(op string, l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	lk, rk := l.Type().Kind, r.Type().Kind
	if !networkOps[op] || !lk.IsNetwork() && !rk.IsNetwork() {
		return nil, false, nil
	}
	for _, p := range []struct {
		e     *expr.Expr
		other value.Kind
	}{{&l, rk}, {&r, lk}} {
		t := (*p.e).Type().Kind
		switch {
		case t == value.Unknown && op == "+" && (p.other == value.Inet || p.other == value.Cidr):
			t = value.Int8 // there is no inet + inet
		case t == value.Unknown:
			t = p.other
		case t.IsInteger() && (op == "+" || op == "-"):
			t = value.Int8
		}
		if t == value.Cidr {
			t = value.Inet
		}
		if *p.e, err = b.coerce(*p.e, value.Type{Kind: t, Mod: -1}, loc); err != nil {
			return nil, true, err
		}
	}
	e, err = b.callFunc(nil, op, nil, []expr.Expr{l, r}, loc)
	if pgerr.Code(err) == pgerr.UndefinedFunction {
		return nil, true, b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", value.Type{Kind: lk, Mod: -1}, op, value.Type{Kind: rk, Mod: -1}).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	return e, true, err
}
