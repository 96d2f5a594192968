package expr_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

var (
	colA = &expr.Col{Idx: 0, T: value.Int4Type, Name: "a"}
	colB = &expr.Col{Idx: 1, T: value.Int4Type, Name: "b"}
	colN = &expr.Col{Idx: 2, T: value.TextType, Name: "name"}
)

func TestString(t *testing.T) {
	plus := &expr.Arith{Op: expr.OpAdd, L: colA, R: i4(1), T: value.Int4Type}
	lower, _ := call(t, "lower", colN)
	cases := []struct {
		e    expr.Expr
		want string
	}{
		{&expr.Cmp{Op: expr.GT, L: plus, R: i4(5)}, "(a + 1) > 5"},
		{&expr.Col{Idx: 4}, "#4"},
		{lower, "lower(name)"},
		{&expr.Cast{E: plus, To: value.Type{Kind: value.Numeric, Mod: value.NumericMod(10, 2)}}, "(a + 1)::numeric(10,2)"},
		{&expr.Cast{E: colA, To: value.Int8Type}, "a::bigint"},
		{txt("it's"), "'it''s'"},
		{lit("x"), "'x'"},
		{null(value.Int4Type), "NULL"},
		{boolc(true), "true"},
		{num("-1.50"), "-1.50"},
		{i8(-7), "-7"},
		{f8(2.5), "'2.5'::double precision"},
		{&expr.Const{V: value.NewDate(0), T: value.DateType}, "'2000-01-01'::date"},
		{&expr.Neg{E: i4(-5)}, "-(-5)"},
		{&expr.Neg{E: plus}, "-(a + 1)"},
		{&expr.Neg{E: colA}, "-a"},
		{&expr.Concat{L: colN, R: txt("x")}, "name || 'x'"},
		{&expr.And{Args: []expr.Expr{
			&expr.Cmp{Op: expr.EQ, L: colA, R: i4(1)},
			&expr.Or{Args: []expr.Expr{&expr.Cmp{Op: expr.LT, L: colB, R: i4(2)}, &expr.IsNull{E: colB}}},
		}}, "a = 1 AND (b < 2 OR b IS NULL)"},
		{&expr.Not{E: &expr.Cmp{Op: expr.NE, L: colA, R: colB}}, "NOT (a <> b)"},
		{&expr.IsNull{E: plus, Not: true}, "(a + 1) IS NOT NULL"},
		{&expr.IsBool{E: colA, Want: -1, Not: true}, "a IS NOT UNKNOWN"},
		{&expr.IsBool{E: colA, Want: 0}, "a IS FALSE"},
		{&expr.IsDistinct{L: colA, R: colB, Not: true}, "a IS NOT DISTINCT FROM b"},
		{&expr.InList{E: colA, List: []expr.Expr{i4(1), i4(2)}, Not: true}, "a NOT IN (1, 2)"},
		{&expr.Like{E: colN, Pattern: txt("a%"), ILike: true, Not: true, Escape: txt("#")}, "name NOT ILIKE 'a%' ESCAPE '#'"},
		{&expr.Case{Whens: []expr.When{{Cond: &expr.Cmp{Op: expr.EQ, L: colA, R: i4(0)}, Result: i4(0)}},
			Else: &expr.Arith{Op: expr.OpDiv, L: i4(1), R: colA}}, "CASE WHEN a = 0 THEN 0 ELSE 1 / a END"},
		{&expr.Coalesce{Args: []expr.Expr{colA, i4(0)}}, "COALESCE(a, 0)"},
		{&expr.NullIf{L: colA, R: i4(0)}, "NULLIF(a, 0)"},
		{&expr.MinMax{Args: []expr.Expr{colA, colB}, Least: true}, "LEAST(a, b)"},
		{&expr.MinMax{Args: []expr.Expr{colA, colB}}, "GREATEST(a, b)"},
	}
	for _, c := range cases {
		if got := c.e.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

func TestWalkRewriteColumns(t *testing.T) {
	e := &expr.And{Args: []expr.Expr{
		&expr.Cmp{Op: expr.GT, L: &expr.Arith{Op: expr.OpAdd, L: colB, R: colA, T: value.Int4Type}, R: i4(5)},
		&expr.Case{Whens: []expr.When{{Cond: &expr.IsNull{E: colB}, Result: boolc(true)}}, Else: &expr.Like{E: colN, Pattern: txt("x%")}, T: value.BoolType},
	}}
	if got := expr.Columns(e); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("Columns = %v", got)
	}
	var seen []string
	expr.Walk(e, func(x expr.Expr) bool {
		seen = append(seen, fmt.Sprintf("%T", x))
		_, isCase := x.(*expr.Case)
		return !isCase
	})
	want := []string{"*expr.And", "*expr.Cmp", "*expr.Arith", "*expr.Col", "*expr.Col", "*expr.Const", "*expr.Case"}
	if !slices.Equal(seen, want) {
		t.Errorf("Walk order %v", seen)
	}
	// Shift every column by 10; untouched subtrees are shared.
	shifted := expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if c, ok := x.(*expr.Col); ok {
			return &expr.Col{Idx: c.Idx + 10, T: c.T, Name: c.Name}
		}
		return x
	})
	if got := expr.Columns(shifted); !slices.Equal(got, []int{10, 11, 12}) {
		t.Errorf("rewritten Columns = %v", got)
	}
	if expr.Columns(e)[0] != 0 {
		t.Errorf("Rewrite modified its input")
	}
	if shifted.String() != e.String() {
		t.Errorf("%s != %s", shifted, e)
	}
	same := expr.Rewrite(e, func(x expr.Expr) expr.Expr { return x })
	if same != expr.Expr(e) {
		t.Errorf("identity Rewrite copied the tree")
	}
	// Rewrite sees children before parents.
	var order []string
	expr.Rewrite(&expr.Neg{E: colA}, func(x expr.Expr) expr.Expr {
		order = append(order, x.String())
		return x
	})
	if !slices.Equal(order, []string{"a", "-a"}) {
		t.Errorf("Rewrite order %v", order)
	}
}

