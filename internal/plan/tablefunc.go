package plan

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
)

// TableFunc is a FROM item of set-returning functions: f(…), or ROWS FROM
// (f(…), g(…)), optionally WITH ORDINALITY. The functions' rows are
// zipped, the shorter padded with NULLs, then numbered from 1. With an
// Input (an implicit LATERAL: the arguments read the items before it),
// the functions run over each input row, whose columns come first. It is
// evaluated once; views refuse it.
type TableFunc struct {
	Input      Node // nil: none
	Funcs      []*expr.SRF
	Ordinality bool
	Cols       []Column // the functions' columns, then the ordinal's
}

func (n *TableFunc) Columns() []Column {
	if n.Input != nil {
		return append(append([]Column{}, n.Input.Columns()...), n.Cols...)
	}
	return n.Cols
}

func (n *TableFunc) Children() []Node {
	if n.Input != nil {
		return []Node{n.Input}
	}
	return nil
}

func (*TableFunc) node() {}

func (n *TableFunc) describe() string {
	parts := make([]string, len(n.Funcs))
	for i, f := range n.Funcs {
		parts[i] = f.String()
	}
	s := "TableFunc " + strings.Join(parts, ", ")
	if n.Ordinality {
		s += " WITH ORDINALITY"
	}
	return s
}

// Exprs lists the functions' arguments.
func (n *TableFunc) exprs() []expr.Expr {
	var out []expr.Expr
	for _, f := range n.Funcs {
		out = append(out, f.Args...)
	}
	return out
}

// MapArgs returns a copy of n over input with each argument mapped by f.
func (n *TableFunc) MapArgs(input Node, f func(expr.Expr) expr.Expr) *TableFunc {
	c := *n
	c.Input = input
	c.Funcs = make([]*expr.SRF, len(n.Funcs))
	for i, fn := range n.Funcs {
		g := *fn
		g.Args = make([]expr.Expr, len(fn.Args))
		for j, a := range fn.Args {
			g.Args[j] = f(a)
		}
		c.Funcs[i] = &g
	}
	return &c
}
