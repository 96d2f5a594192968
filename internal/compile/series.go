package compile

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// MaxConstSeries is the most rows a view holds of a generate_series of
// constant bounds: its constant relation is kept whole in the circuit.
const MaxConstSeries = 1 << 20

// series is generate_series(start, stop[, step]) of constant bounds as
// the constant relation a view reads: evaluated once, when the view is
// built, as PostgreSQL evaluates it at each read (a NULL bound gives no
// rows, a zero step 22023).
func series(n *plan.GenerateSeries) (zset.ZSet, error) {
	bound := func(e expr.Expr) (int64, bool, error) {
		if e == nil {
			return 1, true, nil
		}
		v, err := e.Eval(nil)
		if err != nil || v.IsNull() {
			return 0, false, err
		}
		return v.Int(), true, nil
	}
	start, ok1, err := bound(n.Start)
	if err != nil {
		return nil, err
	}
	stop, ok2, err := bound(n.Stop)
	if err != nil {
		return nil, err
	}
	step, ok3, err := bound(n.Step)
	if err != nil {
		return nil, err
	}
	if !ok1 || !ok2 || !ok3 {
		return nil, nil
	}
	if step == 0 {
		return nil, pgerr.New(pgerr.InvalidParameter, "step size cannot equal zero")
	}
	var count uint64
	switch {
	case step > 0 && start <= stop:
		count = (uint64(stop)-uint64(start))/uint64(step) + 1
	case step < 0 && start >= stop:
		count = (uint64(start)-uint64(stop))/uint64(-step) + 1
	}
	if count > MaxConstSeries {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "generate_series of %d rows cannot be maintained in a view: at most %d", count, MaxConstSeries).
			WithHint("store the series in a table and read the table")
	}
	k := n.Col.Type.Kind
	rows := make(zset.ZSet, 0, count)
	i := start
	for range count {
		rows = append(rows, zset.Entry{Row: value.Row{value.NewInt(k, i)}, W: 1})
		i += step
	}
	return rows, nil
}
