package expr

import (
	"math"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/tsearch"
	"github.com/deltaview/deltaview/internal/value"
)

// TSMatchCall is text @@ text in an ad-hoc statement:
// to_tsvector(cfg, L) @@ plainto_tsquery(cfg, R), where cfg is the
// default_text_search_config setting of the session that runs it, read
// through the statement's clock.
type TSMatchCall struct {
	C    *StmtClock
	L, R Expr
}

var _ Expr = (*TSMatchCall)(nil)

func (c *TSMatchCall) Type() value.Type { return value.BoolType }
func (c *TSMatchCall) Volatile() bool   { return true }
func (*TSMatchCall) expr()              {}

func (c *TSMatchCall) String() string { return operand(c.L) + " @@ " + operand(c.R) }

// Eval implements Expr.
func (c *TSMatchCall) Eval(row value.Row) (value.Value, error) {
	l, err := c.L.Eval(row)
	if err != nil || l.IsNull() {
		return value.Null, err
	}
	r, err := c.R.Eval(row)
	if err != nil || r.IsNull() {
		return value.Null, err
	}
	if c.C == nil || c.C.Settings == nil {
		return value.Value{}, pgerr.New(pgerr.FeatureNotSupported, "settings are read in a session's statements only")
	}
	name, _, err := c.C.Settings.Setting("default_text_search_config", false)
	if err != nil {
		return value.Value{}, err
	}
	n, _, _ := tsearch.ResolveName(name)
	cfg := tsearch.LookupConfig(n)
	if cfg == nil {
		return value.Value{}, pgerr.New(pgerr.FeatureNotSupported, "text search configuration %q is not supported", name)
	}
	return value.NewBool(cfg.Match(textOf(l), textOf(r))), nil
}

// resolveTSearchSRF types ts_token_type(parser) and ts_parse(parser,
// document), where parser is the default parser's name or oid.
func resolveTSearchSRF(name string, args []Expr, missing func() error) (*SRF, error) {
	want := 1
	if name == "ts_parse" {
		want = 2
	}
	if len(args) != want {
		return nil, missing()
	}
	out := make([]Expr, len(args))
	byOID := args[0].Type().Kind.IsInteger()
	for i, a := range args {
		t := value.TextType
		if i == 0 && byOID {
			t = value.Int8Type
		}
		c, err := Coerce(a, t, false)
		switch {
		case err != nil && a.Type().Kind == value.Unknown:
			return nil, err // a literal's input failed: an unknown configuration
		case err != nil:
			return nil, missing()
		}
		out[i] = c
	}
	f := &SRF{Name: name, Args: out}
	if name == "ts_token_type" {
		f.Cols = []value.Type{value.Int4Type, value.TextType, value.TextType}
		f.Names = []string{"tokid", "alias", "description"}
		f.Gen = func(a []value.Value, emit func(value.Row) error) error {
			if a[0].IsNull() {
				return nil
			}
			if err := defaultParser(a[0], byOID); err != nil {
				return err
			}
			for i, t := range tsearch.TokenTypes {
				if err := emit(value.Row{value.NewInt(value.Int4, int64(i+1)), text(t.Alias), text(t.Description)}); err != nil {
					return err
				}
			}
			return nil
		}
		return f, nil
	}
	f.Cols = []value.Type{value.Int4Type, value.TextType}
	f.Names = []string{"tokid", "token"}
	f.Gen = func(a []value.Value, emit func(value.Row) error) error {
		if anyNull(a) {
			return nil
		}
		if err := defaultParser(a[0], byOID); err != nil {
			return err
		}
		var err error
		tsearch.Parse(textOf(a[1]), func(t tsearch.Token) {
			if err == nil {
				err = emit(value.Row{value.NewInt(value.Int4, int64(t.Type)), text(t.Text)})
			}
		})
		return err
	}
	return f, nil
}

// defaultParser checks that p names (or, byOID, numbers) the default
// parser, the only one.
func defaultParser(p value.Value, byOID bool) error {
	if byOID {
		n := p.Int()
		if n < math.MinInt32 || n > math.MaxUint32 {
			return pgerr.New(pgerr.NumericOutOfRange, "OID out of range")
		}
		if n < 0 {
			n += 1 << 32 // an integer read as an oid
		}
		if n != tsearch.DefaultParserOID {
			return pgerr.New("XX000", "cache lookup failed for text search parser %s", strconv.FormatInt(n, 10))
		}
		return nil
	}
	name, full, err := TextSearchName(textOf(p))
	if err != nil {
		return err
	}
	if name != "default" {
		return pgerr.New(pgerr.UndefinedObject, "text search parser %q does not exist", full)
	}
	return nil
}

