package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// textSearchMatch binds l @@ r when both are strings or untyped literals:
// text @@ text, which matches under the session's
// default_text_search_config. A view, which no session runs, refuses it
// (0A000). ok is false for other operands.
func (b *binder) textSearchMatch(l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	textual := func(k value.Kind) bool { return isString(k) || k == value.Unknown }
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

// tsvectorFuncs are PostgreSQL's text search functions over the tsvector
// and tsquery types (or returning regconfig), which deltaview has not:
// calling one is 0A000, not "does not exist".
var tsvectorFuncs = map[string]bool{
	"to_tsvector": true, "to_tsquery": true, "plainto_tsquery": true, "phraseto_tsquery": true,
	"websearch_to_tsquery": true, "ts_rank": true, "ts_rank_cd": true, "ts_headline": true, "setweight": true,
	"strip": true, "numnode": true, "querytree": true, "ts_rewrite": true, "tsvector_to_array": true,
	"array_to_tsvector": true, "ts_delete": true, "ts_filter": true, "tsquery_phrase": true, "ts_stat": true,
	"ts_debug": true, "get_current_ts_config": true, "json_to_tsvector": true, "jsonb_to_tsvector": true,
}

// refuseTSVectorFunc is 0A000 for a call of one of tsvectorFuncs that
// resolved to nothing; nil for other functions.
func (b *binder) refuseTSVectorFunc(name string, loc int32) error {
	if !tsvectorFuncs[name] {
		return nil
	}
	return b.refuse(loc, "%s is not supported: the tsvector and tsquery types are not", name).
		WithHint("text @@ text matches under default_text_search_config; ts_parse and ts_lexize give tokens and lexemes")
}
