package expr

import (
	"testing"

	"github.com/deltaview/deltaview/internal/value"
)

// TestColConstAgreesWithEval checks the filters' shortcut against the
// comparison's evaluation: where Test answers, it answers as Eval does;
// where Eval gives NULL or an error, Test does not answer.
func TestColConstAgreesWithEval(t *testing.T) {
	vals := []value.Value{value.Null, value.NewInt(value.Int4, -5), value.NewInt(value.Int4, 7),
		value.NewInt(value.Int4, 8), value.NewInt(value.Int8, 7), value.NewText(value.Text, "7")}
	for op := EQ; op <= GE; op++ {
		c := &Cmp{Op: op, L: &Col{Idx: 1, T: value.Type{Kind: value.Int4, Mod: -1}},
			R: &Const{V: value.NewInt(value.Int4, 7), T: value.Type{Kind: value.Int4, Mod: -1}}}
		cc, ok := ColConstOf(c)
		if !ok {
			t.Fatalf("%s: no shortcut", c)
		}
		for _, v := range vals {
			row := value.Row{value.Null, v}
			pass, ok := cc.Test(row)
			want, err := c.Eval(row)
			switch {
			case v.Kind() != value.Int4:
				if ok {
					t.Errorf("%s with %v: Test answered %v for a value of another kind", c, v, pass)
				}
			case err != nil || !ok:
				t.Errorf("%s with %v: Test ok %v, Eval error %v", c, v, ok, err)
			case pass != (want.Kind() == value.Bool && want.Bool()):
				t.Errorf("%s with %v: Test %v, Eval %v", c, v, pass, want)
			}
		}
		if _, ok := cc.Test(value.Row{value.Null}); ok {
			t.Errorf("%s: Test answered for a row without the column", c)
		}
	}
	for _, e := range []Expr{
		&Cmp{Op: LT, L: &Const{V: value.NewInt(value.Int4, 7)}, R: &Col{Idx: 0}},
		&Cmp{Op: LT, L: &Col{Idx: 0}, R: &Const{V: value.Null}},
		&Cmp{Op: LT, L: &Col{Idx: 0}, R: &Const{V: value.NewText(value.Text, "a")}},
		&Col{Idx: 0},
	} {
		if _, ok := ColConstOf(e); ok {
			t.Errorf("%s: a shortcut for an expression that is not column op integer", e)
		}
	}
}