// TextSearchName reads the name of a built-in text search object (parser,
// dictionary, configuration) given as text; name is its name within
// pg_catalog ("" in another schema), full the name as messages print it.
func TextSearchName(s string) (name, full string, err error) {
	name, full, err = tsearch.ResolveName(s)
	switch err {
	case tsearch.ErrNameSyntax:
		return "", "", pgerr.New("42602", "invalid name syntax")
	case tsearch.ErrCrossDatabase:
		return "", "", pgerr.New(pgerr.FeatureNotSupported, "cross-database references are not implemented: %s", full)
	case tsearch.ErrTooManyDots:
		return "", "", pgerr.New(pgerr.SyntaxError, "improper qualified name (too many dotted names): %s", full)
	}
	return name, full, nil
}

func init() {
	// ts_lexize(dictionary, token): the lexemes of a dictionary, {} for a
	// stop word.
	strict("ts_lexize", kinds(value.Text, value.Text), value.ArrayType(value.Text), func(a []value.Value) (value.Value, error) {
		d, err := dictionary(textOf(a[0]))
		if err != nil {
			return value.Null, err
		}
		var lexemes []value.Value
		if l, ok := d.Lexize(textOf(a[1])); ok {
			lexemes = []value.Value{text(l)}
		}
		return value.NewArray(value.ArrayOf(value.Text), lexemes), nil
	})
}

// dictionary finds a text search dictionary by name: simple and
// english_stem; PostgreSQL's other stemmers are 0A000.
func dictionary(s string) (tsearch.Dict, error) {
	n, full, err := TextSearchName(s)
	if err != nil {
		return 0, err
	}
	switch n {
	case "simple":
		return tsearch.Simple, nil
	case "english_stem":
		return tsearch.EnglishStem, nil
	}
	if lang, ok := strings.CutSuffix(n, "_stem"); ok && tsearch.IsSnowballLanguage(lang) {
		return 0, pgerr.New(pgerr.FeatureNotSupported, "text search dictionary %q is not supported", n).
			WithHint("the simple and english_stem dictionaries are supported")
	}
	return 0, pgerr.New(pgerr.UndefinedObject, "text search dictionary %q does not exist", full)
}

// TSDefaultCall is a text search function called without a configuration
// in an ad-hoc statement: Def called with the session's
// default_text_search_config, read through the statement's clock, before
// Args. With a nil Def it is get_current_ts_config().
type TSDefaultCall struct {
	C    *StmtClock
	Name string
	Def  *FuncDef
	Args []Expr
	T    value.Type
}

var _ Expr = (*TSDefaultCall)(nil)

func (c *TSDefaultCall) Type() value.Type {
	if c.Def == nil {
		return value.RegConfigType
	}
	return c.T
}
func (c *TSDefaultCall) Volatile() bool { return true }
func (*TSDefaultCall) expr()            {}

func (c *TSDefaultCall) String() string {
	if c.Name == "@@" {
		return operand(c.Args[0]) + " @@ " + operand(c.Args[1])
	}
	return c.Name + "(" + list(c.Args) + ")"
}

// Eval implements Expr.
func (c *TSDefaultCall) Eval(row value.Row) (value.Value, error) {
	if c.C == nil || c.C.Settings == nil {
		return value.Value{}, pgerr.New(pgerr.FeatureNotSupported, "settings are read in a session's statements only")
	}
	name, _, err := c.C.Settings.Setting("default_text_search_config", false)
	if err != nil {
		return value.Value{}, err
	}
	if c.Def == nil {
		return value.Parse(name, value.RegConfigType)
	}
	args := make([]value.Value, 1, 1+len(c.Args))
	args[0] = text(name)
	for _, a := range c.Args {
		v, err := a.Eval(row)
		if err != nil {
			return value.Null, err
		}
		if v.IsNull() {
			return value.Null, nil
		}
		args = append(args, v)
	}
	return c.Def.Eval(args)
}

