package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/tsearch"
	"github.com/deltaview/deltaview/internal/value"
)

// The functions and operators of tsvector and tsquery. A configuration
// is a regconfig (value/regconfig.go); the forms without
// one read default_text_search_config and are bound as TSDefaultCall.

var (
	tsvecK = value.TSVector
	tsqK   = value.TSQuery
)

// TSConfig finds the text search configuration v names: a regconfig, or
// the text of default_text_search_config (english and simple;
// PostgreSQL's other configurations are 0A000).
func TSConfig(v value.Value) (*tsearch.Config, error) {
	if v.Kind() != value.RegConfig {
		r, err := value.Parse(textOf(v), value.RegConfigType)
		if err != nil {
			return nil, err
		}
		v = r
	}
	return value.TSConfigOf(v)
}

func tsVector(v tsearch.Vector) value.Value { return value.NewTSVector(v) }
func tsQuery(q tsearch.Query) value.Value   { return value.NewTSQuery(q) }

// tsWeight reads setweight's weight argument ("char"): its first byte.
// PostgreSQL 15.18 reports a bad one as an internal error with the byte's
// code (ts_filter's is 22023, below).
func tsWeight(v value.Value) (int, error) {
	s := textOf(v)
	c := byte(0)
	if s != "" {
		c = s[0]
	}
	w, ok := tsearch.WeightOf(c)
	if !ok {
		return 0, pgerr.New(pgerr.Internal, "unrecognized weight: %d", c)
	}
	return w, nil
}

// tsWords reads a text[] argument of lexemes; NULLs are an error unless
// skipNulls (setweight and ts_delete skip them, array_to_tsvector not).
func tsWords(v value.Value, skipNulls bool) ([]string, error) {
	es := v.Elems()
	ws := make([]string, 0, len(es))
	for _, e := range es {
		if e.IsNull() {
			if skipNulls {
				continue
			}
			return nil, pgerr.New("22004", "lexeme array may not contain nulls")
		}
		ws = append(ws, textOf(e))
	}
	return ws, nil
}

// tsOp registers an operator of the text search types.
func tsOp(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) {
	print := func(args []Expr) string { return operand(args[0]) + " " + name + " " + operand(args[1]) }
	if len(params) == 1 {
		print = func(args []Expr) string { return name + operand(args[0]) }
	}
	register(&FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval, Print: print})
}

// tsCombine joins two queries with op; an empty side gives the other.
func tsCombine(a, b tsearch.Query, op uint8, distance int) tsearch.Query {
	l, r := a.Tree(), b.Tree()
	switch {
	case l == nil:
		return b
	case r == nil:
		return a
	}
	return tsearch.EncodeQuery(&tsearch.Node{Op: op, L: l, R: r, Distance: distance})
}

