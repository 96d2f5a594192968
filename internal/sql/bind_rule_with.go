package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// A data-modifying statement in WITH on a relation with rules for its
// event is rewritten as PostgreSQL's rewriter does it (RewriteQuery):
// its rules must leave exactly one statement in its place. The binder
// counts the statements they would give from the rules' shapes, and
// gives PostgreSQL's errors: the RETURNING the rules cannot give first,
// then 0A000 for no statement (DO INSTEAD NOTHING), for a conditional
// DO INSTEAD or a DO ALSO rule's action among several (the first in
// PostgreSQL's order decides), or for several DO INSTEAD actions. When
// the rules leave the statement itself alone (a DO ALSO NOTHING rule), it
// is bound as it is; one unconditional DO INSTEAD action in its place,
// and the statement under the inverted conditions of conditional DO
// INSTEAD NOTHING rules, are refused (0A000).

// RuleShape is what the rewrite of a statement in WITH needs to know of
// one rule.
type RuleShape struct {
	Instead, Qual bool
	Actions       int
	// Returning is set when an action has RETURNING.
	Returning bool
}

// RuleShaper is a RuleCatalog that describes the rules of a relation
// for an event that fire now, in name order.
type RuleShaper interface {
	RuleShapes(table string, event byte) []RuleShape
}

// ruleInWith checks the statement rd (q in WITH, at loc) that rules
// rewrite: nil when the rewrite leaves the statement itself alone, to be
// bound as it is, else PostgreSQL's error.
func (b *binder) ruleInWith(rd *RuleDML, q *pg_query.Node, loc int32) error {
	rs, ok := b.cat.(RuleShaper)
	if !ok {
		return b.stmt.errf(loc, pgerr.FeatureNotSupported, "%s in WITH on relation %q, which has rules for it, is not supported", RuleEventName(rd.Event), rd.Table)
	}
	shapes := rs.RuleShapes(rd.Table, rd.Event)
	instead, qualInstead, ruleReturning := false, false, false
	for _, s := range shapes {
		instead = instead || s.Instead && !s.Qual
		qualInstead = qualInstead || s.Instead && s.Qual
		ruleReturning = ruleReturning || s.Instead && !s.Qual && s.Returning
	}
	if (instead || qualInstead) && returning(q) && !ruleReturning {
		verb := RuleEventName(rd.Event)
		return pgerr.New(pgerr.FeatureNotSupported, "cannot perform %s RETURNING on relation %q", verb, rd.Table).
			WithHint("You need an unconditional ON %s DO INSTEAD rule with a RETURNING clause.", verb)
	}
	// The statements, in PostgreSQL's order: the original first for an
	// INSERT, last otherwise (it stays unless an unconditional INSTEAD
	// rule replaces it); the actions in rule name order.
	const (
		original = iota
		nonInstead
		qualInsteadAction
		insteadAction
	)
	var products []int
	for _, s := range shapes {
		src := nonInstead
		switch {
		case s.Instead && s.Qual:
			src = qualInsteadAction
		case s.Instead:
			src = insteadAction
		}
		for range s.Actions {
			products = append(products, src)
		}
	}
	if !instead {
		if rd.Event == RuleInsert {
			products = append([]int{original}, products...)
		} else {
			products = append(products, original)
		}
	}
	switch len(products) {
	case 0:
		return pgerr.New(pgerr.FeatureNotSupported, "DO INSTEAD NOTHING rules are not supported for data-modifying statements in WITH")
	case 1:
		if products[0] == original && !qualInstead {
			return nil
		}
		if products[0] == original {
			// The statement with its conditional DO INSTEAD NOTHING
			// rules' conditions inverted.
			return b.stmt.errf(loc, pgerr.FeatureNotSupported, "%s in WITH on relation %q, which has conditional DO INSTEAD rules, is not supported", RuleEventName(rd.Event), rd.Table).
				WithHint("run the statement on its own")
		}
		return b.stmt.errf(loc, pgerr.FeatureNotSupported, "%s in WITH on relation %q, whose DO INSTEAD rule gives another statement, is not supported", RuleEventName(rd.Event), rd.Table).
			WithHint("run the statement on its own")
	}
	for _, p := range products {
		switch p {
		case qualInsteadAction:
			return pgerr.New(pgerr.FeatureNotSupported, "conditional DO INSTEAD rules are not supported for data-modifying statements in WITH")
		case nonInstead:
			return pgerr.New(pgerr.FeatureNotSupported, "DO ALSO rules are not supported for data-modifying statements in WITH")
		}
	}
	return pgerr.New(pgerr.FeatureNotSupported, "multi-statement DO INSTEAD rules are not supported for data-modifying statements in WITH")
}
