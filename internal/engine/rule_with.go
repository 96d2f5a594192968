package engine

import (
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/sql"
)

// RuleShapes implements sql.RuleShaper: the rules of table for event
// that fire now, in name order.
func (r *recorder) RuleShapes(table string, event byte) []sql.RuleShape {
	e := r.ruleEngine()
	if e == nil {
		return nil
	}
	rules := e.rulesFor(table, event)
	slices.SortFunc(rules, func(a, b *rule) int { return strings.Compare(a.name, b.name) })
	out := make([]sql.RuleShape, 0, len(rules))
	for _, ru := range rules {
		sh := sql.RuleShape{Instead: ru.instead, Qual: ru.where != nil, Actions: len(ru.actions)}
		for _, a := range ru.actions {
			sh.Returning = sh.Returning || hasReturning(a)
		}
		out = append(out, sh)
	}
	return out
}
