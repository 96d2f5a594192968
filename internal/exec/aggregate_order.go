package exec

import "github.com/deltaview/deltaview/internal/plan"

// The order in which the order-dependent aggregates (array_agg,
// string_agg, json_agg, xmlagg, user aggregates…) called without ORDER BY
// take their values. PostgreSQL takes them in the order its plan reads
// the rows; where that order is known (a function in FROM, VALUES, a
// subquery's ORDER BY) a query evaluated here takes them in the same
// order. Elsewhere (tables, joins), and always for a materialized view,
// which keeps no input order, they are sorted by value.

// ViewOrderSource is implemented by a Source that evaluates a
// materialized view's definition to compare it with the maintained rows:
// its aggregates sort their values as the view does, whatever the input's
// order.
type ViewOrderSource interface {
	Source
	ViewOrder()
}

// viewOrder reports whether src, or a Source it wraps, is a
// ViewOrderSource.
func viewOrder(src Source) bool {
	_, ok := innerSource[ViewOrderSource](src)
	return ok
}

// inputOrdered reports whether n yields its rows in the order
// PostgreSQL's plan reads them: a set-returning function in FROM (after
// its lateral input, when that is ordered), VALUES, a sort, and filters,
// projections and limits over those.
func inputOrdered(n plan.Node) bool {
	switch n := n.(type) {
	case *plan.Values, *plan.Sort:
		return true
	case *plan.TableFunc:
		return n.Input == nil || inputOrdered(n.Input)
	case *plan.GenerateSeries:
		return n.Input == nil || inputOrdered(n.Input)
	case *plan.Filter:
		return inputOrdered(n.Input)
	case *plan.Project:
		return inputOrdered(n.Input)
	case *plan.Limit:
		return n.Params == nil && inputOrdered(n.Input)
	}
	return false
}
