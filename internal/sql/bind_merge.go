package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// Merge is MERGE INTO table USING source ON condition WHEN …, as in
// PostgreSQL 15: each row of Join is acted on by the first clause of its
// kind (matched, not matched) whose condition holds, if any.
type Merge struct {
	Table string
	// Join is a plan over a plan.Target of the table's rows, each followed
	// by its row id: the source LEFT JOIN the table ON the condition. Its
	// rows are the row id (NULL for a source row that matches no row),
	// then the row the clauses read: the table's row (NULLs when none
	// matches) followed by the source row.
	Join    plan.Node
	Clauses []MergeClause
	// Inherit are the table's inheritance descendants, when MERGE names
	// it without ONLY: the join reads their rows too, projected onto the
	// table's columns, and a matched row is changed in its own table;
	// INSERT writes the table.
	Inherit []InheritMember
}

// MergeAction is what a WHEN clause of MERGE does.
type MergeAction byte

// MERGE actions.
const (
	MergeNothing MergeAction = iota // DO NOTHING
	MergeUpdate
	MergeDelete
	MergeInsert
)

// MergeClause is a WHEN [NOT] MATCHED clause of MERGE. Its expressions
// read the table's row followed by the source row.
type MergeClause struct {
	Matched bool
	Action  MergeAction
	Cond    expr.Expr   // the AND condition; nil for none
	Set     []Assign    // UPDATE's
	SetCols []int       // the columns UPDATE's SET list assigns, with or without Rows
	Row     []expr.Expr // INSERT's row, of the table's width, defaults filled in
	// InsCols are the columns INSERT names, or without a list the first
	// ones its VALUES give (none for DEFAULT VALUES): those it needs
	// INSERT on.
	InsCols []int
	// Rows, when the clause's condition or action holds a subquery,
	// replaces Cond, Set and Row: a plan over a plan.Target of the row the
	// clause reads, whose one row is the new row (UPDATE, INSERT) or has
	// no columns (DELETE, DO NOTHING), and which has no row when the
	// condition rejects it.
	Rows plan.Node
}

func (*Merge) bound() {}

func (b *binder) bindMerge(m *pg_query.MergeStmt) (Bound, error) {
	b.writes = true // user SQL functions reading tables run per call (bind_volatile_call.go)
	if err := b.merge15Syntax(m); err != nil {
		return nil, err
	}
	if m.WithClause != nil {
		if err := b.pushWith(m.WithClause); err != nil {
			return nil, err
		}
		defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	}
	// PostgreSQL checks the clauses' order before it looks up any name.
	terminal := [2]bool{}
	for _, n := range m.MergeWhenClauses {
		w := n.GetMergeWhenClause()
		kind := mergeKind(w)
		if terminal[kind] {
			return nil, pgerr.New(pgerr.SyntaxError, "unreachable WHEN clause specified after unconditional WHEN clause")
		}
		terminal[kind] = w.Condition == nil
	}
	rel, alias, err := b.mergeTarget(m.Relation)
	if err != nil {
		return nil, err
	}
	src, ssc, err := b.bindFromItem(m.SourceRelation)
	if err != nil {
		return nil, err
	}
	for _, c := range ssc.cols {
		if c.qual == alias {
			return nil, pgerr.New(pgerr.DuplicateAlias, "name %q specified more than once", alias).
				WithDetail("The name is used both as MERGE target table and data source.")
		}
	}
	join, err := b.mergeJoin(rel, alias, src, ssc, m.JoinCondition)
	if err != nil {
		return nil, err
	}
	out := &Merge{Table: rel.Name, Join: join}
	if m.Relation.Inh {
		out.Inherit = rel.Inherit
	}
	for _, n := range m.MergeWhenClauses {
		c, err := b.mergeClause(rel, alias, ssc, n.GetMergeWhenClause())
		if err != nil {
			return nil, err
		}
		out.Clauses = append(out.Clauses, c)
	}
	return out, nil
}

// mergeKind is 0 for a WHEN MATCHED clause, 1 for WHEN NOT MATCHED.
func mergeKind(w *pg_query.MergeWhenClause) int {
	if w.MatchKind == pg_query.MergeMatchKind_MERGE_WHEN_MATCHED {
		return 0
	}
	return 1
}

