package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/sql"
)

// A DROP … CASCADE that drops routines (DROP FUNCTION, or DROP TYPE or
// DROP DOMAIN through the routines of the type) drops the operators and
// aggregates built on them first, each with the views using it, as
// PostgreSQL's pg_depend cascade does. The notice names each "operator
// sig" or "function sig" (PostgreSQL calls an aggregate a function), the
// operators before the aggregates.

// dropRoutineUsers drops the operators whose function, and the aggregates
// whose transition or final function, is one of gone, after notices; it
// returns the notices with its own lines.
func (e *Engine) dropRoutineUsers(gone []*sql.Function, notices []string) ([]string, error) {
	var ops []*sql.Operator
	var aggs []*sql.Aggregate
	for _, f := range gone {
		for _, o := range e.operatorObjsUsing(f) {
			if !slices.Contains(ops, o) {
				ops = append(ops, o)
			}
		}
		for _, a := range e.aggregateObjsUsing(f) {
			if !slices.Contains(aggs, a) {
				aggs = append(aggs, a)
			}
		}
	}
	var err error
	for _, o := range ops {
		notices = append(notices, "drop cascades to operator "+o.Signature())
		if notices, err = e.dropOperatorObjs([]*sql.Operator{o}, true, notices); err != nil {
			return nil, err
		}
	}
	for _, a := range aggs {
		notices = append(notices, "drop cascades to function "+a.Signature())
		if notices, err = e.dropAggregateObjs([]*sql.Aggregate{a}, true, notices); err != nil {
			return nil, err
		}
	}
	return notices, nil
}
