// Package expr holds bound, typed scalar expressions and their evaluation
// with SQL's three-valued logic, plus the resolution of operators, functions
// and common types that the binder uses to build them.
//
// Expressions are immutable trees. Column references are positions in the
// input row, so the same expression evaluates over a table's rows, a
// Z-set's rows or a join's concatenated rows alike.
package expr

import "github.com/deltaview/deltaview/internal/value"

// Expr is a bound scalar expression.
type Expr interface {
	// Type is the SQL type of the result.
	Type() value.Type
	// Eval computes the expression over row. Errors are *pgerr.Error values
	// (division by zero, overflow, invalid casts, …).
	Eval(row value.Row) (value.Value, error)
	// String renders the expression as SQL, with columns as their names
	// when known (#i otherwise).
	String() string
	// Volatile reports whether the expression, or any subexpression, may
	// give different results for the same row (random(), now(), …).
	Volatile() bool
	expr()
}
