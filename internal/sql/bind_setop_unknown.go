package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// literalColumns reports, per select-list item of a set operation's
// branch, whether it is an untyped literal (NULL or a quoted string).
// PostgreSQL leaves such a column's type open until the set operation
// resolves it with the other branch's: SELECT 1 UNION SELECT NULL is an
// integer column. A branch that is itself a set operation, or VALUES,
// has none.
func literalColumns(sel *pg_query.SelectStmt, width int) []bool {
	out := make([]bool, width)
	if sel == nil || sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.ValuesLists) > 0 {
		return out
	}
	for i, t := range sel.TargetList {
		if i >= width {
			break
		}
		rt := t.GetResTarget()
		if rt == nil || rt.Val == nil {
			continue
		}
		if c := rt.Val.GetAConst(); c != nil && (c.Isnull || c.GetSval() != nil) {
			out[i] = true
		}
	}
	return out
}

// setOpType is the type of column i of a set operation whose branches'
// columns have types lt and rt; a branch's untyped literal (lit) counts
// as unknown.
func setOpType(lt, rt value.Type, llit, rlit bool, word string) (value.Type, error) {
	if llit {
		lt = value.UnknownType
	}
	if rlit {
		rt = value.UnknownType
	}
	t, err := expr.CommonType([]value.Type{lt, rt}, word)
	if err != nil {
		return t, err
	}
	return t, setOpConvert(lt, rt, t, word)
}

// setOpConvert is the error of a branch's column type (lt or rt) of the
// category of the set operation's column type t that does not convert to
// it implicitly (money beside a number): 42846, as PostgreSQL's
// coerce_to_common_type reports it.
func setOpConvert(lt, rt, t value.Type, word string) error {
	for _, c := range []value.Type{lt, rt} {
		if c.Kind != value.Unknown && c.Kind != t.Kind && !value.CanCast(c.Kind, t.Kind, false) {
			return pgerr.New(pgerr.CannotCoerce, "%s could not convert type %s to %s", word, c, t)
		}
	}
	return nil
}

// castLiterals converts the untyped-literal columns (lit) of a branch,
// bound as text, to the set operation's column types, as the literal's
// input would be read: '2' becomes the integer 2.
func castLiterals(p plan.Node, cols []plan.Column, lit []bool, origins []Origin) plan.Node {
	in := p.Columns()
	exprs := make([]expr.Expr, len(in))
	out := make([]plan.Column, len(in))
	changed := false
	for i, c := range in {
		exprs[i], out[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}, c
		if i < len(lit) && lit[i] && c.Type != cols[i].Type {
			exprs[i], out[i].Type = &expr.Cast{E: exprs[i], To: cols[i].Type, Explicit: true}, cols[i].Type
			if i < len(origins) && origins[i].Domain.Elem() != nil {
				// A literal beside an array of a domain is read as one
				// (setOpOrigins): each element checked.
				exprs[i] = &expr.DomainCheck{E: exprs[i], Domain: origins[i].Domain}
			}
			changed = true
		}
	}
	if !changed {
		return p
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: out}
}

// setOpTypeError places err, the set operation's column i whose branches'
// types cannot be matched, where PostgreSQL does: at the right branch's
// select-list item (its first branch's, for a nested set operation), from
// the item's leftmost token; nowhere when that is VALUES, whose column is
// no expression written there.
func setOpTypeError(sql string, err error, right *pg_query.SelectStmt, i int) error {
	e := pgerr.Wrap(err)
	for right != nil && right.Op != pg_query.SetOperation_SETOP_NONE {
		right = right.Larg
	}
	if right == nil || len(right.ValuesLists) > 0 || i >= len(right.TargetList) {
		return e
	}
	if rt := right.TargetList[i].GetResTarget(); rt != nil && rt.Val != nil {
		val := rt.Val
		for val.GetCollateClause() != nil && val.GetCollateClause().Arg != nil {
			val = val.GetCollateClause().Arg // x COLLATE c is reported at x
		}
		if loc := leftmostLoc(val); loc >= 0 {
			return e.At(sql, int(loc))
		}
	}
	return e
}

// leftmostLoc is n's position as PostgreSQL reports an expression's: an
// operator, a cast or AND/OR from its leftmost token.
func leftmostLoc(n *pg_query.Node) int32 {
	loc := nodeLoc(n, -1)
	if a := n.GetAArrayExpr(); a != nil {
		loc = a.Location // a sub-array, ARRAY[…] or […]
	}
	var left *pg_query.Node
	switch {
	case n.GetAExpr() != nil:
		left = n.GetAExpr().Lexpr
	case n.GetTypeCast() != nil:
		left = n.GetTypeCast().Arg
	case n.GetBoolExpr() != nil && len(n.GetBoolExpr().Args) > 0:
		left = n.GetBoolExpr().Args[0]
	}
	if left != nil {
		if l := leftmostLoc(left); l >= 0 && (loc < 0 || l < loc) {
			loc = l
		}
	}
	return loc
}
