package plan

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// AggFunc is an aggregate function of the catalog: every aggregate the
// engine accepts, with its SQL name, its result type for an argument type
// and the properties that decide how it is maintained. The binder resolves
// names here only; the incremental operators and the from-scratch oracle
// each implement every entry by its identifier.
type AggFunc uint8

// The aggregate functions. VarSamp, StddevSamp and BoolAnd also answer to
// variance, stddev and every, as in PostgreSQL.
const (
	AggCountStar  AggFunc = iota // count(*): every row
	AggCount                     // count(x): the non-NULL values
	AggSum                       //
	AggAvg                       //
	AggVarPop                    //
	AggVarSamp                   // also variance
	AggStddevPop                 //
	AggStddevSamp                // also stddev
	AggBoolAnd                   // also every
	AggBoolOr                    //
	AggMin                       //
	AggMax                       //
	AggStringAgg                 // string_agg(x, sep)
	AggArrayAgg                  //
	AggBitAnd                    // bit_and: per-bit counts, invertible
	AggBitOr                     // bit_or
	AggBitXor                    // bit_xor
	// The aggregates below are computed by the from-scratch evaluation
	// only (AggNotMaintained): ad hoc, not in views.
	AggCorr           // corr(y, x) and the rest of the regression family
	AggCovarPop       //
	AggCovarSamp      //
	AggRegrAvgX       //
	AggRegrAvgY       //
	AggRegrCount      //
	AggRegrIntercept  //
	AggRegrR2         //
	AggRegrSlope      //
	AggRegrSxx        //
	AggRegrSxy        //
	AggRegrSyy        //
	AggPercentileCont // percentile_cont(f) WITHIN GROUP (ORDER BY x)
	AggPercentileDisc // percentile_disc(f) WITHIN GROUP (ORDER BY x)
	AggMode           // mode() WITHIN GROUP (ORDER BY x)
	AggRangeIntersect // range_intersect_agg(r)
	AggRangeAgg       // range_agg(r)
	AggUser           // a user-defined aggregate (CREATE AGGREGATE): AggCall.User
	// The hypothetical-set aggregates, f(args) WITHIN GROUP (ORDER BY
	// keys): where a row of args would stand among the group's rows,
	// maintained by counts. Their names are the window functions';
	// LookupHypothetical finds them.
	AggHypoRank        // rank(args) WITHIN GROUP (ORDER BY keys)
	AggHypoDenseRank   // dense_rank
	AggHypoPercentRank // percent_rank
	AggHypoCumeDist    // cume_dist
	numAggFuncs
)

// AggProps are an aggregate's properties.
type AggProps uint16

const (
	// AggInvertible aggregates keep a few counts and sums per group that a
	// retraction undoes as exactly as an assertion adds them.
	AggInvertible AggProps = 1 << iota
	// AggKeepsBest aggregates (min, max) keep the best values of a group
	// and go back to the group's values when a retraction empties them.
	AggKeepsBest
	// AggMultiset aggregates keep every value of a group with its
	// multiplicity, ordered: their result lists the values.
	AggMultiset
	// AggOrdered aggregates accept ORDER BY among their arguments: their
	// result depends on the order of the values.
	AggOrdered
	// AggSeparated aggregates take a second argument, a separator.
	AggSeparated
	// AggSquares aggregates (the variances and standard deviations) also
	// need the sum of the squares of the values.
	AggSquares
	// AggNotMaintained aggregates have no incremental operator: a view
	// that calls one is refused (0A000); ad hoc they are computed from the
	// group's rows.
	AggNotMaintained
	// AggTwoArgs aggregates take two arguments, y and x (corr, covar_*,
	// regr_*), as double precision.
	AggTwoArgs
	// AggOrderedSet aggregates are called f(direct args) WITHIN GROUP
	// (ORDER BY x): percentile_cont, percentile_disc, mode, and the
	// hypothetical-set aggregates.
	AggOrderedSet
	// AggHypothetical aggregates take as many direct arguments as sort
	// keys (AggCall.Hypothetical), a row placed among the group's.
	AggHypothetical
)

type aggEntry struct {
	name  string
	props AggProps
}

