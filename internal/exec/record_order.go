package exec

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// recordOrder checks what PostgreSQL's sorts check of records and arrays
// of records, whose values may each have a row type of their own: a sort
// (ORDER BY, and DISTINCT, GROUP BY, UNION, INTERSECT and EXCEPT, which
// PostgreSQL sorts for such columns, records having no hash function it
// trusts) compares every pair of rows that ends next to each other, so it
// fails with 42804 when such a pair reaches fields of different types
// (expr.RecordCheck). Pairs further apart agree on the types of the
// fields that decide them, so the neighbours are all there is to check.
// It holds one check per compared value, nil where none is needed; it is
// nil when no value needs one, and a nil recordOrder checks nothing.
type recordOrder []*expr.RecordCheck

// newRecordOrder returns the checks of comparing values of types ts in
// order; nil when none is a record or an array of records.
func newRecordOrder(ts []value.Type) recordOrder {
	var o recordOrder
	for i, t := range ts {
		if c := expr.OrderRecordCheck(t); c != nil {
			if o == nil {
				o = make(recordOrder, len(ts))
			}
			o[i] = c
		}
	}
	return o
}

// columnTypes returns the types of cols.
func columnTypes(cols []plan.Column) []value.Type {
	ts := make([]value.Type, len(cols))
	for i, c := range cols {
		ts[i] = c.Type
	}
	return ts
}

// exprTypes returns the types of es.
func exprTypes(es []expr.Expr) []value.Type {
	ts := make([]value.Type, len(es))
	for i, e := range es {
		ts[i] = e.Type()
	}
	return ts
}

// pair checks the comparison of a and b, compared value by value until
// one differs (a NULL after every value and equal to NULL).
func (o recordOrder) pair(a, b []value.Value) error {
	for i, c := range o {
		x, y := a[i], b[i]
		if x.IsNull() || y.IsNull() {
			if x.IsNull() && y.IsNull() {
				continue
			}
			return nil
		}
		if err := c.Check(x, y); err != nil {
			return err
		}
		if value.Compare(x, y) != 0 {
			return nil
		}
	}
	return nil
}

// sorted checks each pair of neighbours of rows, which are in order.
func (o recordOrder) sorted(rows []value.Row) error {
	if o == nil {
		return nil
	}
	for i := 1; i < len(rows); i++ {
		if err := o.pair(rows[i-1], rows[i]); err != nil {
			return err
		}
	}
	return nil
}
