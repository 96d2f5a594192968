package expr

import (
	"strings"

	"github.com/deltaview/deltaview/internal/ident"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Sequences is what the sequence functions call: a database's sequences
// as one session sees them. Currval and Lastval read the session's own
// last values; every method returns errors with PostgreSQL's SQLSTATEs
// (42P01 for a sequence that does not exist, 55000 for currval before
// nextval, 2200H when a sequence is exhausted).
type Sequences interface {
	Nextval(name string) (int64, error)
	Currval(name string) (int64, error)
	Setval(name string, v int64, called bool) (int64, error)
	Lastval() (int64, error)
}

// SequenceLastValuer is what pg_sequence_last_value(regclass) reads of
// a session's Sequences: a sequence's last_value, ok false while it has
// none (is_called false).
type SequenceLastValuer interface {
	LastValue(name string) (v int64, ok bool, err error)
}

// SeqCall is a call of nextval, currval, setval or lastval. It reads the
// sequences of the session that runs its statement, through the
// statement's clock (StmtClock.Seqs); a column's DEFAULT is bound without
// one, and a statement that uses the default binds a copy to its own
// clock (WithClock).
type SeqCall struct {
	Fn   string // nextval, currval, setval or lastval
	Args []Expr // the sequence's name (text), then setval's value and is_called
	C    *StmtClock
}

var _ Expr = (*SeqCall)(nil)

func (c *SeqCall) Type() value.Type { return value.Int8Type }
func (c *SeqCall) Volatile() bool   { return true }
func (*SeqCall) expr()              {}

func (c *SeqCall) String() string {
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.String()
	}
	return c.Fn + "(" + strings.Join(args, ", ") + ")"
}

// WithClock returns e with every sequence call bound to no statement
// bound to clock c instead: a column's DEFAULT as one statement runs it.
// Its reads of the transaction's clock (now(), CURRENT_TIMESTAMP,
// CURRENT_DATE, …) read c too, so that every row a statement writes, and
// every statement of a transaction, gets the transaction's start, as in
// PostgreSQL, not the wall clock at each row. Its operations that depend
// on the session's time zone (CURRENT_DATE, LOCALTIMESTAMP, timestamptz
// to date, date_trunc, …) run in the zone of c's session, as
// PostgreSQL evaluates a default in the session that writes the row.
func WithClock(e Expr, c *StmtClock) Expr {
	if e == nil || c == nil {
		return e
	}
	return Rewrite(e, func(n Expr) Expr {
		switch n := n.(type) {
		case *SeqCall:
			if n.C == nil {
				return &SeqCall{Fn: n.Fn, Args: n.Args, C: c}
			}
		case *SessionUser:
			if n.C == nil {
				return &SessionUser{Name: n.Name, C: c}
			}
		case *Func:
			if r := clockReadOf(n, c); r != nil {
				return zonedCast(r, c)
			}
			if s := StyleFuncOf(n); s != nil {
				return &ZoneFunc{C: c, F: n, Z: n.Def.EvalZone, S: s}
			}
			if z := ZoneFuncOf(n); z != nil {
				return &ZoneFunc{C: c, F: n, Z: z}
			}
		case *Cast:
			return zonedCast(n, c)
		case *Arith:
			if ZoneArithOf(n) {
				return &ZoneArith{C: c, A: n}
			}
		}
		return n
	})
}

// zonedCast is e, a cast that depends on the session's zone made to run
// in the zone of c's session.
func zonedCast(e Expr, c *StmtClock) Expr {
	if k, ok := e.(*Cast); ok && value.ZoneCast(k.E.Type().Kind, k.To.Kind) {
		return &ZoneCast{C: c, Cast: k}
	}
	return e
}

// clockReadOf returns the read of clock c that stands for a call of one
// of the clock functions bound to no statement, or nil.
func clockReadOf(f *Func, c *StmtClock) Expr {
	if f.Def == nil || len(f.Args) != 0 || !isBuiltin(f.Def) {
		return nil
	}
	switch f.Def.Name {
	case "now", "current_timestamp", "transaction_timestamp":
		return &ClockRead{C: c, Name: f.Def.Name}
	case "statement_timestamp":
		return &ClockRead{C: c, Stmt: true, Name: f.Def.Name}
	case "current_date":
		d, err := Coerce(&ClockRead{C: c, Name: "now"}, value.DateType, true)
		if err != nil {
			return nil
		}
		return d
	}
	return nil
}

// isBuiltin reports whether d is one of the catalog's own functions, not
// a user's function of the same name.
func isBuiltin(d *FuncDef) bool {
	for _, c := range catalog[d.Name] {
		if c == d {
			return true
		}
	}
	return false
}

// Eval implements Expr. A NULL argument gives NULL, as the functions are
// strict.
func (c *SeqCall) Eval(row value.Row) (value.Value, error) {
	var seqs Sequences
	if c.C != nil {
		seqs = c.C.Seqs
	}
	if seqs == nil {
		return value.Null, pgerr.New(pgerr.FeatureNotSupported, "%s() is supported only in statements a session runs", c.Fn)
	}
	if c.Fn == "lastval" {
		return seqResult(seqs.Lastval())
	}
	args := make([]value.Value, len(c.Args))
	for i, a := range c.Args {
		v, err := a.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if v.IsNull() {
			return value.Null, nil
		}
		args[i] = v
	}
	name, err := RelationName(args[0].String())
	if err != nil {
		return value.Null, err
	}
	switch c.Fn {
	case "pg_sequence_last_value":
		lv, _ := seqs.(SequenceLastValuer)
		if lv == nil {
			return value.Null, pgerr.New(pgerr.FeatureNotSupported, "pg_sequence_last_value() is supported only in statements a session runs")
		}
		v, ok, err := lv.LastValue(name)
		if err != nil || !ok {
			return value.Null, err
		}
		return value.NewInt(value.Int8, v), nil
	case "nextval":
		return seqResult(seqs.Nextval(name))
	case "currval":
		return seqResult(seqs.Currval(name))
	}
	v, err := value.Cast(args[1], value.Int8Type, false)
	if err != nil {
		return value.Null, err
	}
	called := true
	if len(args) > 2 {
		called = args[2].Bool()
	}
	return seqResult(seqs.Setval(name, v.Int(), called))
}

func seqResult(v int64, err error) (value.Value, error) {
	if err != nil {
		return value.Null, err
	}
	return value.NewInt(value.Int8, v), nil
}

// RelationName reads a relation's name (a sequence's, a table's) as
// PostgreSQL's regclass input reads it: an unquoted name is folded to lower case, a double-quoted one
// kept as written, and the schema public may qualify it.
func RelationName(s string) (string, error) {
	parts, err := relationParts(s)
	switch {
	case err != nil:
		return "", err
	case len(parts) == 2 && parts[0] != "public":
		return "", pgerr.New(pgerr.InvalidSchemaName, "schema %q does not exist", parts[0])
	}
	return parts[len(parts)-1], nil
}

// splitQualified splits a name as regclass's input does, with its error.
func splitQualified(s string) ([]string, error) {
	parts, ok := ident.Split(s, '.')
	if !ok || len(parts) == 0 {
		return nil, pgerr.New("42602", "invalid name syntax")
	}
	return parts, nil
}
