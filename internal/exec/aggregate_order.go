package exec

import "github.com/deltaview/deltaview/internal/plan"

// The order in which the order-dependent aggregates (array_agg,
// string_agg, json_agg, xmlagg, user aggregates…) called without ORDER BY
// take their values. PostgreSQL takes them in the order its plan reads
// the rows; where that order is known (a function in FROM, VALUES, a
// subquery's ORDER BY, a table's rows in insertion order) a query
// evaluated here takes them in the same order; PostgreSQL's heap order is
// insertion order for a table only inserted into (an UPDATE moves the row
// to the end of PostgreSQL's heap, while here it keeps its place).
// Elsewhere (joins), and always for a materialized view, which keeps no
// input order, they are sorted by value.

// ViewOrderSource is implemented by a Source that evaluates a
// materialized view's definition to compare it with the maintained rows:
// its aggregates sort their values as the view does, whatever the input's
// order.
type ViewOrderSource interface {
	Source
	ViewOrder()
}

// HeapOrderSource is implemented by a Source whose Scan of some tables
// yields their rows in the order PostgreSQL's sequential scan reads a
// table's heap: insertion order, for a table rows were only inserted
// into. An aggregate over such a scan takes its values in that order.
type HeapOrderSource interface {
	Source
	// HeapOrdered reports whether Scan(relation) yields its rows in
	// insertion order.
	HeapOrdered(relation string) bool
}

// heapOrdered reports whether src, or a Source it wraps, scans relation
// in insertion order.
func heapOrdered(src Source, relation string) bool {
	hs, ok := innerSource[HeapOrderSource](src)
	return ok && hs.HeapOrdered(relation)
}

// viewOrder reports whether src, or a Source it wraps, is a
// ViewOrderSource.
func viewOrder(src Source) bool {
	_, ok := innerSource[ViewOrderSource](src)
	return ok
}

// inputOrdered reports whether n yields its rows in the order
// PostgreSQL's plan reads them: a set-returning function in FROM (after
// its lateral input, when that is ordered), VALUES, a sort, a table
// scanned in insertion order (HeapOrderSource), and filters, projections
// and limits over those. A join is not: PostgreSQL's order of its rows is
// its plan's (hash, merge or nested loop, which side inner).
func inputOrdered(n plan.Node, src Source) bool {
	switch n := n.(type) {
	case *plan.Values, *plan.Sort:
		return true
	case *plan.Scan:
		return heapOrdered(src, n.Relation)
	case *plan.TableFunc:
		return n.Input == nil || inputOrdered(n.Input, src)
	case *plan.GenerateSeries:
		return n.Input == nil || inputOrdered(n.Input, src)
	case *plan.Filter:
		return inputOrdered(n.Input, src)
	case *plan.Project:
		return inputOrdered(n.Input, src)
	case *plan.Limit:
		return n.Params == nil && inputOrdered(n.Input, src)
	}
	return false
}
