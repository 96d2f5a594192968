package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// execRuleThrough runs a statement through an automatically updatable
// view over a table with rules (sql.RuleThrough): the rows an INSERT
// gives, or those an UPDATE or a DELETE reaches through the view, found
// as the statement starts, and for an UPDATE their new values, become
// one statement on the table (naming an UPDATE's or a DELETE's rows by
// ctid), which the table's rules then rewrite. Its RETURNING rows, the
// table's, give the view's RETURNING list.
func (s *Session) execRuleThrough(rt *sql.RuleThrough) (Result, error) {
	e := s.e
	var av *sql.AutoView
	var rows plan.Node
	var set []int
	var ret []expr.Expr
	var retCols []plan.Column
	switch d := rt.DML.(type) {
	case *sql.Insert:
		av, ret, retCols = d.Auto, d.Returning, d.RetCols
	case *sql.Update:
		av, rows, set, ret, retCols = d.Auto, d.Rows, d.SetCols, d.Returning, d.RetCols
	case *sql.Delete:
		av, rows, ret, retCols = d.Auto, d.Rows, d.Returning, d.RetCols
	}
	t, ok := e.tables[av.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", av.Table)
	}
	var ps []planned
	if ins, ok := rt.DML.(*sql.Insert); ok {
		given, err := exec.Run(ins.Source, e.queryBudget(e.dmlSource()))
		if err != nil {
			return Result{}, err
		}
		for _, r := range given {
			ps = append(ps, planned{rest: r})
		}
	} else {
		var err error
		if ps, err = e.autoPlanned(t, av, rows, len(e.tx.log)); err != nil {
			return Result{}, err
		}
	}
	typeOf := func(j int) string {
		c := t.def.Cols[j]
		if c.Domain != nil {
			return expr.QuoteIdent(c.Domain.Name())
		}
		return c.Type.String()
	}
	lit := func(v value.Value, typ string) string {
		if v.IsNull() {
			return "NULL::" + typ
		}
		return "'" + strings.ReplaceAll(v.String(), "'", "''") + "'::" + typ
	}
	names := []string{`"*ct*"`}
	for _, i := range set {
		names = append(names, expr.QuoteIdent(t.cols[av.Cols[i]].Name))
	}
	var vals []string // an UPDATE's or a DELETE's rows by ctid
	for _, p := range ps {
		if rt.Event == sql.RuleInsert {
			break
		}
		items := []string{lit(plan.SystemValues(p.id)[0], "tid")}
		for _, i := range set {
			items = append(items, lit(p.rest[i], typeOf(av.Cols[i])))
		}
		vals = append(vals, "("+strings.Join(items, ", ")+")")
	}
	key := e.keyText(av.Table)
	var text string
	switch {
	case rt.Event == sql.RuleInsert:
		text = e.ruleThroughInsert(t, rt.Cols, ps, key, typeOf, lit)
	case len(vals) == 0 && rt.Event == sql.RuleUpdate:
		c := expr.QuoteIdent(t.cols[av.Cols[set[0]]].Name)
		text = "UPDATE " + key + ` AS "*v*" SET ` + c + ` = "*v*".` + c + " WHERE false"
	case len(vals) == 0:
		text = "DELETE FROM " + key + ` AS "*v*" WHERE false`
	case rt.Event == sql.RuleUpdate:
		var assigns []string
		for _, n := range names[1:] {
			assigns = append(assigns, n+` = "*n*".`+n)
		}
		text = "UPDATE " + key + ` AS "*v*" SET ` + strings.Join(assigns, ", ") + " FROM (VALUES " + strings.Join(vals, ", ") +
			`) AS "*n*" (` + strings.Join(names, ", ") + `) WHERE "*v*".ctid = "*n*"."*ct*"`
	default:
		text = "DELETE FROM " + key + ` AS "*v*" USING (VALUES ` + strings.Join(vals, ", ") + `) AS "*n*" ("*ct*") WHERE "*v*".ctid = "*n*"."*ct*"`
	}
	if len(ret) > 0 {
		if rt.Event == sql.RuleInsert {
			text += " RETURNING *"
		} else {
			text += ` RETURNING "*v*".*`
		}
	}
	st, err := sql.Parse(text)
	if err != nil {
		return Result{}, err
	}
	b, err := s.bindRuleStmt(st.Node, nil, nil)
	if err != nil {
		return Result{}, err
	}
	rd, ok := b.(*sql.RuleDML)
	if !ok {
		return Result{}, pgerr.New(pgerr.Internal, "the statement on table %q has no rules to go through", av.Table)
	}
	res, err := s.execRules(rd)
	if err != nil || len(ret) == 0 {
		return res, err
	}
	// The table's rows give the view's RETURNING: an INSERT's list reads
	// the table's row, an UPDATE's and a DELETE's the view's.
	out := Result{Tag: res.Tag, Columns: retCols, HasRows: true, Notices: res.Notices, NoticeLevels: res.NoticeLevels}
	n := len(t.def.Cols)
	for _, r := range res.Rows {
		if len(r) != n {
			return Result{}, pgerr.New(pgerr.Internal, "the RETURNING rows of table %q have %d columns, not %d", av.Table, len(r), n)
		}
		if rt.Event != sql.RuleInsert {
			if r, err = av.ViewRow(r); err != nil {
				return Result{}, err
			}
		}
		if err := returning(&out, ret, r); err != nil {
			return Result{}, err
		}
	}
	return out, nil
}

// ruleThroughInsert is the INSERT on table t of the values an INSERT
// through a view gives its columns cols (each planned row's rest), as
// literals; the table's defaults fill the other columns.
func (e *Engine) ruleThroughInsert(t *table, cols []int, ps []planned, key string, typeOf func(int) string, lit func(value.Value, string) string) string {
	if len(cols) == 0 {
		// No column given: each row is the table's defaults.
		if len(ps) == 0 {
			return "INSERT INTO " + key + " SELECT * FROM " + key + " WHERE false"
		}
		rows := make([]string, len(ps))
		for i := range rows {
			rows[i] = "(" + strings.Repeat("DEFAULT, ", len(t.def.Cols)-1) + "DEFAULT)"
		}
		return "INSERT INTO " + key + " VALUES " + strings.Join(rows, ", ")
	}
	names := make([]string, len(cols))
	for i, j := range cols {
		names[i] = expr.QuoteIdent(t.cols[j].Name)
	}
	var vals []string
	for _, p := range ps {
		items := make([]string, len(cols))
		for i, j := range cols {
			items[i] = lit(p.rest[i], typeOf(j))
		}
		vals = append(vals, "("+strings.Join(items, ", ")+")")
	}
	if len(vals) == 0 {
		items := make([]string, len(cols))
		for i, j := range cols {
			items[i] = lit(value.Null, typeOf(j))
		}
		return "INSERT INTO " + key + " (" + strings.Join(names, ", ") + ") SELECT " + strings.Join(items, ", ") + " WHERE false"
	}
	return "INSERT INTO " + key + " (" + strings.Join(names, ", ") + ") VALUES " + strings.Join(vals, ", ")
}
