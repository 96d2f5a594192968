package engine

import (
	"github.com/deltaview/deltaview/internal/explainfmt"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// EXPLAIN of an INSERT, UPDATE or DELETE on a relation with rules says
// what each statement of its rewrite does, in the order they run, each
// apart from the next by an empty line, as PostgreSQL's EXPLAIN of a
// rewritten query list; a rewrite that leaves no statement is
// PostgreSQL's "Query rewrites to nothing". Nothing runs.

// explainRules explains the statements of rd's rewrite in format: in
// text, each statement's lines apart from the next's by an empty line;
// in a structured format, a query per statement. With summary, each is
// followed by its planning time (planning, in milliseconds), as
// PostgreSQL gives each statement's.
func (s *Session) explainRules(rd *sql.RuleDML, format string, summary bool, planning float64) (Result, error) {
	groups, err := s.explainRuleLines(rd, nil)
	if err != nil {
		return Result{}, err
	}
	planned := explainfmt.Millis("Planning Time", planning)
	if format != "text" {
		f, _ := explainfmt.ParseFormat(format)
		w := explainfmt.NewWriter(f)
		for _, g := range groups {
			var after []explainfmt.Prop
			if summary {
				after = []explainfmt.Prop{planned}
			}
			w.Query(linesNode(g), after)
		}
		return docResult(format, w.String()), nil
	}
	var lines []string
	for i, g := range groups {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, g...)
		if summary {
			lines = append(lines, "Planning Time: "+planned.Value+" ms")
		}
	}
	if len(groups) == 0 {
		lines = []string{"Query rewrites to nothing"}
	}
	return textPlan(lines), nil
}

// explainRuleLines returns the lines of each statement of rd's rewrite.
func (s *Session) explainRuleLines(rd *sql.RuleDML, stack *ruleFrame) ([][]string, error) {
	e := s.e
	if rd.Params {
		var ok bool
		var err error
		if rd, ok, err = withParamValues(rd); err != nil {
			return nil, err
		}
		if !ok {
			return nil, ruleRefuse("EXPLAIN of %s with parameters on relation %q, which has rules, is not supported", sql.RuleEventName(rd.Event), unqualified(rd.Table))
		}
	}
	if stack.has(rd.Table, rd.Event) {
		return nil, pgerr.New(pgerr.InvalidObjectDef, "infinite recursion detected in rules for relation %q", unqualified(rd.Table))
	}
	_, products, err := s.ruleRewriteOf(rd, e.rulesFor(rd.Table, rd.Event))
	if err != nil {
		return nil, err
	}
	frame := &ruleFrame{table: rd.Table, event: rd.Event, up: stack}
	var groups [][]string
	add := func(more []string) {
		if len(more) > 0 {
			groups = append(groups, more)
		}
	}
	for _, p := range products {
		var ruled *ruleFrame
		if p.src == srcOriginal {
			ruled = frame
		}
		b, err := s.bindRuleStmt(p.node, frame, ruled)
		if err != nil {
			return nil, err
		}
		switch b := b.(type) {
		case *sql.RuleDML:
			more, err := s.explainRuleLines(b, frame)
			if err != nil {
				return nil, err
			}
			groups = append(groups, more...)
		case *sql.Update, *sql.Delete:
			res, err := e.explainDML(b)
			if err != nil {
				return nil, err
			}
			var more []string
			for _, r := range res.Rows {
				more = append(more, r[0].String())
			}
			add(more)
		case *sql.Insert:
			what := "Insert on " + unqualified(b.Table)
			if b.View != nil {
				what += " (INSTEAD OF triggers, once per row)"
			}
			add([]string{what, "  -> the rows of its source, evaluated once"})
		case *sql.Select:
			add([]string{"Result", "  -> the query, evaluated once; its rows go to the client"})
		default:
			return nil, ruleRefuse("this statement in a rule's rewrite is not supported")
		}
	}
	return groups, nil
}
