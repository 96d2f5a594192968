package op

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// Small expressions for tests. Each embeds expr.Expr only to satisfy its
// marker method; the embedded value is nil and never called.

// gt is #col > c over integers, NULL when the column is NULL.
type gt struct {
	expr.Expr
	col int
	c   int64
}

func (e gt) Type() value.Type { return value.BoolType }
func (e gt) Eval(r value.Row) (value.Value, error) {
	if r[e.col].IsNull() {
		return value.Null, nil
	}
	return value.NewBool(r[e.col].Int() > e.c), nil
}
func (e gt) String() string { return fmt.Sprintf("#%d > %d", e.col, e.c) }
func (e gt) Volatile() bool { return false }

// col is the column #i.
type col struct {
	expr.Expr
	i int
}

func (e col) Type() value.Type                      { return value.Int8Type }
func (e col) Eval(r value.Row) (value.Value, error) { return r[e.i], nil }
func (e col) String() string                        { return "#" + strconv.Itoa(e.i) }
func (e col) Volatile() bool                        { return false }

// failOn is #col, failing with division by zero when #col = bad.
type failOn struct {
	expr.Expr
	col int
	bad int64
}

func (e failOn) Type() value.Type { return value.Int8Type }
func (e failOn) Eval(r value.Row) (value.Value, error) {
	if !r[e.col].IsNull() && r[e.col].Int() == e.bad {
		return value.Null, pgerr.New(pgerr.DivisionByZero, "division by zero")
	}
	return r[e.col], nil
}
func (e failOn) String() string { return fmt.Sprintf("#%d / (#%d - %d)", e.col, e.col, e.bad) }
func (e failOn) Volatile() bool { return false }

// parseExpr reads the tests' expression syntax: #i, #i>c or #i!c (#i,
// failing when it equals c).
func parseExpr(s string) expr.Expr {
	num := func(s string) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			panic(fmt.Sprintf("bad expression number %q", s))
		}
		return n
	}
	if !strings.HasPrefix(s, "#") {
		panic(fmt.Sprintf("bad expression %q", s))
	}
	s = s[1:]
	if i := strings.IndexAny(s, ">!"); i >= 0 {
		c, k := int(num(s[:i])), num(s[i+1:])
		if s[i] == '>' {
			return gt{col: c, c: k}
		}
		return failOn{col: c, bad: k}
	}
	return col{i: int(num(s))}
}

// parseRow reads a row as zset prints it: (1, 'a', NULL, t).
func parseRow(s string) (value.Row, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return nil, fmt.Errorf("row %q: want (v, …)", s)
	}
	s = s[1 : len(s)-1]
	var r value.Row
	for s = strings.TrimSpace(s); s != ""; {
		var tok string
		if s[0] == '\'' {
			var b strings.Builder
			i := 1
			for ; i < len(s); i++ {
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						b.WriteByte('\'')
						i++
						continue
					}
					break
				}
				b.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("unterminated string in %q", s)
			}
			r = append(r, value.NewText(value.Text, b.String()))
			s = s[i+1:]
		} else {
			end := strings.IndexByte(s, ',')
			if end < 0 {
				end = len(s)
			}
			tok, s = strings.TrimSpace(s[:end]), s[end:]
			switch {
			case tok == "NULL":
				r = append(r, value.Null)
			case tok == "t" || tok == "f":
				r = append(r, value.NewBool(tok == "t"))
			case len(tok) > 0 && (unicode.IsDigit(rune(tok[0])) || tok[0] == '-'):
				n, err := strconv.ParseInt(tok, 10, 64)
				if err != nil {
					return nil, err
				}
				r = append(r, value.NewInt(value.Int8, n))
			default:
				return nil, fmt.Errorf("bad value %q", tok)
			}
		}
		s = strings.TrimSpace(s)
		s = strings.TrimPrefix(s, ",")
		s = strings.TrimSpace(s)
	}
	return r, nil
}

// parseEntry reads "+1 (1, 'a')".
func parseEntry(s string) (zset.Entry, error) {
	s = strings.TrimSpace(s)
	sp := strings.IndexByte(s, ' ')
	if sp < 0 {
		return zset.Entry{}, fmt.Errorf("entry %q: want weight and row", s)
	}
	w, err := strconv.ParseInt(strings.TrimPrefix(s[:sp], "+"), 10, 64)
	if err != nil {
		return zset.Entry{}, err
	}
	r, err := parseRow(s[sp+1:])
	return zset.Entry{Row: r, W: w}, err
}

// ints builds a row of Int8 values.
func ints(ns ...int64) value.Row {
	r := make(value.Row, len(ns))
	for i, n := range ns {
		r[i] = value.NewInt(value.Int8, n)
	}
	return r
}

func e(r value.Row, w int64) zset.Entry { return zset.Entry{Row: r, W: w} }
