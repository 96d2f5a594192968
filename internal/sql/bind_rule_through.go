package sql

import (
	"github.com/deltaview/deltaview/internal/pgerr"
)

// An UPDATE or a DELETE through an automatically updatable view over a
// table with rules for its event is, in PostgreSQL, rewritten into one on
// the table, which the table's rules then rewrite. Here the statement
// finds its rows through the view as any statement does (the view's
// conditions, its own, its subqueries), and the change it makes becomes
// one statement on the table that names those rows by ctid, with the new
// values of an UPDATE as literals (UPDATE t SET a = n.a FROM (VALUES …)
// n WHERE t.ctid = n.ct); that statement goes through the table's rules
// (RuleThrough). The rules thus see NEW and OLD as PostgreSQL's do.
// RETURNING, check options, views over views with INSTEAD OF triggers,
// over partitions or inheritance parents are refused (0A000).

// RuleThrough is an UPDATE or a DELETE (DML, with Auto) through an
// automatically updatable view over a table with rules for its event.
type RuleThrough struct {
	DML   Bound
	Event byte
}

func (*RuleThrough) bound() {}

// ruleThrough returns bd as a RuleThrough, or the 0A000 of a shape it
// does not take.
func ruleThrough(bd Bound, av *AutoView, ev byte) (*RuleThrough, error) {
	refuse := func(what string) error {
		return pgerr.New(pgerr.FeatureNotSupported, "%s through view %q on table %q, which has rules ON %s, is not supported", what, av.View, av.Table, RuleEventName(ev)).
			WithHint("give the view an unconditional DO INSTEAD rule, or change the table itself")
	}
	switch d := bd.(type) {
	case *Update:
		if len(d.Returning) > 0 || d.RetPlan != nil {
			return nil, refuse("UPDATE … RETURNING")
		}
	case *Delete:
		if len(d.Returning) > 0 || d.RetPlan != nil {
			return nil, refuse("DELETE … RETURNING")
		}
	default:
		return nil, nil
	}
	switch {
	case len(av.Checks) > 0:
		return nil, refuse(RuleEventName(ev) + " with a check option")
	case av.Instead != nil || av.Partition != nil || len(av.Inherit) > 0:
		return nil, refuse(RuleEventName(ev))
	}
	return &RuleThrough{DML: bd, Event: ev}, nil
}
