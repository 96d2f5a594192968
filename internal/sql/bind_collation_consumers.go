package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
)

// The comparisons other than <, =, greatest and least that consume a
// collation, each over its own pair of operands as PostgreSQL derives
// them: IS DISTINCT FROM and NULLIF, each comparison of BETWEEN and of a
// simple CASE, each element of IN (…) and x op ANY/ALL (array). A pair of
// conflicting implicit collations makes that comparison fail when it
// runs on values that are not NULL (42P22, expr.Indeterminate).

// consumeCollation gives e, a comparison built by this binding over s,
// its operands' derived collation (compareUnder); another expression is
// returned as it is.
func (b *binder) consumeCollation(s *scope, e expr.Expr) expr.Expr {
	switch x := e.(type) {
	case *expr.Cmp:
		return b.compareUnder(s, x, []*expr.Expr{&x.L, &x.R}, false)
	case *expr.IsDistinct:
		return b.compareUnder(s, x, []*expr.Expr{&x.L, &x.R}, false)
	case *expr.NullIf:
		return b.compareUnder(s, x, []*expr.Expr{&x.L, &x.R}, false)
	case *expr.InList:
		return b.inListCollation(s, x)
	}
	return e
}

// inListCollation splits x IN (…) whose operand's collation conflicts
// with some elements' into the IN of the others, OR-ed (AND-ed for NOT
// IN) with a comparison of each conflicting one, as PostgreSQL compares
// the elements that read columns one by one after the others.
func (b *binder) inListCollation(s *scope, in *expr.InList) expr.Expr {
	if in.Checks != nil || in.E.Volatile() || !isString(in.E.Type().Kind) {
		return in
	}
	left := b.scopedCollation(s, in.E)
	var keep, conflict []expr.Expr
	for _, el := range in.List {
		if mergeCollation(left, b.scopedCollation(s, el)).strength == collConflict {
			conflict = append(conflict, el)
		} else {
			keep = append(keep, el)
		}
	}
	if len(conflict) == 0 {
		return in
	}
	op := expr.EQ
	if in.Not {
		op = expr.NE
	}
	var args []expr.Expr
	if len(keep) > 0 {
		args = append(args, &expr.InList{E: in.E, List: keep, Not: in.Not})
	}
	for _, el := range conflict {
		args = append(args, &expr.Indeterminate{E: &expr.Cmp{Op: op, L: in.E, R: el}})
	}
	if len(args) == 1 {
		return args[0]
	}
	if in.Not {
		return &expr.And{Args: args}
	}
	return &expr.Or{Args: args}
}

// arrayCompareCollation makes x op ANY/ALL (array), the comparison e of
// l and the array r bound over s, fail when it compares an element under
// conflicting implicit collations.
func (b *binder) arrayCompareCollation(s *scope, e, l, r expr.Expr) expr.Expr {
	if !isString(l.Type().Kind) {
		return e
	}
	if mergeCollation(b.scopedCollation(s, l), b.scopedCollation(s, r)).strength == collConflict {
		return &expr.Indeterminate{E: e, Elems: true}
	}
	return e
}
