package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// WHERE CURRENT OF c. UPDATE and DELETE act on the row cursor c stands on:
// its table's oid and the row's ctid, which the cursor kept for each row
// its query read (CursorScan), and which the session answers when the
// statement runs (expr.CursorSource). The statement reads its table's
// system columns, and its WHERE becomes a test of each row's tableoid and
// ctid against the cursor's: a scan of the table, where PostgreSQL goes
// to the row by its ctid. A binding stays valid as the cursor moves, so
// that a prepared statement or a PL/pgSQL loop runs it again.

// currentOfTarget notes that where, the WHERE of an UPDATE or a DELETE of
// rel (named table, under alias), is CURRENT OF, which reads the table's
// system columns, and returns the check of the cursor that the statement
// runs before its rows; nil for another WHERE.
func (b *binder) currentOfTarget(where *pg_query.Node, rel *Relation, table, alias string) (expr.Expr, error) {
	c := where.GetCurrentOfExpr()
	if c == nil {
		return nil, nil
	}
	if c.CursorParam > 0 {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE CURRENT OF a parameter is not supported")
	}
	b.currentOf = &currentOfTarget{alias: alias}
	leaves, err := b.currentOfPartitions(rel)
	if err != nil {
		return nil, err
	}
	oid, ok := b.systemColumnsOf(rel)
	if !ok && rel.Kind == KindView {
		// PostgreSQL's rewriter refuses it; a cursor over a view stands
		// on its table's row, which a statement on the table changes.
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE CURRENT OF on a view is not implemented")
	}
	if !ok {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE CURRENT OF is not supported for this table type").
			WithHint("UPDATE or DELETE a table's rows WHERE CURRENT OF a cursor over it")
	}
	var hier []uint32 // the tables of the hierarchy the statement reaches
	for _, r := range b.currentOfHier {
		if o, ok := b.systemColumnsOf(r); ok {
			hier = append(hier, o)
		}
	}
	clock, name := b.stmtClock, c.CursorName
	b.currentOf.tid = func() (value.Value, error) {
		var src expr.CursorSource
		if clock != nil {
			src, _ = clock.Backend.(expr.CursorSource)
		}
		if src == nil {
			return value.Null, pgerr.New(pgerr.UndefinedCursor, "cursor %q does not exist", name)
		}
		at, tid, locked, err := src.CurrentOf(name)
		if err != nil {
			return value.Null, err
		}
		b.currentOf.at = at
		if leaves != nil && leaves(at) {
			return tid, nil // a partition's row: its root's ctid
		}
		if at != oid && slices.Contains(hier, at) {
			return value.Null, nil // the row is another table's of the hierarchy
		}
		if locked && at != oid {
			return value.Null, pgerr.New(pgerr.InvalidCursorState, "cursor %q does not have a FOR UPDATE/SHARE reference to table %q", name, table)
		}
		if at == 0 || at != oid {
			return value.Null, pgerr.New(pgerr.InvalidCursorState, "cursor %q is not a simply updatable scan of table %q", name, table)
		}
		return tid, nil
	}
	tid := b.currentOf.tid
	def := &expr.FuncDef{Name: "current of", Volatile: true, Result: value.BoolType,
		Print: func([]expr.Expr) string { return "CURRENT OF " + name },
		Eval: func([]value.Value) (value.Value, error) {
			_, err := tid()
			return value.NewBool(true), err
		}}
	return &expr.Func{Def: def, T: value.BoolType}, nil
}

// currentOfTarget is the target of an UPDATE or DELETE WHERE CURRENT OF:
// its alias, and the ctid of the cursor's row; for a partitioned table or
// a partition, the oid of the partition that holds it (at, which tid
// sets) and the expression of the partition of a row of the target
// (part).
type currentOfTarget struct {
	alias string
	tid   func() (value.Value, error)
	at    uint32
	part  expr.Expr
}

