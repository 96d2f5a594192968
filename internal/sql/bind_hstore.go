package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// hstoreSubscript binds h['key'] as the hstore extension's subscript
// does: the key's value, fetchval(h, key); a slice or a second subscript
// is 0A000, as there.
func (b *binder) hstoreSubscript(s *scope, e expr.Expr, idx *pg_query.A_Indices, multi bool, loc int32) (expr.Expr, error) {
	if idx.IsSlice || multi {
		return nil, b.stmt.errf(loc, pgerr.FeatureNotSupported, "hstore allows only one subscript")
	}
	x, err := b.bindExpr(s, idx.Uidx)
	if err != nil {
		return nil, err
	}
	// As an assignment converts it: h[1] reads key '1'.
	if x, err = expr.Coerce(x, value.TextType, true); err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(idx.Uidx, loc)))
	}
	return b.callFunc(s, "fetchval", nil, []expr.Expr{e, x}, loc)
}

// hstoreAssigner binds SET h['key'] = v as the hstore extension assigns
// it: the key's pair set to v, both converted to text as an assignment
// converts; a slice or a second subscript is 0A000, as there.
func (b *binder) hstoreAssigner(sc *scope, name string, idx []*pg_query.A_Indices, loc int32) (subscriptAssigner, error) {
	if len(idx) != 1 || idx[0].IsSlice {
		return nil, b.stmt.errf(loc, pgerr.FeatureNotSupported, "hstore allows only one subscript")
	}
	k, err := b.bindExpr(sc, idx[0].Uidx)
	if err != nil {
		return nil, err
	}
	if k, err = b.subscriptCast(k, value.TextType, name, loc, nodeLoc(idx[0].Uidx, loc)); err != nil {
		return nil, err
	}
	return func(base, v expr.Expr, vloc int32) (expr.Expr, error) {
		v, err := b.subscriptCast(v, value.TextType, name, loc, vloc)
		if err != nil {
			return nil, err
		}
		return expr.HStoreAssign(base, k, v), nil
	}, nil
}

// hstoreRecordCall binds the hstore extension's functions over records,
// once it is installed: populate_record(base, h) (and base #= h, its
// operator), a record of base's type, and hstore(record). ok is false for
// another call.
func (b *binder) hstoreRecordCall(name string, es []expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	if name != "populate_record" && (name != "hstore" || len(es) != 1 || es[0].Type().Kind != value.Record) {
		return nil, false, nil
	}
	var def *expr.FuncDef
	exts, _ := b.extensionFuncs(name)
	for _, d := range exts {
		if d.Ext == "hstore" && d.Eval == nil && d.Rows == nil {
			def = d
		}
	}
	if def == nil || len(es) != len(def.Params) {
		return nil, false, nil
	}
	if name == "hstore" {
		b.usedExtensionFunc(def)
		return expr.HStoreFromRecord(def, es[0]), true, nil
	}
	rowType := es[0].Type()
	switch {
	case rowType.Kind == value.Unknown:
		return nil, true, b.stmt.errf(loc, pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
	case rowType.Kind != value.Record:
		return nil, true, b.stmt.errf(-1, pgerr.DatatypeMismatch, "first argument must be a rowtype")
	case rowType.RecordDesc() == nil:
		return nil, true, b.refuse(loc, "populate_record over an anonymous record is not supported").
			WithHint("cast the record to a composite type: ROW(…)::t")
	}
	h, err := b.coerce(es[1], value.HStoreType, loc)
	if err != nil {
		return nil, true, err
	}
	b.usedExtensionFunc(def)
	return expr.HStorePopulateRecord(def, es[0], h, rowType, b.inputClock()), true, nil
}
