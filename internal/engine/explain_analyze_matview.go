package engine

import (
	"fmt"
	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow"
	"github.com/deltaview/deltaview/internal/explainfmt"
	"slices"
	"strings"
	"time"

	"github.com/deltaview/deltaview/internal/sql"
)

// EXPLAIN ANALYZE CREATE MATERIALIZED VIEW creates the view and builds
// it, as PostgreSQL does, and prints its circuit with the live figures of
// each operator after the cold start (what EXPLAIN MATERIALIZED VIEW
// prints: rows and bytes held, steps run): deltaview's plan, not
// PostgreSQL's. WITH NO DATA builds nothing and prints the circuit without
// figures, and IF NOT EXISTS of a
// relation there is prints no plan, only the NOTICE, as for CREATE
// TABLE … AS (explain_analyze_ctas.go).

// explainAnalyzeMatView runs c and explains the view it made.
func (s *Session) explainAnalyzeMatView(x *sql.ExplainAnalyze, c *sql.CreateView, rec *recorder, start time.Time) (Result, error) {
	e := s.e
	res, err := s.execBound(c, rec)
	if err != nil {
		return Result{}, err
	}
	if c.IfNotExists && slices.ContainsFunc(res.Notices, func(n string) bool { return strings.HasSuffix(n, "already exists, skipping") }) {
		out := dummyDoc(x.Format, "CREATE MATERIALIZED VIEW", "")
		out.Notices = res.Notices
		return out, nil
	}
	if x.Format != "text" {
		out, err := e.analyzedViewDoc(x, c, start)
		out.Notices = res.Notices
		return out, err
	}
	var plan Result
	if v, ok := e.views[c.Name]; ok {
		plan, err = v.explain(e, "text")
	} else {
		// WITH NO DATA: the circuit it will have, without figures.
		plan, err = e.explain(&sql.Explain{View: c, Format: "text"})
	}
	if err != nil {
		return Result{}, err
	}
	var lines []string
	for _, r := range plan.Rows {
		lines = append(lines, r[0].String())
	}
	if x.Summary {
		lines = append(lines, fmt.Sprintf("Planning Time: %.3f ms", ms(x.Planning)), fmt.Sprintf("Execution Time: %.3f ms", ms(time.Since(start))))
	}
	out := queryPlan(lines)
	out.Notices = res.Notices
	return out, nil
}

// analyzedViewDoc is EXPLAIN ANALYZE CREATE MATERIALIZED VIEW's document
// in a structured format: the circuit with each operator's figures (a
// view kept by partial propagation as the text format's lines).
func (e *Engine) analyzedViewDoc(x *sql.ExplainAnalyze, c *sql.CreateView, start time.Time) (Result, error) {
	var node *explainfmt.Node
	switch v := e.views[c.Name].(type) {
	case *zview:
		node = circuitNode(v.c.Circuit, dataflow.NodeID(v.c.Circuit.Len()-1), true)
	case nil:
		cc, err := compile.CompileIndexed(c.Plan, e.indexable)
		if err != nil {
			return Result{}, err
		}
		node = circuitNode(cc.Circuit, dataflow.NodeID(cc.Circuit.Len()-1), false)
	default:
		plan, err := v.explain(e, "text")
		if err != nil {
			return Result{}, err
		}
		var lines []string
		for _, r := range plan.Rows {
			lines = append(lines, r[0].String())
		}
		node = linesNode(lines)
	}
	return analyzedDoc(x.Format, node, x.Summary, ms(x.Planning), ms(time.Since(start))), nil
}