// bindCurrentOf binds CURRENT OF c as the test that a row of the target is
// the one c stands on.
func (b *binder) bindCurrentOf(s *scope, c *pg_query.CurrentOfExpr) (expr.Expr, error) {
	t := b.currentOf
	if t == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WHERE CURRENT OF is allowed only as the WHERE of UPDATE and DELETE")
	}
	tidCol, err := b.bindColumnRef(s, columnRef(-1, t.alias, "ctid").GetColumnRef())
	if err != nil {
		return nil, err
	}
	name, tid := c.CursorName, t.tid
	if t.part != nil {
		// A partition's rows live in their root, under the root's ctids:
		// the row is the cursor's when its partition is too.
		def := &expr.FuncDef{Name: "current of", Volatile: true, Params: []value.Kind{value.Tid, value.Oid}, Result: value.BoolType,
			Print: func([]expr.Expr) string { return "CURRENT OF " + name },
			Eval: func(a []value.Value) (value.Value, error) {
				v, err := tid()
				if err != nil {
					return value.Null, err
				}
				return value.NewBool(value.Equal(v, a[0]) && !a[1].IsNull() && a[1].OID() == t.at), nil
			}}
		return &expr.Func{Def: def, Args: []expr.Expr{tidCol, t.part}, T: value.BoolType}, nil
	}
	def := &expr.FuncDef{Name: "current of", Volatile: true, Params: []value.Kind{value.Tid}, Result: value.BoolType,
		Print: func([]expr.Expr) string { return "CURRENT OF " + name },
		Eval: func(a []value.Value) (value.Value, error) {
			v, err := tid()
			if err != nil {
				return value.Null, err
			}
			return value.NewBool(value.Equal(v, a[0])), nil
		}}
	return &expr.Func{Def: def, Args: []expr.Expr{tidCol}, T: value.BoolType}, nil
}

// Locked reports whether st, a cursor's query, locks its rows (FOR UPDATE,
// FOR SHARE, …).
func Locked(st *Stmt) bool {
	sel := st.Node.GetSelectStmt()
	return sel != nil && len(sel.LockingClause) > 0
}

// CursorScan returns, for the query st of a cursor, the query that also
// reads the tableoid and ctid of each row, as its last two columns, when
// st is a simply updatable scan of one table (as PostgreSQL has it: one
// relation in FROM, no grouping, aggregate, DISTINCT, window function,
// set-returning call or set operation, and no ORDER BY or LIMIT unless FOR
// UPDATE or FOR SHARE locks the rows); ok is false otherwise. The two
// columns fail to bind when the relation is no table: the caller then
// runs st.
func CursorScan(st *Stmt) (*Stmt, bool) {
	sel := st.Node.GetSelectStmt()
	if sel == nil || sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.FromClause) != 1 || sel.FromClause[0].GetRangeVar() == nil ||
		len(sel.GroupClause) > 0 || sel.HavingClause != nil || len(sel.DistinctClause) > 0 || len(sel.WindowClause) > 0 || sel.WithClause != nil ||
		len(sel.ValuesLists) > 0 || sel.IntoClause != nil {
		return nil, false
	}
	if len(sel.LockingClause) == 0 && (len(sel.SortClause) > 0 || sel.LimitCount != nil || sel.LimitOffset != nil) {
		return nil, false
	}
	for _, t := range sel.TargetList {
		if rt := t.GetResTarget(); rt == nil || rt.Val == nil || hasAggregate(rt.Val) || hasWindowCall(rt.Val) || hasSRF(rt.Val) {
			return nil, false
		}
	}
	rv := sel.FromClause[0].GetRangeVar()
	qual := rv.Relname
	if rv.Alias != nil {
		qual = rv.Alias.Aliasname
	}
	node := proto.Clone(st.Node).(*pg_query.Node)
	ns := node.GetSelectStmt()
	for _, col := range []string{"tableoid", "ctid"} {
		ns.TargetList = append(ns.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
			Name: "?" + col + "?", Val: columnRef(-1, qual, col), Location: -1}}})
	}
	out := *st
	out.Node, out.SystemColumns = node, true
	return &out, true
}
