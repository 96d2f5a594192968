package expr

import "github.com/deltaview/deltaview/internal/value"

// IntervalText is a cast to a string type of an interval (alone or in an
// array or a record) in an ad-hoc statement: as in PostgreSQL the text is
// in the IntervalStyle of the session that runs the statement, which its
// clock carries. Views, which no session runs, write intervals in the
// postgres style.
type IntervalText struct {
	C    *StmtClock
	Cast *Cast
}

var _ Expr = (*IntervalText)(nil)

func (c *IntervalText) Type() value.Type { return c.Cast.To }
func (c *IntervalText) Volatile() bool   { return true } // the session's setting, as current_user
func (*IntervalText) expr()              {}
func (c *IntervalText) String() string   { return c.Cast.String() }

// Eval implements Expr.
func (c *IntervalText) Eval(row value.Row) (value.Value, error) {
	if c.C == nil || c.C.TextStyle == value.IntervalPostgres && c.C.Zone.IsUTC() {
		return c.Cast.Eval(row)
	}
	v, err := c.Cast.E.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	// A record or an array of records may hold timestamptz values too:
	// they print in the session's zone (value.AppendTextZone).
	t := value.NewText(value.Text, string(value.AppendTextZone(nil, v, c.C.TextStyle, c.C.Zone)))
	return value.Cast(t, c.Cast.To, true)
}

// HoldsInterval reports whether values of kind k are or contain
// intervals, whose text depends on IntervalStyle. A record may hold
// them: its fields are not in its type.
func HoldsInterval(k value.Kind) bool {
	if k.IsArray() {
		k = k.Elem()
	}
	return k == value.Interval || k == value.Record
}

// HoldsStyled reports whether the text of values of kind k depends on
// the session's IntervalStyle, DateStyle, bytea_output or
// extra_float_digits: intervals, dates, timestamps, bytea, floats,
// geometric values, their ranges, and arrays of them, and records.
func HoldsStyled(k value.Kind) bool {
	if k.IsArray() {
		k = k.Elem()
	}
	switch k {
	case value.Float4, value.Float8, value.Point, value.LSeg, value.Path, value.Box, value.Polygon, value.Line, value.Circle,
		value.Date, value.Timestamp, value.TimestampTZ, value.Bytea,
		value.DateRange, value.TSRange, value.TSTZRange, value.DateMultirange, value.TSMultirange, value.TSTZMultirange:
		return true
	}
	return HoldsInterval(k)
}

// IntervalInput is a cast of a string to interval in an ad-hoc statement:
// as in PostgreSQL it reads the text in the IntervalStyle of the session
// that runs the statement, which its clock carries (under sql_standard a
// leading minus sign applies to every field: value.ParseIntervalIn).
// Views, which no session runs, read intervals in the postgres style.
type IntervalInput struct {
	C *StmtClock
	E Expr // a string, an array of strings, or a literal of unknown type
	T value.Type
}

var _ Expr = (*IntervalInput)(nil)

func (c *IntervalInput) Type() value.Type { return c.T }
func (c *IntervalInput) Volatile() bool   { return true } // the session's setting, as IntervalText
func (*IntervalInput) expr()              {}
func (c *IntervalInput) String() string   { return operand(c.E) + "::" + c.T.String() }

// Eval implements Expr.
func (c *IntervalInput) Eval(row value.Row) (value.Value, error) {
	v, err := c.E.Eval(row)
	if err != nil || v.IsNull() {
		return value.Null, err
	}
	s := v.Str()
	if c.E.Type().Kind.IsArray() {
		// An array of strings reads as its text form would: each element
		// in the style.
		s = string(value.AppendText(nil, v))
	}
	if value.DateInputKind(c.T.Kind) {
		// A date, timestamp or timestamptz in the session's DateStyle
		// order and zone (sql.dateInput).
		return value.ParseStyled(s, c.T, c.C.TextStyle, c.C.Zone)
	}
	return value.ParseIntervalIn(s, c.T, c.C.TextStyle)
}

// inputStyle is the IntervalStyle in which c's statement reads intervals:
// the postgres style without a clock (a view).
func (c *StmtClock) inputStyle() value.TextStyle {
	if c == nil {
		return value.IntervalPostgres
	}
	return c.TextStyle
}