var aggCatalog = [numAggFuncs]aggEntry{
	AggCountStar:  {"count", AggInvertible},
	AggCount:      {"count", AggInvertible},
	AggSum:        {"sum", AggInvertible},
	AggAvg:        {"avg", AggInvertible},
	AggVarPop:     {"var_pop", AggInvertible | AggSquares},
	AggVarSamp:    {"var_samp", AggInvertible | AggSquares},
	AggStddevPop:  {"stddev_pop", AggInvertible | AggSquares},
	AggStddevSamp: {"stddev_samp", AggInvertible | AggSquares},
	AggBoolAnd:    {"bool_and", AggInvertible},
	AggBoolOr:     {"bool_or", AggInvertible},
	AggMin:        {"min", AggKeepsBest},
	AggMax:        {"max", AggKeepsBest},
	AggStringAgg:  {"string_agg", AggMultiset | AggOrdered | AggSeparated},
	AggArrayAgg:   {"array_agg", AggMultiset | AggOrdered},

	AggBitAnd:         {"bit_and", AggInvertible},
	AggBitOr:          {"bit_or", AggInvertible},
	AggBitXor:         {"bit_xor", AggInvertible},
	AggCorr:           {"corr", AggNotMaintained | AggTwoArgs},
	AggCovarPop:       {"covar_pop", AggNotMaintained | AggTwoArgs},
	AggCovarSamp:      {"covar_samp", AggNotMaintained | AggTwoArgs},
	AggRegrAvgX:       {"regr_avgx", AggNotMaintained | AggTwoArgs},
	AggRegrAvgY:       {"regr_avgy", AggNotMaintained | AggTwoArgs},
	AggRegrCount:      {"regr_count", AggNotMaintained | AggTwoArgs},
	AggRegrIntercept:  {"regr_intercept", AggNotMaintained | AggTwoArgs},
	AggRegrR2:         {"regr_r2", AggNotMaintained | AggTwoArgs},
	AggRegrSlope:      {"regr_slope", AggNotMaintained | AggTwoArgs},
	AggRegrSxx:        {"regr_sxx", AggNotMaintained | AggTwoArgs},
	AggRegrSxy:        {"regr_sxy", AggNotMaintained | AggTwoArgs},
	AggRegrSyy:        {"regr_syy", AggNotMaintained | AggTwoArgs},
	AggPercentileCont: {"percentile_cont", AggOrderedSet},
	AggPercentileDisc: {"percentile_disc", AggOrderedSet},
	AggMode:           {"mode", AggOrderedSet},
	AggRangeIntersect: {"range_intersect_agg", AggNotMaintained},
	AggRangeAgg:       {"range_agg", AggNotMaintained},
	AggUser:           {"\x00user aggregate", AggOrdered},

	AggHypoRank:        {"rank", AggOrderedSet | AggHypothetical},
	AggHypoDenseRank:   {"dense_rank", AggOrderedSet | AggHypothetical},
	AggHypoPercentRank: {"percent_rank", AggOrderedSet | AggHypothetical},
	AggHypoCumeDist:    {"cume_dist", AggOrderedSet | AggHypothetical},
}

var aggAliases = map[string]AggFunc{"variance": AggVarSamp, "stddev": AggStddevSamp, "every": AggBoolAnd}

// composedAggs are PostgreSQL aggregates the binder composes of others
// (json_agg is a function of array_agg): a call is an aggregate call.
var composedAggs = map[string]bool{"json_agg": true, "jsonb_agg": true, "json_object_agg": true, "jsonb_object_agg": true, "xmlagg": true}

// LookupAgg resolves an aggregate's SQL name (lower case). count resolves
// to AggCount; count(*) is AggCountStar, which the caller picks.
func LookupAgg(name string) (AggFunc, bool) {
	if f, ok := aggAliases[name]; ok {
		return f, true
	}
	for f := AggCount; f < AggHypoRank; f++ {
		if aggCatalog[f].name == name {
			return f, true
		}
	}
	return 0, false
}

// LookupHypothetical resolves the name of a hypothetical-set aggregate,
// called with WITHIN GROUP (rank, dense_rank, percent_rank, cume_dist:
// without it the names are the window functions').
func LookupHypothetical(name string) (AggFunc, bool) {
	for f := AggHypoRank; f < numAggFuncs; f++ {
		if aggCatalog[f].name == name {
			return f, true
		}
	}
	return 0, false
}

// IsAggName reports whether name is an aggregate function's, accepted or
// not: a call of one is an aggregate call.
func IsAggName(name string) bool {
	_, ok := LookupAgg(name)
	return ok || composedAggs[name]
}

// String is the aggregate's SQL name (its canonical one for an alias).
func (f AggFunc) String() string {
	if f < numAggFuncs {
		return aggCatalog[f].name
	}
	return fmt.Sprintf("aggfunc(%d)", int(f))
}

// Has reports whether the aggregate has all the properties p.
func (f AggFunc) Has(p AggProps) bool {
	return f < numAggFuncs && aggCatalog[f].props&p == p
}