// unnestTSVector is unnest(tsvector): a row per lexeme, (lexeme text,
// positions smallint[], weights text[]); positions and weights are NULL
// for a lexeme without positions (a stripped vector's).
func unnestTSVector(args []Expr) *SRF {
	return &SRF{Name: "unnest", Args: args,
		Cols:  []value.Type{value.TextType, value.ArrayType(value.Int2), value.ArrayType(value.Text)},
		Names: []string{"lexeme", "positions", "weights"},
		Gen: func(a []value.Value, emit func(value.Row) error) error {
			if a[0].IsNull() {
				return nil
			}
			v := a[0].TSVector()
			var buf []tsearch.Pos
			for i := 0; i < v.Len(); i++ {
				row := value.Row{text(v.Word(i)), value.Null, value.Null}
				if v.HasPos(i) {
					buf = v.Positions(i, buf[:0])
					ps, ws := make([]value.Value, len(buf)), make([]value.Value, len(buf))
					for j, p := range buf {
						ps[j] = value.NewInt(value.Int2, int64(p.Position()))
						ws[j] = text(string("DCBA"[p.Weight()]))
					}
					row[1] = value.NewArray(value.ArrayOf(value.Int2), ps)
					row[2] = value.NewArray(value.ArrayOf(value.Text), ws)
				}
				if err := emit(row); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// unnestZip is unnest(a, b, …) in FROM with a tsvector among its
// arguments: PostgreSQL's ROWS FROM (unnest(a), unnest(b), …), each call's
// rows side by side, padded with NULLs past its last.
func unnestZip(args []Expr) (*SRF, error) {
	f := &SRF{Name: "unnest", Args: args}
	parts := make([]*SRF, len(args))
	for i, a := range args {
		p, err := ResolveSRF("unnest", []Expr{a})
		if err != nil {
			return nil, err
		}
		parts[i] = p
		f.Cols = append(f.Cols, p.Cols...)
		if p.Names != nil {
			f.Names = append(f.Names, p.Names...)
		} else {
			f.Names = append(f.Names, "unnest")
		}
	}
	f.Gen = func(a []value.Value, emit func(value.Row) error) error {
		var rows []value.Row
		at := 0
		for i, p := range parts {
			n := 0
			err := p.Gen(a[i:i+1], func(r value.Row) error {
				if n == len(rows) {
					rows = append(rows, make(value.Row, len(f.Cols)))
				}
				copy(rows[n][at:], r)
				n++
				return nil
			})
			if err != nil {
				return err
			}
			at += len(p.Cols)
		}
		for _, r := range rows {
			if err := emit(r); err != nil {
				return err
			}
		}
		return nil
	}
	return f, nil
}

var tsDebugNames = []string{"alias", "description", "token", "dictionaries", "dictionary", "lexemes"}

// resolveTSDebug types ts_debug(config, document): a row per token of the
// document, with the dictionaries the configuration gives its type (as
// text; PostgreSQL's regdictionary), the one that recognized it and its
// lexemes ({} for a stop word; NULL where no dictionary applies). The
// binder passes the session's configuration to the one-argument form.
func resolveTSDebug(args []Expr, missing func() error) (*SRF, error) {
	if len(args) != 2 {
		return nil, missing()
	}
	out := make([]Expr, 2)
	for i, a := range args {
		t := value.TextType
		if i == 0 {
			t = value.RegConfigType
		}
		c, err := Coerce(a, t, false)
		switch {
		case err != nil && a.Type().Kind == value.Unknown:
			return nil, err // a literal's input failed: an unknown configuration
		case err != nil:
			return nil, missing()
		}
		out[i] = c
	}
	textA, textAK := value.ArrayType(value.Text), value.ArrayOf(value.Text)
	return &SRF{Name: "ts_debug", Args: out,
		Cols:  []value.Type{value.TextType, value.TextType, value.TextType, textA, value.TextType, textA},
		Names: tsDebugNames,
		Gen: func(a []value.Value, emit func(value.Row) error) error {
			if anyNull(a) {
				return nil
			}
			cfg, err := TSConfig(a[0])
			if err != nil {
				return err
			}
			tsearch.Parse(textOf(a[1]), func(t tsearch.Token) {
				if err != nil {
					return
				}
				tt := tsearch.TokenTypes[t.Type-1]
				row := value.Row{text(tt.Alias), text(tt.Description), text(t.Text), value.NewArray(textAK, nil), value.Null, value.Null}
				if d := cfg.Dict(t.Type); d != tsearch.NoDict {
					row[3] = value.NewArray(textAK, []value.Value{text(d.String())})
					row[4] = text(d.String())
					var lexemes []value.Value
					if l, ok := d.Lexize(t.Text); ok {
						lexemes = []value.Value{text(l)}
					}
					row[5] = value.NewArray(textAK, lexemes)
				}
				err = emit(row)
			})
			return err
		},
	}, nil
}

var tsStatNames = []string{"word", "ndoc", "nentry"}

// resolveTSStat types ts_stat(vectors [, weights]) as the binder calls it,
// the vectors being the rows of ts_stat's query text: (word text, ndoc
// int, nentry int) per lexeme, in lexeme order.
func resolveTSStat(args []Expr, missing func() error) (*SRF, error) {
	if len(args) < 1 || len(args) > 2 || args[0].Type().Kind != value.ArrayOf(value.TSVector) {
		return nil, missing()
	}
	if len(args) == 2 {
		w, err := Coerce(args[1], value.TextType, false)
		if err != nil {
			return nil, missing()
		}
		args = []Expr{args[0], w}
	}
	return &SRF{Name: "ts_stat", Args: args, Names: tsStatNames,
		Cols: []value.Type{value.TextType, value.Int4Type, value.Int4Type},
		Gen: func(a []value.Value, emit func(value.Row) error) error {
			mask := 0
			for _, v := range a {
				if v.IsNull() {
					return nil
				}
			}
			if len(a) == 2 {
				mask = tsearch.StatWeights(textOf(a[1]))
			}
			var vs []tsearch.Vector
			for _, e := range a[0].Elems() {
				if !e.IsNull() {
					vs = append(vs, e.TSVector())
				}
			}
			for _, s := range tsearch.Stat(vs, mask) {
				if err := emit(value.Row{text(s.Word), value.NewInt(value.Int4, int64(s.NDoc)), value.NewInt(value.Int4, int64(s.NEntry))}); err != nil {
					return err
				}
			}
			return nil
		}}, nil
}
