package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/explainfmt"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// EXPLAIN ANALYZE runs its statement, as PostgreSQL does, and reports its
// run. A SELECT is evaluated from scratch, as an ad-hoc query is, and
// each node of its plan says the rows it returned, the times it ran and
// (unless TIMING off) the time it took with its inputs. A data-changing
// statement changes the data, and says the rows it changed and the
// materialized views its change steps: outside a transaction block the
// statement commits, and its time includes their maintenance; inside
// one, they are maintained at COMMIT. The summary (unless SUMMARY off)
// gives the planning and execution times. There are no buffers to count
// (BUFFERS prints nothing) and no costs.

// explainAnalyzeAccess is what EXPLAIN ANALYZE needs of the engine's
// locks: its statement's.
func (s *Session) explainAnalyzeAccess(x *sql.ExplainAnalyze) access {
	if x.DML != nil {
		return s.accessOf(x.DML)
	}
	return accessRead
}

func (s *Session) explainAnalyze(x *sql.ExplainAnalyze, rec *recorder) (Result, error) {
	e := s.e
	var lines []string
	start := time.Now()
	if c, ok := x.DML.(*sql.CreateTableAs); ok {
		return s.explainAnalyzeTableAs(x, c, rec, start)
	}
	if c, ok := x.DML.(*sql.CreateView); ok {
		return s.explainAnalyzeMatView(x, c, rec, start)
	}
	if w, ok := x.DML.(*sql.WithModify); ok {
		return s.explainAnalyzeWith(x, w, rec, start)
	}
	if x.DML != nil {
		res, err := s.execBound(x.DML, rec)
		if err != nil {
			return Result{}, err
		}
		took := time.Since(start)
		// The node's rows are those it returned, as PostgreSQL counts
		// them: RETURNING's, none without it.
		n := int64(len(res.Rows))
		verb := strings.ToUpper(res.Tag[:1]) + strings.ToLower(strings.Fields(res.Tag)[0][1:])
		if x.Format != "text" {
			node := &explainfmt.Node{Type: "ModifyTable", Props: []explainfmt.Prop{explainfmt.Str("Operation", verb), explainfmt.Str("Relation Name", x.Table)}}
			if x.Timing {
				node.Props = append(node.Props, explainfmt.Millis("Actual Total Time", ms(took)))
			}
			node.Props = append(node.Props, explainfmt.Int("Actual Rows", n), explainfmt.Int("Actual Loops", 1),
				explainfmt.Strs("Materialized Views", e.readersOf(x.Table)))
			out := analyzedDoc(x.Format, node, x.Summary, ms(x.Planning), ms(time.Since(start)))
			out.Notices = res.Notices
			return out, nil
		}
		lines = append(lines, fmt.Sprintf("%s on %s (actual%s rows=%d loops=1)", verb, x.Table, actualTime(x.Timing, took), n))
		for _, v := range e.readersOf(x.Table) {
			when := "maintained at the commit of this statement"
			if s.block {
				when = "maintained at COMMIT"
			}
			lines = append(lines, fmt.Sprintf("  Materialized view %s: %s", v, when))
		}
		lines = append(lines, res.Notices...)
	} else {
		bud := e.queryBudget(s.source())
		if !s.deadline.IsZero() {
			bud.Deadline, bud.Late = s.deadline, errStatementTimeout
		}
		bud.Interrupts = s
		prof := &exec.Profile{Timing: x.Timing}
		run := func() (Result, error) {
			_, err := exec.Run(x.Query, exec.NewProfile(bud, prof))
			return Result{}, err
		}
		if e.callsRoutine(rec) {
			// Its PL/pgSQL may change rows and the catalog, as the
			// query's would (routine_catalog.go).
			query := run
			run = func() (Result, error) { return e.autocommit(query) }
		}
		if _, err := run(); err != nil {
			return Result{}, err
		}
		if x.Format != "text" {
			return analyzedDoc(x.Format, profileNode(x.Query, prof, x.Timing, false), x.Summary, ms(x.Planning), ms(time.Since(start))), nil
		}
		profileLines(&lines, x.Query, prof, x.Timing, 0)
	}
	if x.Summary {
		lines = append(lines, fmt.Sprintf("Planning Time: %.3f ms", ms(x.Planning)), fmt.Sprintf("Execution Time: %.3f ms", ms(time.Since(start))))
	}
	return queryPlan(lines), nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func actualTime(timing bool, d time.Duration) string {
	if !timing {
		return ""
	}
	return fmt.Sprintf(" time=%.3f", ms(d))
}

// profileLines prints n and its inputs with their figures, PostgreSQL's
// way: each input under its parent, after "->".
func profileLines(lines *[]string, n plan.Node, prof *exec.Profile, timing bool, depth int) {
	profileLinesUnder(lines, n, prof, timing, depth, false)
}

// profileLinesUnder is profileLines for a node whose parent ran (ran) or
// not: a scan that did not run under a node that did had its rows found
// through an index, by the node above it.
func profileLinesUnder(lines *[]string, n plan.Node, prof *exec.Profile, timing bool, depth int, ran bool) {
	label := planLabel(n)
	figures := " (never executed)"
	np := prof.Nodes[n]
	if np != nil {
		figures = fmt.Sprintf(" (actual%s rows=%d loops=%d)", actualTime(timing, np.Time), np.Rows, np.Loops)
	} else if _, scan := n.(*plan.Scan); scan && ran {
		figures = " (rows found through an index by the node above)"
	}
	prefix := ""
	if depth > 0 {
		prefix = strings.Repeat(" ", 6*depth-4) + "->  "
	}
	*lines = append(*lines, prefix+label+figures)
	for _, c := range n.Children() {
		profileLinesUnder(lines, c, prof, timing, depth+1, np != nil)
	}
}

// queryPlan is EXPLAIN's result: one text column, QUERY PLAN.
func queryPlan(lines []string) Result {
	res := Result{Columns: []plan.Column{{Name: "QUERY PLAN", Type: value.TextType}}, HasRows: true, Tag: "EXPLAIN"}
	for _, l := range lines {
		res.Rows = append(res.Rows, value.Row{value.NewText(value.Text, l)})
	}
	return res
}

// readersOf are the materialized views whose step a change to table
// sets off, directly or through other views, in creation order.
func (e *Engine) readersOf(table string) []string {
	reached := map[string]bool{table: true}
	var out []string
	for _, v := range e.order {
		name := v.meta().name
		for _, d := range e.deps[name] {
			if reached[d] {
				reached[name] = true
				out = append(out, name)
				break
			}
		}
	}
	return out
}
