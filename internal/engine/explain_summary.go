package engine

import (
	"time"

	"github.com/deltaview/deltaview/internal/explainfmt"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// explainPlan runs EXPLAIN without ANALYZE. With SUMMARY, PostgreSQL
// follows the plan with the time planning took: here, the time the plan
// took to be made (a view's circuit compiled, a query's plan printed).
func (s *Session) explainPlan(x *sql.Explain) (Result, error) {
	start := time.Now()
	if rd, ok := x.DML.(*sql.RuleDML); ok {
		return s.explainRules(rd, x.Format, x.Summary, ms(time.Since(start)))
	}
	res, err := s.e.explain(x)
	if err != nil || !x.Summary || x.Utility || x.Name != "" {
		return res, err
	}
	return withPlanningTime(res, x.Format, ms(time.Since(start))), nil
}

// withPlanningTime adds "Planning Time" to the end of res, an EXPLAIN's
// result in format: a last line in text, the query's last property in
// the structured formats.
func withPlanningTime(res Result, format string, planning float64) Result {
	p := explainfmt.Millis("Planning Time", planning)
	if format == "text" {
		res.Rows = append(res.Rows, value.Row{value.NewText(value.Text, "Planning Time: "+p.Value+" ms")})
		return res
	}
	if len(res.Rows) != 1 {
		return res
	}
	f, _ := explainfmt.ParseFormat(format)
	out := docResult(format, explainfmt.AppendToQuery(res.Rows[0][0].String(), f, p))
	out.Notices, out.NoticeLevels = res.Notices, res.NoticeLevels
	return out
}
