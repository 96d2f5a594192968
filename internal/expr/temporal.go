package expr

import "github.com/deltaview/deltaview/internal/value"

// clockFuncs are the functions that read the transaction's clock: a view
// maintains them in temporal filters (Temporal).
var clockFuncs = map[string]bool{
	"now": true, "current_timestamp": true, "transaction_timestamp": true,
	"statement_timestamp": true, "current_date": true,
}

// IsClockFunc reports whether name is a function that reads the
// transaction's clock (now(), current_timestamp, current_date, …).
func IsClockFunc(name string) bool { return clockFuncs[name] }

// ReadsClock reports whether e calls a function that reads the clock.
func ReadsClock(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if f, ok := x.(*Func); ok && f.Def != nil && clockFuncs[f.Def.Name] {
			found = true
		}
		return !found
	})
	return found
}

// Temporal is a comparison between a row and the clock, Row Op Bound,
// where Bound reads the clock and no column and grows (weakly) with it:
// the comparison changes value at most once as time passes (twice for
// =), at instants that depend on the row alone.
type Temporal struct {
	Row   Expr  // over the input row; reads no clock
	Op    CmpOp // LT, LE, EQ, GT or GE, with the row on the left
	Bound Expr  // reads the clock and no column
	Cmp   *Cmp  // the comparison as written
}

// Halves returns the comparison as the one or two comparisons it is
// made of, each of which changes value at most once: Row = Bound is
// Row <= Bound (false, then true) and Row >= Bound (true, then false).
func (t *Temporal) Halves() []CmpOp {
	if t.Op == EQ {
		return []CmpOp{LE, GE}
	}
	return []CmpOp{t.Op}
}

// Leaves reports whether a comparison op (LT, LE, GT or GE) of the row
// with the bound is true first and false once the clock has passed the
// row's instant (Row > Bound, Row >= Bound), rather than false first and
// true after (Row < Bound, Row <= Bound).
func Leaves(op CmpOp) bool { return op == GT || op == GE }

var mirrored = [...]CmpOp{EQ: EQ, NE: NE, LT: GT, LE: GE, GT: LT, GE: LE}

// AsTemporal returns e as a temporal comparison, or, when it is not one,
// why not. e reads the clock (ReadsClock).
func AsTemporal(e Expr) (*Temporal, string) {
	c, ok := e.(*Cmp)
	if !ok {
		return nil, "the clock may only be compared with <, <=, =, > or >= to an expression over the row"
	}
	if c.Op == NE {
		return nil, "the row would leave and enter again: compare with <, <=, =, > or >="
	}
	t := &Temporal{Row: c.L, Op: c.Op, Bound: c.R, Cmp: c}
	if ReadsClock(c.L) {
		t.Row, t.Op, t.Bound = c.R, mirrored[c.Op], c.L
	}
	if ReadsClock(t.Row) {
		return nil, "the clock must be on one side of the comparison only"
	}
	if t.Row.Volatile() {
		return nil, "the row's side of the comparison must not be volatile"
	}
	if len(Columns(t.Bound)) > 0 {
		return nil, "the clock's side of the comparison must not read columns: move them to the other side (ts + interval '1 hour' > now())"
	}
	if why := growing(t.Bound); why != "" {
		return nil, why
	}
	return t, ""
}

// growing returns why e, an expression over the clock, may not grow with
// the clock; "" when it does: the clock, cast to a date or a timestamp,
// plus or minus a constant.
func growing(e Expr) string {
	switch n := e.(type) {
	case *Func:
		if n.Def != nil && clockFuncs[n.Def.Name] && len(n.Args) == 0 {
			return ""
		}
	case *Cast:
		switch n.To.Kind {
		case value.Timestamp, value.TimestampTZ, value.Date:
			return growing(n.E)
		}
	case *Arith:
		switch {
		case (n.Op == OpAdd || n.Op == OpSub) && constant(n.R):
			if why := fixedLength(n.R); why != "" {
				return why
			}
			return growing(n.L)
		case n.Op == OpAdd && constant(n.L):
			if why := fixedLength(n.L); why != "" {
				return why
			}
			return growing(n.R)
		}
	}
	return "the clock's side of the comparison may only be now(), current_timestamp or current_date plus or minus a constant"
}

func constant(e Expr) bool { return !e.Volatile() && len(Columns(e)) == 0 }

// fixedLength returns why the constant e, added to the clock, would not
// keep it growing; "" when it does. A month has no fixed length: the
// clock plus a month stands still or moves back at the end of a month
// (March 30 20:00 + 1 month is April 30 20:00, March 31 02:00 + 1 month
// April 30 02:00), so a row would leave and enter again.
func fixedLength(e Expr) string {
	v, err := e.Eval(nil)
	if err != nil {
		return "the constant added to the clock cannot be evaluated: " + err.Error()
	}
	if v.Kind() == value.Interval && v.Span().Months != 0 {
		return "an interval of months added to the clock moves it back at the end of a month: add the months to the row's side (ts + interval '1 month' > now())"
	}
	return ""
}