// ResultType is the aggregate's result type for an argument type, as
// PostgreSQL has it, or a 42883 error when the aggregate does not exist for
// that type: count → bigint; sum(smallint, integer) → bigint, sum(bigint,
// numeric) → numeric, sum(real) → real, sum(double precision) → double
// precision, sum(interval) → interval; avg, var_*, stddev_* of integers
// and numeric → numeric, of floats → double precision, avg(interval) →
// interval; bool_and, bool_or → boolean; min, max and
// range_intersect_agg (of a range or multirange) → the argument's type;
// range_agg → the multirange of its range type; string_agg → text;
// array_agg → an array of the argument's type (text for an untyped
// literal).
func (f AggFunc) ResultType(arg value.Type) (value.Type, error) {
	k := arg.Kind
	bad := func() (value.Type, error) {
		return value.Type{}, pgerr.New(pgerr.UndefinedFunction, "function %s(%s) does not exist", f, arg)
	}
	switch f {
	case AggCountStar, AggCount, AggHypoRank, AggHypoDenseRank:
		return value.Int8Type, nil
	case AggHypoPercentRank, AggHypoCumeDist:
		return value.Float8Type, nil
	case AggSum:
		switch k {
		case value.Int2, value.Int4:
			return value.Int8Type, nil
		case value.Int8, value.Numeric:
			return value.NumericType, nil
		case value.Float4, value.Float8:
			return value.Type{Kind: k, Mod: -1}, nil
		case value.Interval:
			return value.IntervalType, nil
		case value.Money:
			return value.MoneyType, nil
		}
		return bad()
	case AggAvg, AggVarPop, AggVarSamp, AggStddevPop, AggStddevSamp:
		switch {
		case k == value.Interval && f == AggAvg:
			return value.IntervalType, nil
		case k.IsInteger() || k == value.Numeric:
			return value.NumericType, nil
		case k.IsFloat():
			return value.Float8Type, nil
		}
		return bad()
	case AggBoolAnd, AggBoolOr:
		if k != value.Bool {
			return bad()
		}
		return value.BoolType, nil
	case AggRangeIntersect:
		if !k.IsRange() && !k.IsMultirange() {
			return bad()
		}
		return arg, nil
	case AggRangeAgg:
		if k.IsRange() {
			return arg.MultirangeType(), nil
		}
		if !k.IsMultirange() {
			return bad()
		}
		return arg, nil
	case AggMin, AggMax:
		if k == value.Unknown || k.IsJSON() || k.IsBytes() || k == value.Record || k.IsRange() || k == value.MacAddr || k == value.MacAddr8 || k.IsGeometric() || k == value.XML || k == value.HStore || k == value.RefCursor || k == value.Void || k == value.Cstring { // PostgreSQL has no min or max of json, bytea, bit strings, uuid, records, ranges, MAC addresses, geometric types, hstore, refcursor, void or cstring
			return bad()
		}
		return arg, nil
	case AggStringAgg:
		if k == value.Bytea {
			return value.ByteaType, nil
		}
		if !k.IsString() && k != value.Unknown {
			return bad()
		}
		return value.TextType, nil
	case AggArrayAgg:
		switch {
		case k == value.Unknown:
			return value.ArrayType(value.Text), nil
		case k.IsArray():
			return value.Type{Kind: k, Mod: -1}, nil // one more dimension
		case k == value.Void:
			return value.Type{}, pgerr.New(pgerr.UndefinedObject, "could not find array type for data type void")
		}
		return value.ArrayTypeOf(arg.Unmodified()), nil // a function's result has no modifier
	case AggBitAnd, AggBitOr, AggBitXor:
		if k.IsBits() {
			return value.BitType, nil
		}
		if !k.IsInteger() {
			return bad()
		}
		return arg, nil
	case AggRegrCount:
		return value.Int8Type, nil
	case AggPercentileCont:
		switch {
		case k == value.Interval:
			return value.IntervalType, nil
		case k.IsInteger() || k.IsFloat() || k == value.Numeric:
			return value.Float8Type, nil
		}
		return bad()
	case AggPercentileDisc, AggMode:
		if k == value.Unknown {
			return bad()
		}
		return arg, nil
	}
	if f.Has(AggTwoArgs) {
		return value.Float8Type, nil
	}
	return bad()
}

// HypotheticalResult is a hypothetical-set aggregate's result for a group
// of n rows, before of which sort before the hypothetical row, peers of
// which sort equal to it, and distinct the distinct keys among the former.
func HypotheticalResult(f AggFunc, before, peers, distinct, n int64) value.Value {
	switch f {
	case AggHypoRank:
		return value.NewInt(value.Int8, before+1)
	case AggHypoDenseRank:
		return value.NewInt(value.Int8, distinct+1)
	case AggHypoPercentRank:
		if n == 0 {
			return value.NewFloat(value.Float8, 0)
		}
		return value.NewFloat(value.Float8, float64(before)/float64(n))
	}
	return value.NewFloat(value.Float8, float64(before+peers+1)/float64(n+1))
}