// merge15Syntax is PostgreSQL 15's syntax error for what its grammar lacks
// and the parser's (PostgreSQL 17's) takes: WHEN NOT MATCHED BY SOURCE |
// TARGET, and RETURNING.
func (b *binder) merge15Syntax(m *pg_query.MergeStmt) error {
	res, err := pg_query.Scan(b.stmt.SQL)
	if err != nil {
		return nil
	}
	var returning *pg_query.ScanToken
	for i, t := range res.Tokens {
		word := strings.ToLower(b.stmt.SQL[t.Start:t.End])
		if word == "by" && i > 0 && strings.EqualFold(b.stmt.SQL[res.Tokens[i-1].Start:res.Tokens[i-1].End], "matched") {
			return b.stmt.errf(t.Start, pgerr.SyntaxError, "syntax error at or near \"%s\"", b.stmt.SQL[t.Start:t.End])
		}
		// The last RETURNING: an earlier one belongs to a WITH item.
		if word == "returning" && t.KeywordKind == pg_query.KeywordKind_RESERVED_KEYWORD {
			returning = t
		}
	}
	if returning != nil && len(m.ReturningList) > 0 {
		return b.stmt.errf(returning.Start, pgerr.SyntaxError, "syntax error at or near \"%s\"", b.stmt.SQL[returning.Start:returning.End])
	}
	return nil
}

// mergeTarget resolves the table MERGE writes: PostgreSQL 15 refuses
// views and sequences (it merges into tables only).
func (b *binder) mergeTarget(rv *pg_query.RangeVar) (*Relation, string, error) {
	what := ""
	if rel, ok := b.cat.Relation(rv.Relname); ok {
		what = map[RelKind]string{KindView: "views", KindMatView: "materialized views"}[rel.Kind]
	} else if _, ok := b.sequence(rv.Relname); ok {
		what = "sequences"
	}
	if what != "" && (rv.Schemaname == "" || rv.Schemaname == "public") {
		return nil, "", b.stmt.errf(rv.Location, pgerr.FeatureNotSupported, "cannot execute MERGE on relation %q", rv.Relname).
			WithDetail("This operation is not supported for %s.", what)
	}
	rel, alias, err := b.targetTable(rv, "merge into")
	if err == nil && rel.Security != nil {
		err = refuseRowSecurity(rel, "MERGE")
	}
	if err == nil && b.partTarget != nil {
		return nil, "", b.refuse(rv.Location, "MERGE into a partition is not supported").WithHint("MERGE into its partitioned table")
	}
	return rel, alias, err
}

// mergeJoin binds the source LEFT JOIN the table ON cond: the plan of
// Merge.Join.
func (b *binder) mergeJoin(rel *Relation, alias string, src plan.Node, ssc *scope, cond *pg_query.Node) (plan.Node, error) {
	tsc, tcols := targetScope(rel, alias, true)
	target := &plan.Target{Name: rel.Name, Cols: tcols}
	lsc, rsc := nullExtended(plan.LeftJoin, ssc, tsc)
	sc := joinScope(lsc, rsc)
	sw := len(ssc.cols)
	join := &plan.Join{Kind: plan.LeftJoin, Left: src, Right: target, Cols: append(append([]plan.Column{}, src.Columns()...), tcols...)}
	var p plan.Node = join
	plain, withSub := splitSubConjuncts(cond)
	if plain != nil {
		pred, err := b.bindExpr(sc, plain)
		if err != nil {
			return nil, err
		}
		if join.Residual, err = b.toBool(pred, "JOIN/ON", nodeLoc(plain, -1)); err != nil {
			return nil, err
		}
		join = plan.ExtractJoinKeys.Apply(join).(*plan.Join)
		p = join
	}
	if len(withSub) > 0 {
		var err error
		if p, err = b.joinOnSubqueries(join, sc, sw, withSub); err != nil {
			return nil, err
		}
	}
	// The row id, the table's row, the source row.
	n := len(rel.Cols)
	exprs := []expr.Expr{&expr.Col{Idx: sw + n, T: value.Int8Type, Name: "?id?"}}
	cols := []plan.Column{tcols[n]}
	for i, c := range rel.Cols {
		exprs = append(exprs, &expr.Col{Idx: sw + i, T: c.Type, Name: c.Name})
		cols = append(cols, c)
	}
	for i, c := range src.Columns() {
		exprs = append(exprs, &expr.Col{Idx: i, T: c.Type, Name: c.Name})
		cols = append(cols, c)
	}
	return &plan.Project{Input: p, Exprs: exprs, Cols: cols}, nil
}

