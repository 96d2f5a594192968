package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Assignment to subscripts, as PostgreSQL makes it: UPDATE t SET a[2] = 5,
// SET a[1:2] = '{7,8}', SET j['k']['x'] = '1', INSERT INTO t (a[1], j['k'])
// and ON CONFLICT DO UPDATE SET a[i] = …. The column's new value is an
// expression over its value before (NULL in an INSERT): expr.NewArrayAssign
// or expr.NewJSONBAssign of it. Several assignments to subscripts of one
// column in one statement apply in the order written, each over the value
// the one before made; a plain assignment beside them is PostgreSQL's
// error. The right-hand sides read the row as it was, as in PostgreSQL.

// subscriptAssigner makes a column's new value from its value before
// (base) and the bound right-hand side v at vloc.
type subscriptAssigner func(base, v expr.Expr, vloc int32) (expr.Expr, error)

// bindAssignSubscripts binds the subscripts ind of an assignment target,
// column col (named name, of type t) at loc; the subscripts read sc.
func (b *binder) bindAssignSubscripts(sc *scope, name string, t value.Type, ind []*pg_query.Node, loc int32) (subscriptAssigner, error) {
	var idx []*pg_query.A_Indices
	cur, slice := t, false // the type at this point of the target, and whether a slice led there
	for _, n := range ind {
		ai := n.GetAIndices()
		if ai == nil {
			if f := n.GetString_(); f != nil && cur.Kind != value.Record {
				if cur.Kind.IsArray() && len(idx) > 0 && !slice {
					cur = value.Type{Kind: cur.Kind.Elem(), Mod: -1}
				}
				return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "cannot assign to field %q of column %q because its type %s is not a composite type", f.Sval, name, cur)
			}
			if f := n.GetString_(); f != nil && len(ind) == 1 {
				return b.fieldAssigner(name, t, f.Sval, loc)
			}
			return nil, b.refuse(loc, "assignment to a field of column %q is not supported", name)
		}
		slice = slice || ai.IsSlice
		idx = append(idx, ai)
	}
	switch {
	case t.Kind.IsArray():
		return b.arrayAssigner(sc, name, t, idx, loc)
	case t.Kind == value.JSONB:
		return b.jsonbAssigner(sc, name, idx, loc)
	case t.Kind == value.HStore:
		return b.hstoreAssigner(sc, name, idx, loc)
	}
	return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", t)
}

func (b *binder) arrayAssigner(sc *scope, name string, t value.Type, idx []*pg_query.A_Indices, loc int32) (subscriptAssigner, error) {
	if len(idx) > value.MaxDims {
		return nil, b.stmt.errf(loc, pgerr.ProgramLimitExceeded, "number of array dimensions (%d) exceeds the maximum allowed (%d)", len(idx), value.MaxDims)
	}
	sub := func(n *pg_query.Node) (expr.Expr, error) {
		if n == nil {
			return nil, nil
		}
		e, err := b.bindExpr(sc, n)
		if err != nil {
			return nil, err
		}
		xloc := nodeLoc(n, loc)
		if k := e.Type().Kind; k != value.Unknown && !isNumeric(k) {
			return nil, b.stmt.errf(xloc, pgerr.DatatypeMismatch, "array subscript must have type integer")
		}
		out, err := expr.Coerce(e, value.Int4Type, e.Type().Kind != value.Unknown && !value.CanCast(e.Type().Kind, value.Int4, false))
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(xloc))
		}
		return out, nil
	}
	slice := false
	for _, ai := range idx {
		slice = slice || ai.IsSlice
	}
	subs := make([]expr.Subscript, len(idx))
	for i, ai := range idx {
		var err error
		if subs[i].Lo, err = sub(ai.Lidx); err != nil {
			return nil, err
		}
		if subs[i].Hi, err = sub(ai.Uidx); err != nil {
			return nil, err
		}
		subs[i].Slice = ai.IsSlice
		if !ai.IsSlice {
			subs[i].Lo, subs[i].Hi = subs[i].Hi, nil // a[i] holds i in Uidx
		}
	}
	target := value.Type{Kind: t.Kind.Elem(), Mod: -1}
	if value.TakesModifier(target.Kind) {
		target = t.ElemTypeMod() // varchar(3)[]'s element is assigned as varchar(3)
	}
	if slice {
		target = t
	}
	return func(base, v expr.Expr, vloc int32) (expr.Expr, error) {
		v, err := b.subscriptCast(v, target, name, loc, vloc)
		if err != nil {
			return nil, err
		}
		return expr.NewArrayAssign(base, subs, slice, v), nil
	}, nil
}

