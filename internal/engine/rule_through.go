package engine

import (
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// execRuleThrough runs an UPDATE or a DELETE through an automatically
// updatable view over a table with rules (sql.RuleThrough): the rows the
// statement reaches through the view, found as the statement starts, and
// for an UPDATE their new values, become one statement on the table that
// names the rows by ctid, which the table's rules then rewrite.
func (s *Session) execRuleThrough(rt *sql.RuleThrough) (Result, error) {
	e := s.e
	var av *sql.AutoView
	var rows plan.Node
	var set []int
	switch d := rt.DML.(type) {
	case *sql.Update:
		av, rows, set = d.Auto, d.Rows, d.SetCols
	case *sql.Delete:
		av, rows = d.Auto, d.Rows
	}
	t, ok := e.tables[av.Table]
	if !ok {
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", av.Table)
	}
	ps, err := e.autoPlanned(t, av, rows, len(e.tx.log))
	if err != nil {
		return Result{}, err
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
	var vals []string
	for _, p := range ps {
		items := []string{lit(plan.SystemValues(p.id)[0], "tid")}
		for _, i := range set {
			items = append(items, lit(p.rest[i], typeOf(av.Cols[i])))
		}
		vals = append(vals, "("+strings.Join(items, ", ")+")")
	}
	key := e.keyText(av.Table)
	var text string
	switch {
	case len(vals) == 0 && rt.Event == sql.RuleUpdate:
		c := expr.QuoteIdent(t.cols[av.Cols[set[0]]].Name)
		text = "UPDATE " + key + " SET " + c + " = " + c + " WHERE false"
	case len(vals) == 0:
		text = "DELETE FROM " + key + " WHERE false"
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
	return s.execRules(rd)
}