func init() {
	withConfig := func(name string, result value.Type, f func(c *tsearch.Config, s string) (value.Value, error)) {
		strict(name, kinds(value.RegConfig, textT), result, func(a []value.Value) (value.Value, error) {
			c, err := TSConfig(a[0])
			if err != nil {
				return value.Null, err
			}
			r, err := f(c, textOf(a[1]))
			return r, value.TextSearchError(err)
		})
	}
	tsvT, tsqT := value.TSVectorType, value.TSQueryType
	withConfig("to_tsvector", tsvT, func(c *tsearch.Config, s string) (value.Value, error) { return tsVector(c.ToVector(s)), nil })
	for name, f := range map[string]func(*tsearch.Config, string) (tsearch.Query, error){
		"to_tsquery": (*tsearch.Config).ToQuery, "plainto_tsquery": (*tsearch.Config).PlainToQuery,
		"phraseto_tsquery": (*tsearch.Config).PhraseToQuery, "websearch_to_tsquery": (*tsearch.Config).WebToQuery,
	} {
		withConfig(name, tsqT, func(c *tsearch.Config, s string) (value.Value, error) {
			q, err := f(c, s)
			return tsQuery(q), err
		})
	}

	// text @@ tsquery, bound as a TSDefaultCall with the configuration.
	strict("@@", kinds(value.RegConfig, textT, tsqK), value.BoolType, func(a []value.Value) (value.Value, error) {
		c, err := TSConfig(a[0])
		if err != nil {
			return value.Null, err
		}
		return value.NewBool(tsearch.Match(c.ToVector(textOf(a[1])), a[2].TSQuery())), nil
	})
	tsOp("@@", kinds(tsvecK, tsqK), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(tsearch.Match(a[0].TSVector(), a[1].TSQuery())), nil
	})
	tsOp("@@", kinds(tsqK, tsvecK), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(tsearch.Match(a[1].TSVector(), a[0].TSQuery())), nil
	})
	tsOp("||", kinds(tsvecK, tsvecK), tsvT, func(a []value.Value) (value.Value, error) {
		return tsVector(a[0].TSVector().Concat(a[1].TSVector())), nil
	})
	tsOp("||", kinds(tsqK, tsqK), tsqT, func(a []value.Value) (value.Value, error) {
		return tsQuery(tsCombine(a[0].TSQuery(), a[1].TSQuery(), tsearch.OpOr, 0)), nil
	})
	tsOp("@>", kinds(tsqK, tsqK), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(a[0].TSQuery().Contains(a[1].TSQuery())), nil
	})
	tsOp("<@", kinds(tsqK, tsqK), value.BoolType, func(a []value.Value) (value.Value, error) {
		return value.NewBool(a[1].TSQuery().Contains(a[0].TSQuery())), nil
	})
	tsOp("&&", kinds(tsqK, tsqK), tsqT, func(a []value.Value) (value.Value, error) {
		return tsQuery(tsCombine(a[0].TSQuery(), a[1].TSQuery(), tsearch.OpAnd, 0)), nil
	})
	tsOp("<->", kinds(tsqK, tsqK), tsqT, func(a []value.Value) (value.Value, error) {
		return tsQuery(tsCombine(a[0].TSQuery(), a[1].TSQuery(), tsearch.OpPhrase, 1)), nil
	})
	tsOp("!!", kinds(tsqK), tsqT, func(a []value.Value) (value.Value, error) {
		n := a[0].TSQuery().Tree()
		if n == nil {
			return a[0], nil
		}
		return tsQuery(tsearch.EncodeQuery(&tsearch.Node{Op: tsearch.OpNot, R: n})), nil
	})
	strict("tsquery_phrase", kinds(tsqK, tsqK), tsqT, func(a []value.Value) (value.Value, error) {
		return tsQuery(tsCombine(a[0].TSQuery(), a[1].TSQuery(), tsearch.OpPhrase, 1)), nil
	})
	strict("tsquery_phrase", kinds(tsqK, tsqK, value.Int4), tsqT, func(a []value.Value) (value.Value, error) {
		d := a[2].Int()
		if d < 0 || d > tsearch.MaxPos+1 {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "distance in phrase operator must be an integer value between zero and %d inclusive", tsearch.MaxPos+1)
		}
		return tsQuery(tsCombine(a[0].TSQuery(), a[1].TSQuery(), tsearch.OpPhrase, int(d))), nil
	})

	strict("setweight", kinds(tsvecK, textT), tsvT, func(a []value.Value) (value.Value, error) {
		w, err := tsWeight(a[1])
		if err != nil {
			return value.Null, err
		}
		return tsVector(a[0].TSVector().SetWeight(w, nil)), nil
	})
	strict("setweight", kinds(tsvecK, textT, textA), tsvT, func(a []value.Value) (value.Value, error) {
		w, err := tsWeight(a[1])
		if err != nil {
			return value.Null, err
		}
		ws, err := tsWords(a[2], true)
		if err != nil {
			return value.Null, err
		}
		return tsVector(a[0].TSVector().SetWeight(w, ws)), nil
	})
	strict("strip", kinds(tsvecK), tsvT, func(a []value.Value) (value.Value, error) {
		return tsVector(a[0].TSVector().Strip()), nil
	})
	strict("length", kinds(tsvecK), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int4, int64(a[0].TSVector().Len())), nil
	})
	strict("numnode", kinds(tsqK), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return value.NewInt(value.Int4, int64(a[0].TSQuery().Size())), nil
	})
	strict("querytree", kinds(tsqK), value.TextType, func(a []value.Value) (value.Value, error) {
		q := a[0].TSQuery()
		if q.Size() == 0 {
			return text(""), nil
		}
		n := tsearch.WithoutNot(q.Tree())
		if n == nil {
			return text("T"), nil
		}
		return text(string(tsearch.AppendTree(nil, n))), nil
	})
	strict("tsvector_to_array", kinds(tsvecK), value.ArrayType(textT), func(a []value.Value) (value.Value, error) {
		tv := a[0].TSVector()
		es := make([]value.Value, tv.Len())
		for i := range es {
			es[i] = text(tv.Word(i))
		}
		return value.NewArray(textA, es), nil
	})
	strict("array_to_tsvector", kinds(textA), tsvT, func(a []value.Value) (value.Value, error) {
		// Each element in turn, as PostgreSQL checks them: a NULL, then
		// an empty string.
		es := a[0].Elems()
		ws := make([]string, len(es))
		for i, e := range es {
			switch {
			case e.IsNull():
				return value.Null, pgerr.New("22004", "lexeme array may not contain nulls")
			case textOf(e) == "":
				return value.Null, pgerr.New("2200F", "lexeme array may not contain empty strings")
			}
			ws[i] = textOf(e)
		}
		return tsVector(tsearch.FromWords(ws)), nil
	})
	strict("ts_rewrite", kinds(tsqK, tsqK, tsqK), tsqT, func(a []value.Value) (value.Value, error) {
		return tsQuery(a[0].TSQuery().Rewrite(a[1].TSQuery(), a[2].TSQuery())), nil
	})
	// ts_rewrite(query, select) given the select's rows (the binder runs
	// the text): rows with a NULL target or substitute are skipped.
	strict("ts_rewrite", kinds(tsqK, value.ArrayOf(value.Record)), tsqT, func(a []value.Value) (value.Value, error) {
		var rules [][2]tsearch.Query
		for _, r := range a[1].Elems() {
			f := r.Fields()
			if r.IsNull() || f[0].IsNull() || f[1].IsNull() {
				continue
			}
			rules = append(rules, [2]tsearch.Query{f[0].TSQuery(), f[1].TSQuery()})
		}
		return tsQuery(a[0].TSQuery().RewriteEach(rules)), nil
	})
	strict("ts_delete", kinds(tsvecK, textT), tsvT, func(a []value.Value) (value.Value, error) {
		return tsVector(a[0].TSVector().Delete([]string{textOf(a[1])})), nil
	})
	strict("ts_delete", kinds(tsvecK, textA), tsvT, func(a []value.Value) (value.Value, error) {
		ws, err := tsWords(a[1], true)
		if err != nil {
			return value.Null, err
		}
		return tsVector(a[0].TSVector().Delete(ws)), nil
	})
	strict("ts_filter", kinds(tsvecK, textA), tsvT, func(a []value.Value) (value.Value, error) {
		mask := 0
		for _, e := range a[1].Elems() {
			if e.IsNull() {
				return value.Null, pgerr.New("22004", "weight array may not contain nulls")
			}
			s := textOf(e)
			c := byte(0)
			if s != "" {
				c = s[0]
			}
			w, ok := tsearch.WeightOf(c)
			if !ok {
				return value.Null, pgerr.New(pgerr.InvalidParameter, "unrecognized weight: \"%c\"", c)
			}
			mask |= 1 << w
		}
		return tsVector(a[0].TSVector().Filter(mask)), nil
	})

	f4a := value.ArrayOf(value.Float4)
	for name, f := range map[string]func(*[4]float32, tsearch.Vector, tsearch.Query, int32) float32{
		"ts_rank": tsearch.Rank, "ts_rank_cd": tsearch.RankCD,
	} {
		rank := func(ws *[4]float32, a []value.Value, method int32) value.Value {
			return value.NewFloat(value.Float4, float64(f(ws, a[0].TSVector(), a[1].TSQuery(), method)))
		}
		strict(name, kinds(tsvecK, tsqK), value.Float4Type, func(a []value.Value) (value.Value, error) {
			return rank(&tsearch.DefaultWeights, a, 0), nil
		})
		strict(name, kinds(tsvecK, tsqK, value.Int4), value.Float4Type, func(a []value.Value) (value.Value, error) {
			return rank(&tsearch.DefaultWeights, a, int32(a[2].Int())), nil
		})
		strict(name, kinds(f4a, tsvecK, tsqK), value.Float4Type, func(a []value.Value) (value.Value, error) {
			ws, err := rankWeights(a[0])
			if err != nil {
				return value.Null, err
			}
			return rank(&ws, a[1:], 0), nil
		})
		strict(name, kinds(f4a, tsvecK, tsqK, value.Int4), value.Float4Type, func(a []value.Value) (value.Value, error) {
			ws, err := rankWeights(a[0])
			if err != nil {
				return value.Null, err
			}
			return rank(&ws, a[1:], int32(a[3].Int())), nil
		})
	}
}

// rankWeights reads ts_rank's array of weights.
func rankWeights(v value.Value) ([4]float32, error) {
	es := v.Elems()
	fs := make([]float32, len(es))
	hasNull := false
	for i, e := range es {
		if e.IsNull() {
			hasNull = true
			continue
		}
		fs[i] = float32(e.Float())
	}
	ws, err := tsearch.CheckWeights(fs, hasNull, v.NDims())
	return ws, value.TextSearchError(err)
}