// mergeScope is the scope of a WHEN clause: the table's row, hidden from
// a NOT MATCHED clause as in PostgreSQL, followed by the source row.
func mergeScope(rel *Relation, alias string, ssc *scope, matched bool) *scope {
	sc, _ := targetScope(rel, alias, false)
	for i := range sc.cols {
		sc.cols[i].hidden = !matched
	}
	return joinScope(sc, ssc)
}

func (b *binder) mergeClause(rel *Relation, alias string, ssc *scope, w *pg_query.MergeWhenClause) (MergeClause, error) {
	out := MergeClause{Matched: mergeKind(w) == 0}
	sc := mergeScope(rel, alias, ssc, out.Matched)
	switch w.CommandType {
	case pg_query.CmdType_CMD_UPDATE:
		out.Action, out.SetCols = MergeUpdate, setTargetCols(rel, w.TargetList)
	case pg_query.CmdType_CMD_DELETE:
		out.Action = MergeDelete
	case pg_query.CmdType_CMD_INSERT:
		out.Action, out.InsCols = MergeInsert, setTargetCols(rel, w.TargetList)
		for i := 0; len(w.TargetList) == 0 && i < len(w.Values) && i < len(rel.Cols); i++ {
			out.InsCols = append(out.InsCols, i)
		}
	}
	if anySubLink(w.Condition) || anySubLink(w.TargetList...) || multiAssignSub(w.TargetList) || anySubLink(w.Values...) {
		var err error
		out.Rows, err = b.mergeClauseRows(rel, sc, w, out.Action)
		return out, err
	}
	if w.Condition != nil {
		c, err := b.bindExpr(sc, w.Condition)
		if err != nil {
			return out, err
		}
		if out.Cond, err = b.toBool(c, "WHEN", nodeLoc(w.Condition, -1)); err != nil {
			return out, err
		}
	}
	var err error
	switch out.Action {
	case MergeUpdate:
		out.Set, err = b.bindSet(sc, rel, w.TargetList)
	case MergeInsert:
		out.Row, err = b.mergeInsertRow(rel, sc, w)
	}
	return out, err
}

// mergeInsertRow binds INSERT [(cols)] VALUES (…) | DEFAULT VALUES of a
// WHEN NOT MATCHED clause over sc: the table's row.
func (b *binder) mergeInsertRow(rel *Relation, sc *scope, w *pg_query.MergeWhenClause) ([]expr.Expr, error) {
	in, err := b.insertInto(rel, w.TargetList)
	if err != nil {
		return nil, err
	}
	if len(w.Values) == 0 && len(w.TargetList) == 0 { // DEFAULT VALUES
		return in.fill(b, nil), nil
	}
	return b.valuesRow(in, sc, w.Values, w.Override)
}

// mergeClauseRows binds a WHEN clause whose condition or action holds a
// subquery: the plan of MergeClause.Rows, bound as a query's WHERE and
// select list are, so that its subqueries are decorrelated as a query's.
func (b *binder) mergeClauseRows(rel *Relation, sc *scope, w *pg_query.MergeWhenClause, action MergeAction) (plan.Node, error) {
	var cols []plan.Column
	for _, c := range sc.cols {
		cols = append(cols, plan.Column{Name: c.name, Type: c.typ})
	}
	var input plan.Node = &plan.Target{Name: rel.Name, Cols: cols}
	sc.allowScalar = true
	if w.Condition != nil {
		var err error
		if input, err = b.bindWhere(sc, input, w.Condition); err != nil {
			return nil, err
		}
	}
	var row []expr.Expr
	switch action {
	case MergeUpdate:
		set, err := b.expandMultiAssign(w.TargetList)
		if err != nil {
			return nil, err
		}
		assigns, err := b.bindSet(sc, rel, set)
		if err != nil {
			return nil, err
		}
		row = make([]expr.Expr, len(rel.Cols))
		for i, c := range rel.Cols {
			row[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
		}
		for _, a := range assigns {
			row[a.Col] = a.Expr
		}
	case MergeInsert:
		var err error
		if row, err = b.mergeInsertRow(rel, sc, w); err != nil {
			return nil, err
		}
	}
	var rcols []plan.Column
	if row != nil {
		rcols = rel.Cols
	}
	sc.allowScalar = false
	return &plan.Project{Input: applyPending(sc, input), Exprs: row, Cols: rcols}, nil
}
