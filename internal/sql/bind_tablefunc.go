package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// integerSeries reports whether rf is generate_series over integers alone,
// without ORDINALITY, which plan.GenerateSeries runs.
func (b *binder) integerSeries(rf *pg_query.RangeFunction) bool {
	if len(rf.Functions) != 1 || rf.Ordinality {
		return false
	}
	items := rf.Functions[0].GetList().GetItems()
	if len(rf.Coldeflist) > 0 || len(items) > 1 && len(items[1].GetList().GetItems()) > 0 {
		return false // bindTableFunc reports the list
	}
	f := items[0].GetFuncCall()
	if f != nil && slices.ContainsFunc(f.Args, func(a *pg_query.Node) bool { return a.GetNamedArgExpr() != nil }) {
		return false // bindTableFunc reports it: its parameters have no names
	}
	if f == nil || opName(f.Funcname) != "generate_series" || len(f.Args) < 2 || len(f.Args) > 3 {
		return f != nil && opName(f.Funcname) == "generate_series" && b.forView
	}
	for _, a := range f.Args {
		e, err := b.bindExpr(&scope{}, a)
		if err != nil {
			return !b.forView // reported there; in a view, by bindTableFunc
		}
		if b.forView && (e.Volatile() || expr.HasOuter(e)) {
			// Bounds that read the items before it: a FlatMap of each row
			// (bindTableFunc); volatile ones are refused there.
			return false
		}
		if k := e.Type().Kind; !k.IsInteger() && k != value.Unknown {
			return false
		}
	}
	return true
}

