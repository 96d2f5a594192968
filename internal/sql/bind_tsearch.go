package sql

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

func isTextSearch(k value.Kind) bool { return k == value.TSVector || k == value.TSQuery }

// textual reports whether k reads as text: a string or an untyped literal.
func textual(k value.Kind) bool { return isString(k) || k == value.Unknown }

// textSearchOperator binds the operators of text search: @@ (text @@ text,
// text @@ tsquery, tsvector @@ tsquery and the reverse), and over tsvector
// and tsquery ||, &&, <->, @> and <@. ok is false for other operands.
func (b *binder) textSearchOperator(op string, l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	lk, rk := l.Type().Kind, r.Type().Kind
	if op == "@@@" && (lk == value.TSVector && rk == value.TSQuery || lk == value.TSQuery && rk == value.TSVector) {
		op = "@@" // PostgreSQL's older name of the match
	}
	switch op {
	case "@@":
		if e, ok, err := b.textSearchMatch(l, r, loc); ok {
			return e, ok, err
		}
		if textual(lk) && rk == value.TSQuery {
			e, _, err := b.textSearchDefault("@@", []expr.Expr{l, r}, loc)
			return e, true, err
		}
	case "||", "&&", "<->", "@>", "<@":
		if (op == "@>" || op == "<@") && lk != value.TSQuery && rk != value.TSQuery {
			return nil, false, nil
		}
	default:
		return nil, false, nil
	}
	noOperator := func() error {
		return b.stmt.errf(loc, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	if !isTextSearch(lk) && !isTextSearch(rk) {
		if op == "<->" {
			return nil, true, noOperator()
		}
		return nil, false, nil
	}
	e, err = b.callFunc(nil, op, nil, []expr.Expr{l, r}, loc)
	if pgerr.Code(err) == pgerr.UndefinedFunction {
		return nil, true, noOperator()
	}
	return e, true, err
}

// textSearchMatch binds l @@ r when both are strings or untyped literals:
// text @@ text, which matches under the session's
// default_text_search_config. A view, which no session runs, refuses it
// (0A000). ok is false for other operands.
func (b *binder) textSearchMatch(l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	if !textual(l.Type().Kind) || !textual(r.Type().Kind) {
		return nil, false, nil
	}
	if b.forView {
		return nil, true, b.refuse(loc, "text @@ text depends on the session's default_text_search_config and cannot be maintained in a view").
			WithHint("match in queries of the view, or store the match in a column when the row is written")
	}
	if b.stmtClock == nil {
		return nil, true, b.refuse(loc, "text @@ text is supported in queries and data changes only")
	}
	if l, err = b.coerce(l, value.TextType, loc); err != nil {
		return nil, true, err
	}
	if r, err = b.coerce(r, value.TextType, loc); err != nil {
		return nil, true, err
	}
	return &expr.TSMatchCall{C: b.stmtClock, L: l, R: r}, true, nil
}

// tsDefaultArity is the number of arguments of the text search functions
// called without a configuration, which read default_text_search_config.
var tsDefaultArity = map[string]int{
	"to_tsvector": 1, "to_tsquery": 1, "plainto_tsquery": 1, "phraseto_tsquery": 1, "websearch_to_tsquery": 1,
	"get_current_ts_config": 0, "@@": 2, "json_to_tsvector": 2, "jsonb_to_tsvector": 2,
	"ts_headline": 2, // or 3 (tsHeadlineDefault)
}

// tsHeadlineDefault reports whether a call of ts_headline names no
// configuration: (document, query [, options]), the query second.
func tsHeadlineDefault(args []expr.Expr) bool {
	switch k := args[1].Type().Kind; {
	case len(args) == 2:
		return k == value.TSQuery || k == value.Unknown // (text, tsquery) as PostgreSQL prefers it
	case len(args) == 3:
		return k == value.TSQuery
	}
	return false
}

// textSearchDefault binds a text search function called without a
// configuration (text @@ tsquery is to_tsvector(text) @@ tsquery): the
// session's default_text_search_config is its configuration, so a view
// refuses it (0A000). ok is false for other calls.
func (b *binder) textSearchDefault(name string, args []expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	n, is := tsDefaultArity[name]
	switch {
	case !is:
		return nil, false, nil
	case name == "ts_headline":
		if len(args) == 3 && !slices.ContainsFunc(args, func(a expr.Expr) bool { return a.Type().Kind != value.Unknown }) {
			// (regconfig, text, tsquery) and (text, tsquery, text) both fit.
			return nil, true, b.stmt.errf(loc, "42725", "function ts_headline(unknown, unknown, unknown) is not unique").
				WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
		}
		if !tsHeadlineDefault(args) {
			return nil, false, nil
		}
	case n != len(args) || name == "@@" && !(textual(args[0].Type().Kind) && args[1].Type().Kind == value.TSQuery):
		return nil, false, nil
	}
	shown := name + "() without a text search configuration"
	switch name {
	case "@@":
		shown = "text @@ tsquery"
	case "get_current_ts_config":
		shown = name + "()"
	}
	if b.forView {
		return nil, true, b.refuse(loc, "%s depends on the session's default_text_search_config and cannot be maintained in a view", shown).
			WithHint("name the configuration: %s", tsConfigHint(name))
	}
	if b.stmtClock == nil {
		return nil, true, b.refuse(loc, "%s is supported in queries and data changes only", shown)
	}
	call := &expr.TSDefaultCall{C: b.stmtClock, Name: name}
	if name == "get_current_ts_config" {
		return call, true, nil
	}
	ts := []value.Type{value.RegConfigType}
	for _, a := range args {
		ts = append(ts, a.Type())
	}
	if name == "ts_headline" && ts[1].Kind == value.Unknown {
		ts[1] = value.TextType
	}
	def, params, res, err := expr.ResolveFunc(name, ts)
	if err != nil {
		return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	for i, a := range args {
		if a, err = b.coerce(a, params[i+1], loc); err != nil {
			return nil, true, err
		}
		call.Args = append(call.Args, a)
	}
	call.Def, call.T = def, res
	return call, true, nil
}

func tsConfigHint(name string) string {
	switch name {
	case "@@":
		return "to_tsvector('english', …) @@ …"
	case "get_current_ts_config":
		return "'english'"
	}
	return name + "('english', …)"
}
