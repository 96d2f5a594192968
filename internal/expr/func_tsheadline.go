package expr

import (
	"github.com/deltaview/deltaview/internal/tsearch"
	"github.com/deltaview/deltaview/internal/value"
)

// ts_headline([config,] document, query [, options]) over text, json and
// jsonb: a json document's strings are each made a headline, the rest
// kept (a json's written without white space, as PostgreSQL rebuilds it).

func tsHeadline(a []value.Value) (value.Value, error) {
	c, err := TSConfig(a[0])
	if err != nil {
		return value.Null, err
	}
	opts := ""
	if len(a) > 3 {
		opts = textOf(a[3])
	}
	o, err := tsearch.ParseHeadlineOptions(opts)
	if err != nil {
		return value.Null, value.TextSearchError(err)
	}
	q := a[2].TSQuery()
	if a[1].Kind() != value.JSON && a[1].Kind() != value.JSONB {
		return text(c.Headline(textOf(a[1]), q, o)), nil
	}
	n, err := jsonDoc(a[1])
	if err != nil {
		return value.Null, err
	}
	h := headlineJSON(*n, func(s string) string { return c.Headline(s, q, o) })
	if a[1].Kind() == value.JSONB {
		return value.NewJSONB(&h), nil
	}
	return value.NewJSON(string(appendJSONCompact(nil, &h))), nil
}

// headlineJSON returns n with each string value (not the keys) made f of
// it.
func headlineJSON(n value.JSONNode, f func(string) string) value.JSONNode {
	switch n.Type {
	case value.JSONString:
		n.Str, n.Raw = f(n.Str), ""
	case value.JSONArray, value.JSONObject:
		es := make([]value.JSONNode, len(n.Elems))
		for i := range n.Elems {
			es[i] = headlineJSON(n.Elems[i], f)
		}
		n.Elems = es
	}
	return n
}

func init() {
	for _, k := range []value.Kind{value.Text, value.JSON, value.JSONB} {
		res := value.Type{Kind: k, Mod: -1}
		strict("ts_headline", kinds(value.RegConfig, k, tsqK), res, tsHeadline)
		strict("ts_headline", kinds(value.RegConfig, k, tsqK, value.Text), res, tsHeadline)
	}
}
