package plan

import "github.com/deltaview/deltaview/internal/expr"

// pushBelowTableFunc moves the conjuncts of f that read only the input
// rows of tf (its lateral set-returning functions' left side) below tf,
// as PostgreSQL evaluates WHERE before the functions of each row: a row
// the filter drops never reaches a function that would fail on it.
// Volatile conjuncts stay above.
func pushBelowTableFunc(f *Filter, tf *TableFunc) Node {
	if tf.Input == nil {
		return f
	}
	w := len(tf.Input.Columns())
	var below, keep []expr.Expr
	for _, c := range Conjuncts(f.Pred) {
		if !c.Volatile() && side(c, w) <= 1 {
			below = append(below, c)
		} else {
			keep = append(keep, c)
		}
	}
	if len(below) == 0 {
		return f
	}
	n := Node(&TableFunc{Input: withFilter(tf.Input, below), Funcs: tf.Funcs, Ordinality: tf.Ordinality, Cols: tf.Cols})
	if len(keep) > 0 {
		n = &Filter{Input: n, Pred: AndOf(keep)}
	}
	return n
}