func TestVolatile(t *testing.T) {
	rnd, _ := call(t, "random")
	abs, _ := call(t, "abs", colA)
	for _, c := range []struct {
		e    expr.Expr
		want bool
	}{
		{rnd, true},
		{abs, false},
		{&expr.Cmp{Op: expr.LT, L: rnd, R: f8(0.5)}, true},
		{&expr.Case{Whens: []expr.When{{Cond: boolc(true), Result: i4(1)}}, Else: &expr.Cast{E: rnd, To: value.Int4Type}}, true},
		{&expr.Coalesce{Args: []expr.Expr{colA, i4(1)}}, false},
	} {
		if got := c.e.Volatile(); got != c.want {
			t.Errorf("%s volatile = %v", c.e, got)
		}
	}
}

func TestHotPathsDoNotAllocate(t *testing.T) {
	row := value.Row{value.NewInt(value.Int4, 3), value.NewInt(value.Int4, 4), value.NewText(value.Text, "x")}
	exprs := []expr.Expr{
		colA,
		i4(1),
		&expr.Cmp{Op: expr.LT, L: colA, R: colB},
		&expr.Arith{Op: expr.OpAdd, L: colA, R: colB, T: value.Int4Type},
		&expr.And{Args: []expr.Expr{&expr.Cmp{Op: expr.LT, L: colA, R: colB}, &expr.IsNull{E: colN, Not: true}}},
		&expr.Or{Args: []expr.Expr{&expr.Cmp{Op: expr.GT, L: colA, R: colB}, &expr.Not{E: boolc(false)}}},
		&expr.InList{E: colA, List: []expr.Expr{i4(1), i4(3)}},
		&expr.Like{E: colN, Pattern: txt("%x%")},
	}
	for _, e := range exprs {
		e.Eval(row) // compile and cache
		if n := testing.AllocsPerRun(100, func() { _, _ = e.Eval(row) }); n != 0 {
			t.Errorf("%s: %v allocations per Eval", e, n)
		}
	}
}

func Example() {
	// price * qty > 100 AND name LIKE 'a%', over rows (price, qty, name).
	price := &expr.Col{Idx: 0, T: value.Int4Type, Name: "price"}
	qty := &expr.Col{Idx: 1, T: value.Int2Type, Name: "qty"}
	name := &expr.Col{Idx: 2, T: value.TextType, Name: "name"}

	lt, rt, result, _ := expr.ResolveArith(expr.OpMul, price.Type(), qty.Type())
	l, _ := expr.Coerce(price, lt, false)
	r, _ := expr.Coerce(qty, rt, false)
	total := &expr.Arith{Op: expr.OpMul, L: l, R: r, T: result}

	pred := &expr.And{Args: []expr.Expr{
		&expr.Cmp{Op: expr.GT, L: total, R: &expr.Const{V: value.NewInt(value.Int4, 100), T: value.Int4Type}},
		&expr.Like{E: name, Pattern: &expr.Const{V: value.NewText(value.Text, "a%"), T: value.TextType}},
	}}
	fmt.Println(pred)
	for _, row := range []value.Row{
		{value.NewInt(value.Int4, 30), value.NewInt(value.Int2, 4), value.NewText(value.Text, "apple")},
		{value.NewInt(value.Int4, 30), value.NewInt(value.Int2, 4), value.NewText(value.Text, "pear")},
		{value.NewInt(value.Int4, 30), value.Null, value.NewText(value.Text, "apple")},
	} {
		v, _ := pred.Eval(row)
		fmt.Println(row, "→", v)
	}
	// Output:
	// (price * qty::integer) > 100 AND name LIKE 'a%'
	// (30, 4, apple) → t
	// (30, 4, pear) → f
	// (30, NULL, apple) → NULL
}
