package engine

import (
	"fmt"
	"slices"
	"time"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/explainfmt"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// EXPLAIN of a statement with data-modifying WITH items explains its main
// statement, and under it each item as PostgreSQL shows it, an InitPlan
// named "CTE name". With ANALYZE the statement runs as it runs alone
// (dml_with.go); the main statement and each item say the rows they
// returned (a data change's RETURNING rows, none without it), and the
// materialized views the changes step follow.

// withFigures are what the parts of a statement with data-modifying
// WITH items did, for EXPLAIN ANALYZE.
type withFigures struct {
	prof  *exec.Profile // the main SELECT's nodes
	items [][]value.Row // each item's RETURNING rows
}

// changeTarget names a data change's operation and table.
func changeTarget(b sql.Bound) (verb, table string) {
	switch d := b.(type) {
	case *sql.Insert:
		return "Insert", d.Table
	case *sql.Update:
		return "Update", d.Table
	case *sql.Delete:
		return "Delete", d.Table
	case *sql.Merge:
		return "Merge", d.Table
	}
	return "", ""
}

// withTables are the tables w's parts change, each once, main's first.
func withTables(w *sql.WithModify) []string {
	var out []string
	for _, b := range append([]sql.Bound{w.Main}, itemStmts(w)...) {
		if _, t := changeTarget(b); t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func itemStmts(w *sql.WithModify) []sql.Bound {
	out := make([]sql.Bound, len(w.Items))
	for i, it := range w.Items {
		out[i] = it.Stmt
	}
	return out
}

// cteNode is item i of w as a structured plan's InitPlan.
func cteNode(w *sql.WithModify, i int, node *explainfmt.Node) *explainfmt.Node {
	node.Props = append([]explainfmt.Prop{explainfmt.Str("Parent Relationship", "InitPlan"),
		explainfmt.Str("Subplan Name", "CTE "+w.Items[i].Name)}, node.Props...)
	return node
}

// explainWith is EXPLAIN without ANALYZE: each part's plan as EXPLAIN of
// it alone prints it, the items under the main statement's.
func (e *Engine) explainWith(w *sql.WithModify, format string) (Result, error) {
	var lines [][]string
	var nodes []*explainfmt.Node
	for _, b := range append([]sql.Bound{w.Main}, itemStmts(w)...) {
		var l []string
		var n *explainfmt.Node
		switch d := b.(type) {
		case *sql.Select:
			planLines(&l, d.Plan, 0)
			n = profileNode(d.Plan, nil, false, false)
		case *sql.Update, *sql.Delete:
			r, err := e.explainDML(d)
			if err != nil {
				return Result{}, err
			}
			l = resultLines(r)
			n = linesNode(l)
		case *sql.Insert, *sql.Merge:
			l, n = e.changePlan(d)
		default:
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "EXPLAIN of this statement with data-modifying WITH items is not supported")
		}
		lines, nodes = append(lines, l), append(nodes, n)
	}
	if format != "text" {
		var init []*explainfmt.Node
		for i, n := range nodes[1:] {
			init = append(init, cteNode(w, i, n))
		}
		nodes[0].Plans = append(init, nodes[0].Plans...)
		return structured(format, nodes[0], nil), nil
	}
	return queryPlan(withLines(w, lines[0], lines[1:])), nil
}

// withLines puts each item's lines under the first line of the main
// statement's, before its inputs, as PostgreSQL prints an InitPlan:
// "CTE name", then the item's plan.
func withLines(w *sql.WithModify, main []string, items [][]string) []string {
	out := slices.Clone(main[:1])
	for i, l := range items {
		out = append(out, "  CTE "+w.Items[i].Name)
		for j, line := range l {
			if j == 0 {
				out = append(out, "    ->  "+line)
			} else {
				out = append(out, "        "+line)
			}
		}
	}
	return append(out, main[1:]...)
}

// resultLines are the text of a text plan's rows.
func resultLines(r Result) []string {
	out := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		out[i] = row[0].String()
	}
	return out
}

// explainAnalyzeWith runs w and explains its run: the main statement's
// figures, each item's rows, and the materialized views the changes
// step.
func (s *Session) explainAnalyzeWith(x *sql.ExplainAnalyze, w *sql.WithModify, rec *recorder, start time.Time) (Result, error) {
	fig := &withFigures{prof: &exec.Profile{Timing: x.Timing}}
	s.withFigures = fig
	res, err := s.execBound(w, rec)
	s.withFigures = nil
	if err != nil {
		return Result{}, err
	}
	took := time.Since(start)
	changeNode := func(b sql.Bound, rows int) *explainfmt.Node {
		verb, table := changeTarget(b)
		n := &explainfmt.Node{Type: "ModifyTable", Props: []explainfmt.Prop{explainfmt.Str("Operation", verb), explainfmt.Str("Relation Name", table)}}
		if x.Timing {
			n.Props = append(n.Props, explainfmt.Millis("Actual Total Time", ms(took)))
		}
		n.Props = append(n.Props, explainfmt.Int("Actual Rows", int64(rows)), explainfmt.Int("Actual Loops", 1))
		return n
	}
	changeLine := func(b sql.Bound, rows int) string {
		verb, table := changeTarget(b)
		return fmt.Sprintf("%s on %s (actual%s rows=%d loops=1)", verb, table, actualTime(x.Timing, took), rows)
	}
	var views []string
	for _, t := range withTables(w) {
		for _, v := range s.e.readersOf(t) {
			if !slices.Contains(views, v) {
				views = append(views, v)
			}
		}
	}
	sel, isSelect := w.Main.(*sql.Select)
	if x.Format != "text" {
		var root *explainfmt.Node
		if isSelect {
			root = profileNode(sel.Plan, fig.prof, x.Timing, false)
		} else {
			root = changeNode(w.Main, len(res.Rows))
		}
		var init []*explainfmt.Node
		for i, it := range w.Items {
			init = append(init, cteNode(w, i, changeNode(it.Stmt, len(fig.items[i]))))
		}
		root.Plans = append(init, root.Plans...)
		root.Props = append(root.Props, explainfmt.Strs("Materialized Views", views))
		out := analyzedDoc(x.Format, root, x.Summary, ms(x.Planning), ms(time.Since(start)))
		out.Notices = res.Notices
		return out, nil
	}
	var main []string
	if isSelect {
		profileLines(&main, sel.Plan, fig.prof, x.Timing, 0)
	} else {
		main = []string{changeLine(w.Main, len(res.Rows))}
	}
	items := make([][]string, len(w.Items))
	for i, it := range w.Items {
		items[i] = []string{changeLine(it.Stmt, len(fig.items[i]))}
	}
	lines := withLines(w, main, items)
	for _, v := range views {
		when := "maintained at the commit of this statement"
		if s.block {
			when = "maintained at COMMIT"
		}
		lines = append(lines, fmt.Sprintf("  Materialized view %s: %s", v, when))
	}
	lines = append(lines, res.Notices...)
	if x.Summary {
		lines = append(lines, fmt.Sprintf("Planning Time: %.3f ms", ms(x.Planning)), fmt.Sprintf("Execution Time: %.3f ms", ms(time.Since(start))))
	}
	return queryPlan(lines), nil
}
