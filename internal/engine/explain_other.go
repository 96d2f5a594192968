package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/explainfmt"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
)

// EXPLAIN (without ANALYZE) of the statements whose plan is a query run
// once, and of the data changes beyond UPDATE and DELETE. Nothing runs
// and nothing is created.

// explainQuery prints an ad-hoc query's plan (DECLARE's; CREATE TABLE …
// AS's), deltaview's nodes under "->".
func explainQuery(q plan.Node, format string) Result {
	if format != "text" {
		return structured(format, profileNode(q, nil, false, false), nil)
	}
	var lines []string
	planLines(&lines, q, 0)
	return queryPlan(lines)
}

// explainTableAs is EXPLAIN CREATE TABLE … AS and SELECT … INTO: the
// query's plan; a table of the name is 42P07, or with IF NOT EXISTS its
// NOTICE and no plan, as in PostgreSQL.
func (e *Engine) explainTableAs(c *sql.CreateTableAs, format string) (Result, error) {
	ct := c.Table
	if _, ok := e.Relation(ct.Name); ok || e.indexes[ct.Name] != nil {
		if !ct.IfNotExists {
			return Result{}, pgerr.New(pgerr.DuplicateTable, "relation %q already exists", e.bareName(ct.Name))
		}
		res := dummyDoc(format, "CREATE TABLE AS", "")
		res.Notices = []string{fmt.Sprintf("relation %q already exists, skipping", e.bareName(ct.Name))}
		return res, nil
	}
	return explainQuery(c.Query, format), nil
}

// explainInsert says where an INSERT's rows come from and what it does
// on a conflict; explainMerge what MERGE joins. Each then names the
// materialized views its change steps.
func (e *Engine) explainInsert(ins *sql.Insert) []string {
	lines := []string{"Insert on " + ins.Table}
	if oc := ins.OnConflict; oc != nil {
		what := "UPDATE"
		if oc.DoNothing {
			what = "NOTHING"
		}
		lines = append(lines, "  Conflict Resolution: "+what)
	}
	lines = append(lines, e.viewLines(ins.Table)...)
	var src []string
	planLines(&src, ins.Source, 1)
	return append(lines, src...)
}

// explainChange is EXPLAIN INSERT and EXPLAIN MERGE in format.
func (e *Engine) explainChange(b sql.Bound, format string) Result {
	lines, node := e.changePlan(b)
	if format == "text" {
		return queryPlan(lines)
	}
	return structured(format, node, nil)
}

// changePlan is an INSERT's or MERGE's plan, as text lines and as a node.
func (e *Engine) changePlan(b sql.Bound) ([]string, *explainfmt.Node) {
	var lines []string
	var src plan.Node
	node := &explainfmt.Node{Type: "ModifyTable"}
	switch d := b.(type) {
	case *sql.Insert:
		lines, src = e.explainInsert(d), d.Source
		node.Props = append(node.Props, explainfmt.Str("Operation", "Insert"), explainfmt.Str("Relation Name", d.Table))
		if oc := d.OnConflict; oc != nil {
			node.Props = append(node.Props, explainfmt.Str("Conflict Resolution", map[bool]string{true: "NOTHING", false: "UPDATE"}[oc.DoNothing]))
		}
		node.Props = append(node.Props, explainfmt.Strs("Materialized Views", e.readersOf(d.Table)))
	case *sql.Merge:
		lines, src = e.explainMerge(d), d.Join
		node.Props = append(node.Props, explainfmt.Str("Operation", "Merge"), explainfmt.Str("Relation Name", d.Table),
			explainfmt.Strs("Materialized Views", e.readersOf(d.Table)))
	}
	node.Plans = []*explainfmt.Node{profileNode(src, nil, false, false)}
	return lines, node
}

func (e *Engine) explainMerge(m *sql.Merge) []string {
	lines := append([]string{"Merge on " + m.Table}, e.viewLines(m.Table)...)
	var src []string
	planLines(&src, m.Join, 1)
	return append(lines, src...)
}

// viewLines name the materialized views a change of table steps.
func (e *Engine) viewLines(table string) []string {
	var out []string
	for _, v := range e.readersOf(table) {
		out = append(out, "  Materialized view "+v+": maintained at the commit of the change")
	}
	return out
}

// explainUtility is EXPLAIN REFRESH MATERIALIZED VIEW, which PostgreSQL
// does not plan: nothing is checked, nothing runs.
func explainUtility(format string) Result {
	return dummyDoc(format, "Utility Statement", "Utility statements have no plan structure")
}