// bindTableFunc binds set-returning functions in FROM: unnest(a[, b…]),
// generate_series over numerics and times, generate_subscripts, several
// of them in ROWS FROM (…), WITH ORDINALITY. Column names are PostgreSQL's:
// the function's name, or the alias of a lone one-column function, then
// "ordinality"; the alias's column list renames them in order, and a
// column definition list gives the columns of a function returning
// record (bind_coldef.go). A view
// maintains them as a FlatMap of each row, or a constant; not
// generate_series over timestamp with time zone.
func (b *binder) bindTableFunc(rf *pg_query.RangeFunction) (plan.Node, *scope, error) {
	if err := b.coldefPlacement(rf); err != nil {
		return nil, nil, err
	}
	tf := &plan.TableFunc{Ordinality: rf.Ordinality}
	listed := false         // a column definition list names the columns
	var rowType value.Type  // of json(b)_populate_record(set)'s base, of unnest's composite elements
	var doms []*expr.Domain // of the columns, unnest's of d[] arrays (unnestDomains)
	for _, item := range rf.Functions {
		items := item.GetList().GetItems()
		f := items[0].GetFuncCall()
		if f == nil {
			if p, sc, ok, err := b.scalarFrom(rf, items[0]); ok {
				return p, sc, err
			}
			return nil, nil, b.refuse(-1, "this function in FROM is not supported").WithHint("unnest, generate_series and generate_subscripts are supported")
		}
		var coldefs []*pg_query.Node
		if len(items) > 1 && items[1] != nil && items[1].GetList() != nil {
			coldefs = items[1].GetList().Items
		}
		if len(rf.Functions) == 1 && len(rf.Coldeflist) > 0 {
			coldefs = rf.Coldeflist
		}
		listed = listed || len(coldefs) > 0
		name := opName(f.Funcname)
		if expr.IsJSONRecordFunc(name) {
			var srf *expr.SRF
			var err error
			if selectListCalls(rf) {
				srf, err = b.bindSelectRecordFunc(name, f)
			} else {
				srf, rowType, err = b.bindJSONRecordFunc(name, f, coldefs)
			}
			if err != nil {
				return nil, nil, err
			}
			tf.Funcs = append(tf.Funcs, srf)
			for i, t := range srf.Cols {
				tf.Cols = append(tf.Cols, plan.Column{Name: srf.Names[i], Type: t})
			}
			continue
		}
		if srf, ok, err := b.aclexplodeSRF(f); ok {
			if err != nil {
				return nil, nil, err
			}
			if selectListCalls(rf) {
				// In a select list: one record per row.
				fields := make([]value.RecordField, len(srf.Cols))
				for i, t := range srf.Cols {
					fields[i] = value.RecordField{Name: srf.Names[i], Type: t}
				}
				srf = expr.RecordValues(srf, value.RecordTypeOf("", fields))
			}
			tf.Funcs = append(tf.Funcs, srf)
			for i, t := range srf.Cols {
				tf.Cols = append(tf.Cols, plan.Column{Name: srf.Names[i], Type: t})
			}
			continue
		}
		if srf, ok, err := b.partitionSRF(f); ok {
			if err != nil {
				return nil, nil, err
			}
			tf.Funcs = append(tf.Funcs, srf)
			for i, t := range srf.Cols {
				tf.Cols = append(tf.Cols, plan.Column{Name: srf.Names[i], Type: t})
			}
			continue
		}
		if srf, ok, err := b.eventTriggerSRF(f); ok {
			if err != nil {
				return nil, nil, err
			}
			tf.Funcs = append(tf.Funcs, srf)
			for i, t := range srf.Cols {
				tf.Cols = append(tf.Cols, plan.Column{Name: srf.Names[i], Type: t})
			}
			continue
		}
		if srf, ok, err := b.routineSRF(f, coldefs); ok {
			if err != nil {
				return nil, nil, err
			}
			tf.Funcs = append(tf.Funcs, srf)
			for i, t := range srf.Cols {
				tf.Cols = append(tf.Cols, plan.Column{Name: srf.Names[i], Type: t})
			}
			continue
		}
		if isExtSRF(f) {
			srf, err := b.bindExtensionSRF(f, coldefs)
			if err != nil {
				return nil, nil, err
			}
			tf.Funcs = append(tf.Funcs, srf)
			for i, t := range srf.Cols {
				if srf.Names != nil {
					name = srf.Names[i]
				}
				tf.Cols = append(tf.Cols, plan.Column{Name: name, Type: t})
			}
			continue
		}
		if !expr.IsSRF(name) {
			if err := b.uninstalledExtensionSRF(name, f); err != nil {
				return nil, nil, err
			}
			if err := b.undefinedTableFunc(name, f); err != nil {
				return nil, nil, err
			}
			if p, sc, ok, err := b.scalarFrom(rf, items[0]); ok {
				return p, sc, err
			}
			return nil, nil, b.refuse(f.Location, "function %s in FROM is not supported", name).WithHint("unnest, generate_series and generate_subscripts are supported")
		}
		fargs, err := b.namedArgs(name, f.Args, f.Location)
		if err != nil {
			return nil, nil, err
		}
		if b.forView && expr.IsTZJSONPathFunc(name) {
			return nil, nil, b.refuseTZJSONPath(name, f.Location)
		}
		args := make([]expr.Expr, len(fargs))
		for i, a := range fargs {
			e, err := b.bindExpr(b.argScope(), a)
			if err != nil {
				return nil, nil, err
			}
			args[i] = e
		}
		if name == "ts_debug" && len(args) == 1 {
			// ts_debug(document) reads default_text_search_config.
			if b.forView {
				return nil, nil, b.refuse(f.Location, "ts_debug() without a text search configuration depends on the session's default_text_search_config and cannot be maintained in a view").
					WithHint("name the configuration: ts_debug('english', …)")
			}
			cfg, _, err := b.textSearchDefault("get_current_ts_config", nil, f.Location)
			if err != nil {
				return nil, nil, err
			}
			args = append([]expr.Expr{cfg}, args...)
		}
		if name == "unnest" && len(args) > 1 && selectListCalls(rf) {
			return nil, nil, b.unnestSeveral(f, args)
		}
		if name == "pg_listening_channels" {
			if args, err = b.listeningChannels(args, f.Location); err != nil {
				return nil, nil, err
			}
		}
		srf, err := expr.ResolveSRF(name, args)
		if err != nil {
			return nil, nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
		}
		b.zonedSeries(srf)
		switch {
		case len(coldefs) > 0:
			if srf, err = b.withColdefs(srf, f, coldefs); err != nil {
				return nil, nil, err
			}
		case selectListCalls(rf) && len(srf.Cols) > 1 && expr.SRFRecordColumns(name) == nil:
			// unnest(tsvector) in a select list: one record per lexeme.
			fields := make([]value.RecordField, len(srf.Cols))
			for i, t := range srf.Cols {
				fields[i] = value.RecordField{Name: srf.Names[i], Type: t}
			}
			srf = expr.RecordValues(srf, value.RecordTypeOf("", fields))
		case selectListCalls(rf):
		case slices.ContainsFunc(srf.Cols, value.Type.IsAnonymousRecord):
			return nil, nil, b.stmt.errf(f.Location, pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
		default:
			srf, rowType = expr.ExpandComposites(srf)
		}
		tf.Funcs = append(tf.Funcs, srf)
		doms = append(doms, b.unnestDomains(srf, args)...)
		for i, t := range srf.Cols {
			if srf.Names != nil {
				name = srf.Names[i]
			}
			tf.Cols = append(tf.Cols, plan.Column{Name: name, Type: t})
		}
	}
	alias := tf.Funcs[0].Name
	if rf.Alias != nil {
		alias = rf.Alias.Aliasname
		if len(tf.Cols) == 1 && !listed && !expr.IsJSONRecordFunc(tf.Funcs[0].Name) && rowType.Kind != value.Record && !outNamedSRF[tf.Funcs[0].Name] {
			tf.Cols[0].Name = alias
		}
	}
	if rf.Ordinality {
		tf.Cols = append(tf.Cols, plan.Column{Name: "ordinality", Type: value.Int8Type})
	}
	if rf.Alias != nil {
		if len(rf.Alias.Colnames) > len(tf.Cols) {
			return nil, nil, b.stmt.errf(-1, "42P10", "table \"%s\" has %d columns available but %d columns specified", alias, len(tf.Cols), len(rf.Alias.Colnames))
		}
		for i, c := range rf.Alias.Colnames {
			tf.Cols[i].Name = c.GetString_().Sval
		}
	}
	if len(rf.Functions) == 1 && !rf.Ordinality && rowType.Kind == value.Record {
		// The whole row of a function returning t's row type is of
		// that type, as a table's row is.
		return tf, rowScope(alias, rowType, tf.Columns()), nil
	}
	s := newScope(alias, tf.Columns())
	for i, d := range doms {
		if d != nil && i < len(s.cols) {
			s.cols[i].src = Origin{Domain: d, Typed: true}
		}
	}
	if len(s.cols) == 1 && outNamedSRF[tf.Funcs[0].Name] {
		s.cols[0].scalarRow = true
	}
	return tf, s, nil
}

// outNamedSRF are the set-returning functions of one column whose column
// is an OUT parameter with a name (json_array_elements(from_json, OUT
// value)): an alias names the relation, not the column, which keeps its
// name, as in PostgreSQL (SELECT e.value FROM jsonb_array_elements(j) e).
var outNamedSRF = map[string]bool{
	"json_array_elements": true, "json_array_elements_text": true,
	"jsonb_array_elements": true, "jsonb_array_elements_text": true,
}
