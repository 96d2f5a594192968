// Strings without a collation: references of a subquery's column whose query derives conflicting ones.
package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// A subquery's or WITH query's column whose implicit collations conflict
// (SELECT c || e of a "C" and an ICU column) has no collation in
// PostgreSQL, and a reference of it none either (its Var's collation is
// InvalidOid, strength none). An expression over it takes the default
// collation (z || 'x', z < 'a'), but what consumes such references alone
// runs under no collation and fails: a comparison of two, a sort or a
// grouping key, min and max, upper and lower (42P22, when it runs).

// uncollatedRef reports whether e, bound over s, is a reference of a
// column without a collation.
func (b *binder) uncollatedRef(s *scope, e expr.Expr) bool {
	if !isString(e.Type().Kind) {
		return false
	}
	return b.scopedCollation(s, e).uncollated
}

// allUncollated reports whether the string operands ops, bound over s,
// are all references of columns without a collation, so that nothing
// gives their comparison one.
func (b *binder) allUncollated(s *scope, ops []*expr.Expr) bool {
	n := 0
	for _, op := range ops {
		if !b.uncollatedRef(s, *op) {
			return false
		}
		n++
	}
	return n > 0
}

// noCollationError is PostgreSQL's error for an operation (what, as
// "string comparison") that runs under no collation.
func noCollationError(what string) error {
	return pgerr.New("42P22", "could not determine which collation to use for %s", what).
		WithHint("Use the COLLATE clause to set the collation explicitly.")
}

// sortKeyNoCollation refuses the sort key e, bound over s, that is a
// reference of a column without a collation: PostgreSQL's sort of it
// fails as it starts, whatever the rows (42P22).
func (b *binder) sortKeyNoCollation(s *scope, e expr.Expr) error {
	if b.uncollatedRef(s, e) {
		return noCollationError("string comparison")
	}
	return nil
}

// hashNoCollation makes input, over whose rows (bound over s) keys are
// grouping keys, fail on a row where a key that is a reference of a
// column without a collation is not NULL, as PostgreSQL's hashing of the
// key does (42P22); input is returned as it is without such a key.
func (b *binder) hashNoCollation(s *scope, input plan.Node, keys []expr.Expr) plan.Node {
	var check []expr.Expr
	for _, k := range keys {
		if b.uncollatedRef(s, k) {
			check = append(check, k)
		}
	}
	return hashCheck(input, check)
}

// distinctNoCollation is hashNoCollation for SELECT DISTINCT: p's rows
// are those of the select list exprs, bound over s.
func (b *binder) distinctNoCollation(s *scope, p plan.Node, exprs []expr.Expr) plan.Node {
	var check []expr.Expr
	for i, e := range exprs {
		if b.uncollatedRef(s, e) {
			check = append(check, &expr.Col{Idx: i, T: e.Type(), Name: colName(e)})
		}
	}
	return hashCheck(p, check)
}

// hashCheck filters input through a check that fails where one of keys
// is not NULL; input itself without keys.
func hashCheck(input plan.Node, keys []expr.Expr) plan.Node {
	if len(keys) == 0 {
		return input
	}
	def := &expr.FuncDef{Name: "hashtext", Result: value.BoolType, Eval: func(args []value.Value) (value.Value, error) {
		for _, a := range args {
			if !a.IsNull() {
				return value.Null, noCollationError("string hashing")
			}
		}
		return value.NewBool(true), nil
	}}
	return &plan.Filter{Input: input, Pred: &expr.Func{Def: def, Args: keys, T: value.BoolType}}
}

// windowKeyCollation refuses a window's PARTITION BY or ORDER BY key e,
// bound over s, as PostgreSQL sorts the rows by it: implicit collations
// that conflict (42P21 at the second), or a reference of a column
// without a collation (42P22).
func (b *binder) windowKeyCollation(s *scope, e expr.Expr) error {
	if err := b.sortCollationConflict(s, e); err != nil {
		return err
	}
	return b.sortKeyNoCollation(s, e)
}

// caseNoCollation makes upper, lower or initcap (f, bound over s) of a
// reference of a column without a collation fail on a value that is not
// NULL, as PostgreSQL's do without one to take the case mapping from
// (42P22); any other call is returned as it is.
func (b *binder) caseNoCollation(s *scope, f *expr.Func) expr.Expr {
	if f.Def == nil || len(f.Args) != 1 || !b.uncollatedRef(s, f.Args[0]) {
		return f
	}
	switch name := f.Def.Name; name {
	case "upper", "lower", "initcap":
		def := &expr.FuncDef{Name: name, Result: f.T, Eval: func(args []value.Value) (value.Value, error) {
			if !args[1].IsNull() {
				return value.Null, noCollationError(name + "() function")
			}
			return args[0], nil
		}, Print: func(args []expr.Expr) string { return args[0].String() }}
		return &expr.Func{Def: def, Args: []expr.Expr{f, f.Args[0]}, T: f.T}
	}
	return f
}
