package sql

// Casts to the pseudo-types that have no value kind of their own.

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// pseudoCastKind says what PostgreSQL's coerce_type does with a cast to a
// pseudo-type.
type pseudoCastKind int

const (
	// pseudoNoInput types' input functions are not strict and refuse
	// every text, NULL too (0A000 at the literal).
	pseudoNoInput pseudoCastKind = iota
	// pseudoPassThrough types leave the value as it is, an untyped
	// literal staying untyped; anynonarray and anycompatiblenonarray
	// refuse an array.
	pseudoPassThrough
	pseudoPassNonArray
	// pseudoAnyEnum accepts only an enum, and so never a literal.
	pseudoAnyEnum
	// pseudoUnknown accepts only an untyped literal.
	pseudoUnknown
	// pseudoArray, pseudoRange and pseudoMultirange leave an array, a
	// range or a multirange as it is; their input functions are strict
	// and refuse any text.
	pseudoArray
	pseudoRange
	pseudoMultirange
	// pseudoStrictNoInput types have a strict input function that
	// refuses any text (pg_ddl_command).
	pseudoStrictNoInput
)

var pseudoCasts = map[string]pseudoCastKind{
	"internal":                pseudoNoInput,
	"language_handler":        pseudoNoInput,
	"fdw_handler":             pseudoNoInput,
	"tsm_handler":             pseudoNoInput,
	"table_am_handler":        pseudoNoInput,
	"index_am_handler":        pseudoNoInput,
	"anyelement":              pseudoPassThrough,
	"anycompatible":           pseudoPassThrough,
	"anynonarray":             pseudoPassNonArray,
	"anycompatiblenonarray":   pseudoPassNonArray,
	"anyenum":                 pseudoAnyEnum,
	"unknown":                 pseudoUnknown,
	"anyarray":                pseudoArray,
	"anycompatiblearray":      pseudoArray,
	"anyrange":                pseudoRange,
	"anycompatiblerange":      pseudoRange,
	"anymultirange":           pseudoMultirange,
	"anycompatiblemultirange": pseudoMultirange,
	"pg_ddl_command":          pseudoStrictNoInput,
}

// pseudoTypeCast binds a cast to one of pseudoCasts' types, named without
// modifiers or array bounds (PostgreSQL has no arrays of them); ok is
// false for any other cast.
func (b *binder) pseudoTypeCast(s *scope, c *pg_query.TypeCast) (e expr.Expr, ok bool, err error) {
	tn := c.TypeName
	if tn == nil || len(tn.Typmods) > 0 || len(tn.ArrayBounds) > 0 || tn.PctType || tn.Setof {
		return nil, false, nil
	}
	var name string
	switch len(tn.Names) {
	case 1:
		name = tn.Names[0].GetString_().GetSval()
	case 2:
		if tn.Names[0].GetString_().GetSval() != "pg_catalog" {
			return nil, false, nil
		}
		name = tn.Names[1].GetString_().GetSval()
	default:
		return nil, false, nil
	}
	kind, ok := pseudoCasts[name]
	if !ok {
		return nil, false, nil
	}
	e, err = b.bindExpr(s, c.Arg)
	if err != nil {
		return nil, true, err
	}
	from := e.Type()
	cannot := func() error {
		return b.stmt.errf(c.Location, pgerr.CannotCoerce, "cannot cast type %s to %s", from, name)
	}
	switch kind {
	case pseudoNoInput:
		switch {
		case from.Kind == value.Unknown:
			return nil, true, pgerr.Wrap(pgerr.New(pgerr.FeatureNotSupported, "cannot accept a value of type %s", name)).At(b.stmt.SQL, int(nodeLoc(c.Arg, c.Location)))
		case from.Kind.IsString():
			// The I/O cast from a string type fails as it runs.
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot accept a value of type %s", name)
		}
		return nil, true, cannot()
	case pseudoArray, pseudoRange, pseudoMultirange, pseudoStrictNoInput:
		if from.Kind == value.Unknown || kind == pseudoStrictNoInput && from.Kind.IsString() {
			if k, isConst := e.(*expr.Const); isConst && k.V.IsNull() {
				// PostgreSQL's NULL of the pseudo-type itself, which no
				// value kind here stands for.
				return nil, true, b.refuse(nodeLoc(c.Arg, c.Location), "a NULL of type %s is not supported", name)
			}
			if from.Kind == value.Unknown {
				return nil, true, pgerr.Wrap(pgerr.New(pgerr.FeatureNotSupported, "cannot accept a value of type %s", name)).At(b.stmt.SQL, int(nodeLoc(c.Arg, c.Location)))
			}
			// The I/O cast from a string type fails as it runs.
			return nil, true, pgerr.New(pgerr.FeatureNotSupported, "cannot accept a value of type %s", name)
		}
		if kind == pseudoArray && from.Kind.IsArray() || kind == pseudoRange && from.Kind.IsRange() ||
			kind == pseudoMultirange && from.Kind.IsMultirange() {
			return e, true, nil
		}
		return nil, true, cannot()
	case pseudoPassNonArray:
		if from.Kind.IsArray() {
			return nil, true, cannot()
		}
	case pseudoAnyEnum:
		if !from.IsEnum() {
			return nil, true, cannot()
		}
	case pseudoUnknown:
		if from.Kind != value.Unknown {
			return nil, true, cannot()
		}
	}
	return e, true, nil
}