func (b *binder) jsonbAssigner(sc *scope, name string, idx []*pg_query.A_Indices, loc int32) (subscriptAssigner, error) {
	var path []expr.Expr
	asArray := false
	for i, ai := range idx {
		if ai.IsSlice {
			return nil, b.stmt.errf(nodeLoc(ai.Lidx, nodeLoc(ai.Uidx, loc)), pgerr.DatatypeMismatch, "jsonb subscript does not support slices")
		}
		x, err := b.bindExpr(sc, ai.Uidx)
		if err != nil {
			return nil, err
		}
		x, isInt, err := b.jsonbKey(x, nodeLoc(ai.Uidx, loc))
		if err != nil {
			return nil, err
		}
		asArray = asArray || i == 0 && isInt
		path = append(path, x)
	}
	return func(base, v expr.Expr, vloc int32) (expr.Expr, error) {
		v, err := b.subscriptCast(v, value.JSONBType, name, loc, vloc)
		if err != nil {
			return nil, err
		}
		return expr.NewJSONBAssign(base, path, asArray, v), nil
	}, nil
}

// subscriptCast converts v, the value assigned to a subscript of column
// name (at loc), to t as an assignment does; an error converting it is at
// vloc.
func (b *binder) subscriptCast(v expr.Expr, t value.Type, name string, loc, vloc int32) (expr.Expr, error) {
	out, err := b.assignCast(v, t, name, vloc)
	if err != nil && pgerr.Code(err) == pgerr.DatatypeMismatch {
		return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "subscripted assignment to %q requires type %s but expression is of type %s", name, t, v.Type()).
			WithHint("You will need to rewrite or cast the expression.")
	}
	return out, err
}

// refuseDefaultSubscript is PostgreSQL's error for DEFAULT assigned to a
// subscript or a field (ind, the target's indirection).
func (b *binder) refuseDefaultSubscript(ind []*pg_query.Node, loc int32) error {
	if len(ind) > 0 && ind[0].GetString_() != nil {
		return b.refuse(loc, "cannot set a subfield to DEFAULT")
	}
	return b.refuse(loc, "cannot set an array element to DEFAULT")
}

// bindSubscriptSet binds the assignment rt, SET col[…] = v, to column i of
// rel over sc, and returns the column's new value computed from base.
func (b *binder) bindSubscriptSet(sc *scope, rel *Relation, i int, rt *pg_query.ResTarget, base expr.Expr) (expr.Expr, error) {
	assign, err := b.bindAssignSubscripts(sc, rt.Name, rel.Cols[i].Type, rt.Indirection, rt.Location)
	if err != nil {
		return nil, err
	}
	if rt.Val.GetSetToDefault() != nil {
		return nil, b.refuseDefaultSubscript(rt.Indirection, rt.Location)
	}
	v, err := b.bindExpr(sc, rt.Val)
	if err != nil {
		return nil, err
	}
	return assign(base, v, nodeLoc(rt.Val, rt.Location))
}

// insertTargets resolves INSERT's column list: the column of each
// position, and for a subscripted one (a[1], j['k']) how it assigns. A
// column listed twice is 42701 unless every mention is subscripted.
func (b *binder) insertTargets(rel *Relation, list []*pg_query.Node) ([]int, map[int]subscriptAssigner, error) {
	var targets []int
	subscripted := map[int]subscriptAssigner{}
	seen := map[int]bool{}  // listed
	plain := map[int]bool{} // listed whole
	for j, c := range list {
		rt := c.GetResTarget()
		i := colIndex(rel.Cols, rt.Name)
		if i < 0 {
			return nil, nil, b.stmt.errf(rt.Location, pgerr.UndefinedColumn, "column %q of relation %q does not exist", rt.Name, rel.Name)
		}
		if seen[i] && (plain[i] || len(rt.Indirection) == 0) {
			return nil, nil, b.stmt.errf(rt.Location, pgerr.DuplicateColumn, "column %q specified more than once", rt.Name)
		}
		seen[i] = true
		if len(rt.Indirection) == 0 {
			plain[i] = true
		} else {
			sub, err := b.bindAssignSubscripts(&scope{}, rt.Name, rel.Cols[i].Type, rt.Indirection, rt.Location)
			if err != nil {
				return nil, nil, err
			}
			subscripted[j] = sub
		}
		targets = append(targets, i)
	}
	return targets, subscripted, nil
}
