package engine

import (
	"fmt"
	"time"

	"github.com/deltaview/deltaview/internal/exec"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// EXPLAIN ANALYZE CREATE TABLE … AS and EXPLAIN ANALYZE SELECT … INTO
// create and fill the table, as PostgreSQL does, and print the plan of
// the query that filled it with the figures of its run: WITH NO DATA
// runs no node (each is "never executed"), and IF NOT EXISTS of a table
// there is prints no plan, only the NOTICE.

// explainAnalyzeTableAs runs c, profiling its query's run.
func (s *Session) explainAnalyzeTableAs(x *sql.ExplainAnalyze, c *sql.CreateTableAs, rec *recorder, start time.Time) (Result, error) {
	e := s.e
	prof := &exec.Profile{Timing: x.Timing, Nodes: map[plan.Node]*exec.NodeProfile{}}
	e.tableAsProfile = prof
	res, err := s.execBound(c, rec)
	e.tableAsProfile = nil
	if err != nil {
		return Result{}, err
	}
	if c.Table.IfNotExists && len(res.Notices) > 0 && res.Tag == "CREATE TABLE AS" && !c.NoData {
		out := dummyDoc(x.Format, "CREATE TABLE AS", "")
		out.Notices = res.Notices
		return out, nil
	}
	if x.Format != "text" {
		out := analyzedDoc(x.Format, profileNode(c.Query, prof, x.Timing, false), x.Summary, ms(x.Planning), ms(time.Since(start)))
		out.Notices = res.Notices
		return out, nil
	}
	var lines []string
	profileLines(&lines, c.Query, prof, x.Timing, 0)
	if x.Summary {
		lines = append(lines, fmt.Sprintf("Planning Time: %.3f ms", ms(x.Planning)), fmt.Sprintf("Execution Time: %.3f ms", ms(time.Since(start))))
	}
	out := queryPlan(lines)
	out.Notices = res.Notices
	return out, nil
}

// ctasRows are the rows of CREATE TABLE … AS's query, its run profiled
// for EXPLAIN ANALYZE when it asks.
func (e *Engine) ctasRows(q plan.Node) ([]value.Row, error) {
	var src exec.Source = e.queryBudget(e)
	if e.tableAsProfile != nil {
		src = exec.NewProfile(src, e.tableAsProfile)
	}
	return exec.Run(q, src)
}
