package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// EXPLAIN of an INSERT, UPDATE or DELETE on a relation with rules says
// what each statement of its rewrite does, in the order they run, each
// apart from the next by an empty line, as PostgreSQL's EXPLAIN of a
// rewritten query list; a rewrite that leaves no statement is
// PostgreSQL's "Query rewrites to nothing". Nothing runs.

// explainRules explains the statements of rd's rewrite.
func (s *Session) explainRules(rd *sql.RuleDML) (Result, error) {
	lines, err := s.explainRuleLines(rd, nil)
	if err != nil {
		return Result{}, err
	}
	if len(lines) == 0 {
		lines = []string{"Query rewrites to nothing"}
	}
	return textPlan(lines), nil
}

func (s *Session) explainRuleLines(rd *sql.RuleDML, stack *ruleFrame) ([]string, error) {
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
	var lines []string
	add := func(more []string) {
		if len(more) == 0 {
			return
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, more...)
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
			add(more)
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
	return lines, nil
}
