package sql

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
)

// AutoLevel is one view between a statement on an automatically
// updatable view and its table, as PostgreSQL's rewriter checks it: the
// view's owner (the statement's role for a security_invoker view) needs
// the statement's privileges on the relation the view's query reads, on
// the columns the statement assigns and inserts as the view shows them
// and, when the statement reads the view, SELECT on every column the
// view's query reads. It keeps what that check needs and nothing else.
type AutoLevel struct {
	View string // the view
	// Base is the relation its query reads: the view under it, or the
	// table (a partition's own name).
	Base    string
	Invoker bool // security_invoker: checked as the statement's role
	// Cols are, per column of the view, the column of Base it shows; -1
	// for a column an expression computes.
	Cols []int
	// Reads are the columns of Base its query reads (select list and
	// WHERE), in order of first use.
	Reads []int
	// Where records what its WHERE reads when it holds a subquery: the
	// relations the subqueries name (Rels), which its owner needs SELECT
	// on wherever the statement applies the WHERE, and the columns;
	// nil for a WHERE without one.
	Where *RefLog
}

// autoLevel is view rel's level over base, from its columns' exprs and
// its WHERE, both over base's row, or the log of a WHERE holding a
// subquery.
func autoLevel(rel *Relation, base string, exprs []expr.Expr, where expr.Expr, log *RefLog) AutoLevel {
	l := AutoLevel{View: rel.Name, Base: base, Invoker: rel.SecurityInvoker, Cols: make([]int, len(exprs)), Where: log}
	for i, e := range exprs {
		l.Cols[i] = -1
		if c, ok := e.(*expr.Col); ok {
			l.Cols[i] = c.Idx
		}
	}
	for _, x := range append(slices.Clone(exprs), where) {
		if x == nil {
			continue
		}
		for _, c := range expr.Columns(x) {
			if !slices.Contains(l.Reads, c) {
				l.Reads = append(l.Reads, c)
			}
		}
	}
	if log != nil {
		for _, o := range log.Seq {
			if o.Table == base && o.Col >= 0 && !slices.Contains(l.Reads, o.Col) {
				l.Reads = append(l.Reads, o.Col)
			}
		}
	}
	return l
}

// OnBase are the columns of the level's base that its view's columns
// cols show, each once.
func (l AutoLevel) OnBase(cols []int) []int {
	var out []int
	for _, i := range cols {
		if i < len(l.Cols) && l.Cols[i] >= 0 && !slices.Contains(out, l.Cols[i]) {
			out = append(out, l.Cols[i])
		}
	}
	return out
}
