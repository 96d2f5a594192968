package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// clockTimeTypes are the SQL value functions that read the clock as a time
// of day (CURRENT_TIME, LOCALTIME, with or without a precision) or as a
// timestamp with a precision (LOCALTIMESTAMP(p)), and the kind each gives.
var clockTimeTypes = map[pg_query.SQLValueFunctionOp]value.Kind{
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME:        value.TimeTZ,
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:      value.TimeTZ,
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME:           value.Time,
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:         value.Time,
	pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:    value.Timestamp,
	pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N: value.TimestampTZ,
}

// bindClockTime binds CURRENT_TIME, LOCALTIME and the other clock readings
// of clockTimeTypes as now() cast to the kind, with the precision given.
// Sessions run in UTC, so the time of day is UTC's. A view refuses them:
// they change without any change to the tables.
func (b *binder) bindClockTime(s *scope, f *pg_query.SQLValueFunction, k value.Kind) (expr.Expr, error) {
	name := f.Op.String()[len("SVFOP_"):]
	if b.forView {
		return nil, b.refuse(f.Location, "volatile function %s cannot be maintained in a view", name).WithHint(volatileHint)
	}
	now, err := b.callFunc(s, "now", nil, nil, f.Location)
	if err != nil {
		return nil, err
	}
	t := value.Type{Kind: k, Mod: -1}
	if f.Typmod >= 0 {
		if t, err = value.TypeFromName(k.String(), []int32{f.Typmod}); err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
		}
	}
	out, err := expr.Coerce(now, t, true)
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	return out, nil
}

// timeAggArg casts a time to interval for sum and avg, which PostgreSQL
// reaches through the implicit cast time → interval.
func timeAggArg(fn plan.AggFunc, arg expr.Expr) expr.Expr {
	if arg.Type().Kind == value.Time && (fn == plan.AggSum || fn == plan.AggAvg) {
		return &expr.Cast{E: arg, To: value.IntervalType}
	}
	return arg
}
