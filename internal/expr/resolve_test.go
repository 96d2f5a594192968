package expr_test

import (
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var (
	unk  = value.UnknownType
	i2t  = value.Int2Type
	i4t  = value.Int4Type
	i8t  = value.Int8Type
	numt = value.NumericType
	f4t  = value.Float4Type
	f8t  = value.Float8Type
	txtt = value.TextType
	bt   = value.BoolType
	dt   = value.DateType
	tst  = value.TimestampType
	ivt  = value.IntervalType
	tzt  = value.TimestampTZType
	vc5  = value.Type{Kind: value.Varchar, Mod: 5}
	vc9  = value.Type{Kind: value.Varchar, Mod: 9}
	vc   = value.Type{Kind: value.Varchar, Mod: -1}
	ch3  = value.Type{Kind: value.Char, Mod: 3}
	ch   = value.Type{Kind: value.Char, Mod: -1}
	n102 = value.Type{Kind: value.Numeric, Mod: value.NumericMod(10, 2)}
)

// res renders a resolution result: the type or "ERR code".
func res(t value.Type, err error) string {
	if err != nil {
		return "ERR " + pgerr.Code(err)
	}
	return t.String()
}

func TestResolveArith(t *testing.T) {
	cases := []struct {
		op         expr.ArithOp
		l, r       value.Type
		lt, rt, rs string
	}{
		{expr.OpAdd, i2t, i2t, "smallint", "smallint", "smallint"},
		{expr.OpAdd, i2t, i4t, "integer", "integer", "integer"},
		{expr.OpMul, i8t, i4t, "bigint", "bigint", "bigint"},
		{expr.OpAdd, i4t, numt, "numeric", "numeric", "numeric"},
		{expr.OpAdd, n102, i4t, "numeric(10,2)", "numeric", "numeric"},
		{expr.OpAdd, i4t, f4t, "double precision", "double precision", "double precision"},
		{expr.OpAdd, f4t, f4t, "real", "real", "real"},
		{expr.OpDiv, numt, f8t, "double precision", "double precision", "double precision"},
		{expr.OpAdd, unk, i4t, "integer", "integer", "integer"},
		{expr.OpSub, numt, unk, "numeric", "numeric", "numeric"},
		{expr.OpMod, i8t, i2t, "bigint", "bigint", "bigint"},
		{expr.OpMod, numt, i4t, "numeric", "numeric", "numeric"},
		{expr.OpAdd, dt, i4t, "date", "integer", "date"},
		{expr.OpAdd, dt, i2t, "date", "integer", "date"},
		{expr.OpAdd, i4t, dt, "integer", "date", "date"},
		{expr.OpSub, dt, i4t, "date", "integer", "date"},
		{expr.OpSub, dt, dt, "date", "date", "integer"},
		{expr.OpSub, dt, unk, "date", "date", "integer"},
		{expr.OpSub, tst, tst, "timestamp without time zone", "timestamp without time zone", "interval"},
		{expr.OpSub, dt, tst, "timestamp without time zone", "timestamp without time zone", "interval"},
		{expr.OpSub, dt, ivt, "date", "interval", "timestamp without time zone"},
		{expr.OpAdd, ivt, dt, "interval", "date", "timestamp without time zone"},
		{expr.OpAdd, tst, unk, "timestamp without time zone", "interval", "timestamp without time zone"},
		{expr.OpAdd, ivt, ivt, "interval", "interval", "interval"},
		{expr.OpMul, i4t, ivt, "double precision", "interval", "interval"},
		{expr.OpDiv, ivt, numt, "interval", "double precision", "interval"},
		{expr.OpMul, ivt, unk, "interval", "double precision", "interval"},
	}
	for _, c := range cases {
		lt, rt, rs, err := expr.ResolveArith(c.op, c.l, c.r)
		if err != nil {
			t.Errorf("%s %s %s: %v", c.l, c.op, c.r, err)
			continue
		}
		if lt.String() != c.lt || rt.String() != c.rt || rs.String() != c.rs {
			t.Errorf("%s %s %s = (%s, %s) → %s, want (%s, %s) → %s", c.l, c.op, c.r, lt, rt, rs, c.lt, c.rt, c.rs)
		}
	}
	errs := []struct {
		op   expr.ArithOp
		l, r value.Type
		code string
	}{
		{expr.OpAdd, unk, unk, "42725"},
		{expr.OpAdd, txtt, i4t, "42883"},
		{expr.OpMod, f8t, i4t, "42883"},
		{expr.OpAdd, dt, dt, "42883"},
		{expr.OpAdd, dt, i8t, "42883"},
		{expr.OpAdd, dt, unk, "42725"},
		{expr.OpMul, dt, i4t, "42883"},
		{expr.OpAdd, bt, unk, "42883"},
		{expr.OpMul, ivt, ivt, "42883"},
		{expr.OpDiv, i4t, ivt, "42883"},
		{expr.OpAdd, ivt, i4t, "42883"},
	}
	for _, c := range errs {
		_, _, _, err := expr.ResolveArith(c.op, c.l, c.r)
		if got := pgerr.Code(err); err == nil || got != c.code {
			t.Errorf("%s %s %s: %v (%s), want %s", c.l, c.op, c.r, err, got, c.code)
		}
	}
	_, _, _, err := expr.ResolveArith(expr.OpAdd, txtt, i4t)
	if e := pgerr.Wrap(err); e.Message != "operator does not exist: text + integer" || e.Hint == "" {
		t.Errorf("message %q hint %q", e.Message, e.Hint)
	}
}

func TestResolveCompare(t *testing.T) {
	cases := []struct {
		l, r value.Type
		want string
	}{
		{i4t, i4t, "integer"},
		{i2t, i8t, "bigint"},
		{i4t, numt, "numeric"},
		{n102, numt, "numeric"},
		{numt, f4t, "double precision"},
		{i4t, f4t, "double precision"},
		{f4t, f4t, "real"},
		{vc5, vc5, "character varying(5)"},
		{vc5, vc9, "text"},
		{vc5, txtt, "text"},
		{ch3, ch, "character"},
		{ch3, txtt, "text"},
		{dt, tst, "timestamp without time zone"},
		{tst, tzt, "timestamp with time zone"},
		{dt, tzt, "timestamp with time zone"},
		{unk, i4t, "integer"},
		{vc5, unk, "character varying"},
		{n102, unk, "numeric"},
		{unk, unk, "text"},
		{bt, bt, "boolean"},
		{bt, i4t, "ERR 42883"},
		{txtt, i4t, "ERR 42883"},
		{dt, i4t, "ERR 42883"},
	}
	for _, c := range cases {
		if got := res(expr.ResolveCompare(c.l, c.r)); got != c.want {
			t.Errorf("%s = %s: %s, want %s", c.l, c.r, got, c.want)
		}
	}
	_, err := expr.ResolveCompare(bt, i4t)
	if msg := pgerr.Wrap(err).Message; msg != "operator does not exist: boolean = integer" {
		t.Errorf("message %q", msg)
	}
}

func TestCommonType(t *testing.T) {
	cases := []struct {
		ts   []value.Type
		want string
	}{
		{[]value.Type{unk, unk}, "text"},
		{[]value.Type{i4t, unk}, "integer"},
		{[]value.Type{i4t, numt}, "numeric"},
		{[]value.Type{i2t, i8t}, "bigint"},
		{[]value.Type{i4t, f4t}, "real"},
		{[]value.Type{f4t, f8t, i4t}, "double precision"},
		{[]value.Type{f8t, numt}, "double precision"},
		{[]value.Type{vc5, vc9}, "character varying"},
		{[]value.Type{vc5, vc5}, "character varying(5)"},
		{[]value.Type{vc5, vc5, unk}, "character varying"},
		{[]value.Type{vc, txtt}, "character varying"},
		{[]value.Type{txtt, vc}, "text"},
		{[]value.Type{ch3, txtt}, "character"},
		{[]value.Type{n102, n102}, "numeric(10,2)"},
		{[]value.Type{n102, i4t}, "numeric"},
		{[]value.Type{dt, tzt}, "timestamp with time zone"},
		{[]value.Type{dt, tst}, "timestamp without time zone"},
		{[]value.Type{bt, unk}, "boolean"},
		{[]value.Type{i4t, txtt}, "ERR 42804"},
		{[]value.Type{bt, i4t}, "ERR 42804"},
		{[]value.Type{dt, i4t}, "ERR 42804"},
	}
	for _, c := range cases {
		if got := res(expr.CommonType(c.ts, "CASE")); got != c.want {
			t.Errorf("%v: %s, want %s", c.ts, got, c.want)
		}
	}
	_, err := expr.CommonType([]value.Type{txtt, i4t}, "CASE")
	if msg := pgerr.Wrap(err).Message; msg != "CASE types text and integer cannot be matched" {
		t.Errorf("message %q", msg)
	}
}

func TestResolveFunc(t *testing.T) {
	cases := []struct {
		name   string
		args   []value.Type
		params string
		result string
	}{
		{"length", []value.Type{unk}, "[text]", "integer"},
		{"length", []value.Type{vc5}, "[text]", "integer"},
		{"length", []value.Type{ch3}, "[character(3)]", "integer"},
		{"LOWER", []value.Type{vc5}, "[text]", "text"},
		{"abs", []value.Type{unk}, "[double precision]", "double precision"},
		{"abs", []value.Type{n102}, "[numeric(10,2)]", "numeric"},
		{"round", []value.Type{i4t}, "[double precision]", "double precision"},
		{"round", []value.Type{n102, i4t}, "[numeric(10,2) integer]", "numeric"},
		{"round", []value.Type{i4t, i4t}, "[numeric integer]", "numeric"},
		{"mod", []value.Type{i2t, i4t}, "[integer integer]", "integer"},
		{"mod", []value.Type{i4t, unk}, "[integer integer]", "integer"},
		{"substr", []value.Type{unk, i2t}, "[text integer]", "text"},
		{"power", []value.Type{i4t, i4t}, "[double precision double precision]", "double precision"},
		{"power", []value.Type{numt, i4t}, "[numeric numeric]", "numeric"},
		{"concat", []value.Type{unk, i4t, ch3}, "[text integer character(3)]", "text"},
		{"now", nil, "[]", "timestamp with time zone"},
		{"starts_with", []value.Type{unk, unk}, "[text text]", "boolean"},
	}
	for _, c := range cases {
		def, params, result, err := expr.ResolveFunc(c.name, c.args)
		if err != nil {
			t.Errorf("%s%v: %v", c.name, c.args, err)
			continue
		}
		got := "["
		for i, p := range params {
			if i > 0 {
				got += " "
			}
			got += p.String()
		}
		got += "]"
		if got != c.params || result.String() != c.result || def == nil {
			t.Errorf("%s%v = %s → %s, want %s → %s", c.name, c.args, got, result, c.params, c.result)
		}
	}
	errs := []struct {
		name string
		args []value.Type
		code string
	}{
		{"foo", []value.Type{i4t}, "42883"},
		{"length", []value.Type{i4t}, "42883"},
		{"length", nil, "42883"},
		{"concat", nil, "42883"},
		{"lower", []value.Type{bt}, "42883"},
		{"mod", []value.Type{f8t, f8t}, "42883"},
		{"substr", []value.Type{txtt, i8t}, "42883"},
	}
	for _, c := range errs {
		_, _, _, err := expr.ResolveFunc(c.name, c.args)
		if got := pgerr.Code(err); err == nil || got != c.code {
			t.Errorf("%s%v: %v, want %s", c.name, c.args, err, c.code)
		}
	}
	_, _, _, err := expr.ResolveFunc("foo", []value.Type{i4t, unk})
	if e := pgerr.Wrap(err); e.Message != "function foo(integer, unknown) does not exist" || e.Hint == "" {
		t.Errorf("message %q hint %q", e.Message, e.Hint)
	}
}

func TestCoerce(t *testing.T) {
	col := &expr.Col{Idx: 0, T: i4t, Name: "a"}
	cases := []struct {
		e        expr.Expr
		to       value.Type
		explicit bool
		want     string // String() of the result, or ERR code
	}{
		{col, i4t, false, "a"},
		{col, i8t, false, "a::bigint"},
		{col, txtt, true, "a::text"},
		{col, txtt, false, "ERR 42804"},
		{&expr.Col{Idx: 0, T: bt, Name: "b"}, dt, true, "ERR 42846"},
		{i4(5), i8t, false, "5"},
		{i4(5), numt, false, "5"},
		{lit("12"), i4t, false, "12"},
		{lit("x"), i4t, false, "ERR 22P02"},
		{lit("abcdef"), vc5, false, "ERR 22001"},
		{lit("abcdef"), vc5, true, "'abcde'::character varying(5)"},
		{lit("1.234"), n102, false, "1.23"},
		{lit("2024-01-02"), dt, false, "'2024-01-02'::date"},
		{null(unk), i4t, false, "NULL"},
		{txt("it's"), vc, false, "'it''s'::character varying"},
		{f8(1.5), f8t, false, "'1.5'::double precision"},
		{i4(70000), value.Int2Type, true, "ERR 22003"},
	}
	for _, c := range cases {
		e, err := expr.Coerce(c.e, c.to, c.explicit)
		got := ""
		if err != nil {
			got = "ERR " + pgerr.Code(err)
		} else {
			got = e.String()
			if e.Type() != c.to {
				t.Errorf("Coerce(%s, %s): type %s", c.e, c.to, e.Type())
			}
		}
		if got != c.want {
			t.Errorf("Coerce(%s, %s, %v) = %s, want %s", c.e, c.to, c.explicit, got, c.want)
		}
	}
	e, _ := expr.Coerce(col, i8t, false)
	if got := show(e.Eval(value.Row{value.NewInt(value.Int4, 7)})); got != "7" {
		t.Errorf("cast eval = %s", got)
	}
	if c, ok := e.(*expr.Cast); !ok || c.E != col {
		t.Errorf("Coerce built %T", e)
	}
}
