package expr

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The names under which PostgreSQL's catalog also offers functions that
// are here under their documented names or as operators (textlen,
// dexp, numeric_sqrt, int4inc, like, notlike, …), and small functions of
// its catalog besides: like_escape, similar_to_escape, similar_escape,
// timestamp(date, time), timestamptz(date, time[tz]), make_timestamptz,
// array_to_json(a, pretty), jsonb_set_lax and width_bucket(x, thresholds).
func init() {
	T, F8, N, I4 := value.Text, value.Float8, value.Numeric, value.Int4
	alias := func(name, of string, params []value.Kind, result value.Type) {
		strict(name, params, result, sameAs(of, params))
	}
	alias("textlen", "length", kinds(T), value.Int4Type)
	alias("dexp", "exp", kinds(F8), value.Float8Type)
	alias("dlog1", "ln", kinds(F8), value.Float8Type)
	alias("dlog10", "log10", kinds(F8), value.Float8Type)
	alias("dround", "round", kinds(F8), value.Float8Type)
	alias("dtrunc", "trunc", kinds(F8), value.Float8Type)
	alias("numeric_exp", "exp", kinds(N), value.NumericType)
	alias("numeric_ln", "ln", kinds(N), value.NumericType)
	alias("numeric_sqrt", "sqrt", kinds(N), value.NumericType)
	alias("numeric_log", "log", kinds(N, N), value.NumericType)
	alias("numeric_div_trunc", "div", kinds(N, N), value.NumericType)
	strict("int4inc", kinds(I4), value.Int4Type, func(a []value.Value) (value.Value, error) {
		return value.Add(a[0], value.NewInt(I4, 1))
	})
	strict("numeric_inc", kinds(N), value.NumericType, func(a []value.Value) (value.Value, error) {
		one, err := value.Cast(value.NewInt(I4, 1), value.NumericType, false)
		if err != nil {
			return value.Null, err
		}
		return value.Add(a[0], one)
	})

	// like(s, p) and notlike(s, p) are s [NOT] LIKE p, with the escape \.
	like := func(not, bytea bool) func(a []value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			s, p := rawText(a[0]), rawText(a[1])
			if bytea {
				s, p = byteChars(a[0].Str()), byteChars(a[1].Str())
			}
			m, err := compileLike(p, `\`, noFold)
			if err != nil {
				return value.Null, err
			}
			matched := m.match(s)
			if m.dangling {
				if matched {
					return value.Null, pgerr.New(pgerr.InvalidEscape, "LIKE pattern must not end with escape character")
				}
				return boolValue(not), nil
			}
			return boolValue(matched != not), nil
		}
	}
	strict("like", kinds(T, T), value.BoolType, like(false, false))
	strict("notlike", kinds(T, T), value.BoolType, like(true, false))
	strict("like", kinds(value.Bytea, value.Bytea), value.BoolType, like(false, true))
	strict("notlike", kinds(value.Bytea, value.Bytea), value.BoolType, like(true, true))
	strict("like_escape", kinds(T, T), value.TextType, func(a []value.Value) (value.Value, error) {
		p, err := likeEscape(rawText(a[0]), rawText(a[1]))
		return text(p), err
	})
	strict("like_escape", kinds(value.Bytea, value.Bytea), value.ByteaType, func(a []value.Value) (value.Value, error) {
		// Byte by byte: a multi-byte escape is an error, as there.
		p, err := likeEscapeBytes(a[0].Str(), a[1].Str())
		return value.NewBytea([]byte(p)), err
	})

	// similar_to_escape(p[, esc]) is the regular expression SIMILAR TO
	// matches; similar_escape is its older spelling, where a NULL escape
	// means none.
	similar := func(a []value.Value) (value.Value, error) {
		esc := `\`
		if len(a) > 1 {
			esc = rawText(a[1])
		}
		re, err := SimilarToRegex(rawText(a[0]), esc)
		return text(re), err
	}
	strict("similar_to_escape", kinds(T), value.TextType, similar)
	strict("similar_to_escape", kinds(T, T), value.TextType, similar)
	register(&FuncDef{Name: "similar_escape", Params: kinds(T, T), Result: value.TextType, Eval: func(a []value.Value) (value.Value, error) {
		if a[0].IsNull() {
			return value.Null, nil
		}
		if a[1].IsNull() {
			return similar([]value.Value{a[0], text("")})
		}
		return similar(a)
	}})

	// timestamp(date, time) and timestamptz(date, time[tz]) are date +
	// time, read in UTC for timestamptz here and in the session's time
	// zone through ZoneFuncOf.
	dateTime := func(tz bool) func(a []value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			v, err := value.Add(a[0], a[1])
			if err != nil || !tz {
				return v, err
			}
			return value.Cast(v, value.TimestampTZType, true)
		}
	}
	strict("timestamp", kinds(value.Date, value.Time), value.TimestampType, dateTime(false))
	strict("timestamptz", kinds(value.Date, value.Time), value.TimestampTZType, dateTime(true))
	strict("timestamptz", kinds(value.Date, value.TimeTZ), value.TimestampTZType, dateTime(true))

	// make_timestamptz is make_timestamp read in the session's time zone,
	// or in the zone given.
	makeTS := sameAs("make_timestamp", kinds(I4, I4, I4, I4, I4, F8))
	strict("make_timestamptz", kinds(I4, I4, I4, I4, I4, F8), value.TimestampTZType, func(a []value.Value) (value.Value, error) {
		ts, err := makeTS(a)
		if err != nil {
			return value.Null, err
		}
		return value.Cast(ts, value.TimestampTZType, true)
	})
	inZone := sameAs("timezone", kinds(T, value.Timestamp))
	strict("make_timestamptz", kinds(I4, I4, I4, I4, I4, F8, T), value.TimestampTZType, func(a []value.Value) (value.Value, error) {
		ts, err := makeTS(a[:6])
		if err != nil {
			return value.Null, err
		}
		// A numeric zone is ISO's, hours east of UTC, where timezone()
		// reads POSIX's, hours west.
		zone := rawText(a[6])
		switch {
		case zone != "" && zone[0] >= '0' && zone[0] <= '9':
			return value.Null, pgerr.New(pgerr.InvalidParameter, "invalid input syntax for numeric time zone: \"%s\"", zone).
				WithHint("Numeric time zones must have \"-\" or \"+\" as first character.")
		case strings.HasPrefix(zone, "+"):
			zone = "-" + zone[1:]
		case strings.HasPrefix(zone, "-"):
			zone = "+" + zone[1:]
		}
		return inZone([]value.Value{text(zone), ts})
	})

	// array_to_json(a, pretty): with pretty, a line feed after each comma
	// between the elements of the outer dimension.
	strict("array_to_json", kinds(value.Unknown, value.Bool), value.JSONType, func(a []value.Value) (value.Value, error) {
		if !a[0].Kind().IsArray() {
			return value.Null, pgerr.New(pgerr.InvalidParameter, "could not determine input data type")
		}
		j := AppendToJSON(nil, a[0])
		if a[1].Bool() {
			j = jsonOuterLineFeeds(j)
		}
		return value.NewJSON(string(j)), nil
	})

	// jsonb_set_lax is jsonb_set, with a NULL new value treated as
	// null_value_treatment says.
	jsonbT := value.JSONB
	textA := value.ArrayOf(T)
	set := sameAs("jsonb_set", kinds(jsonbT, textA, jsonbT, value.Bool))
	setLax := func(a []value.Value) (value.Value, error) {
		create, treat := value.NewBool(true), text("use_json_null")
		if len(a) > 3 {
			create = a[3]
		}
		if len(a) > 4 {
			treat = a[4]
		}
		if !a[2].IsNull() {
			if a[0].IsNull() || a[1].IsNull() || create.IsNull() {
				return value.Null, nil
			}
			return set([]value.Value{a[0], a[1], a[2], create})
		}
		badTreat := pgerr.New(pgerr.InvalidParameter, `null_value_treatment must be "delete_key", "return_target", "use_json_null", or "raise_exception"`)
		if treat.IsNull() {
			return value.Null, badTreat
		}
		if a[0].IsNull() || a[1].IsNull() {
			return value.Null, nil
		}
		switch rawText(treat) {
		case "raise_exception":
			return value.Null, pgerr.New("22004", "JSON value must not be null").
				WithDetail(`Exception was raised because null_value_treatment is "raise_exception".`).
				WithHint("To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed.")
		case "use_json_null":
			if create.IsNull() {
				return value.Null, nil
			}
			null, err := value.Cast(text("null"), value.JSONBType, true)
			if err != nil {
				return value.Null, err
			}
			return set([]value.Value{a[0], a[1], null, create})
		case "delete_key":
			return jsonbDeletePath(a[0].JSONB(), a[1].Elems())
		case "return_target":
			return a[0], nil
		}
		return value.Null, badTreat
	}
	register(&FuncDef{Name: "jsonb_set_lax", Params: kinds(jsonbT, textA, jsonbT), Result: value.JSONBType, Eval: setLax})
	register(&FuncDef{Name: "jsonb_set_lax", Params: kinds(jsonbT, textA, jsonbT, value.Bool), Result: value.JSONBType, Eval: setLax})
	register(&FuncDef{Name: "jsonb_set_lax", Params: kinds(jsonbT, textA, jsonbT, value.Bool, T), Result: value.JSONBType, Eval: setLax})

	// width_bucket(x, thresholds): how many of the sorted thresholds are
	// at most x, found by PostgreSQL's binary search.
	polyStrict("width_bucket", []poly{pElem, pArray}, intResult, func(a []value.Value) (value.Value, error) {
		if a[1].NDims() > 1 {
			return value.Null, pgerr.New("2202E", "thresholds must be one-dimensional array")
		}
		th := a[1].Elems()
		if slices.ContainsFunc(th, value.Value.IsNull) {
			return value.Null, pgerr.New("22004", "thresholds array must not contain NULLs")
		}
		left, right := 0, len(th)
		for left < right {
			mid := (left + right) / 2
			if value.Compare(a[0], th[mid]) < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		return ints(int64(left)), nil
	})
}

// sameAs returns the Eval of the signature of name with params, looked up
// at the first call (when every init has registered its functions).
func sameAs(name string, params []value.Kind) func([]value.Value) (value.Value, error) {
	var once sync.Once
	var def *FuncDef
	return func(a []value.Value) (value.Value, error) {
		once.Do(func() {
			for _, d := range catalog[name] {
				if slices.Equal(d.Params, params) {
					def = d
				}
			}
		})
		if def == nil {
			return value.Null, pgerr.New(pgerr.Internal, "%s%v is not in the catalog", name, params)
		}
		return def.Eval(a)
	}
}

// byteChars reads bytes as text of one character per byte (its code
// point), as LIKE on bytea matches.
func byteChars(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// likeEscape rewrites a LIKE pattern written with the escape esc into one
// written with \, as PostgreSQL's like_escape: each esc becomes \, and a
// \ is doubled unless it follows an escape; an empty esc means none (each
// \ is doubled), more than one character is 22025.
func likeEscape(p, esc string) (string, error) {
	switch utf8.RuneCountInString(esc) {
	case 0:
		return strings.ReplaceAll(p, `\`, `\\`), nil
	case 1:
	default:
		return "", pgerr.New(pgerr.InvalidEscape, "invalid escape string").WithHint("Escape string must be empty or one character.")
	}
	e, _ := utf8.DecodeRuneInString(esc)
	var b strings.Builder
	after := false
	for _, c := range p {
		switch {
		case c == e && !after:
			b.WriteByte('\\')
			after = true
		case c == '\\':
			b.WriteByte('\\')
			if !after {
				b.WriteByte('\\')
			}
			after = false
		default:
			b.WriteRune(c)
			after = false
		}
	}
	return b.String(), nil
}

// likeEscapeBytes is likeEscape on bytes.
func likeEscapeBytes(p, esc string) (string, error) {
	switch len(esc) {
	case 0:
		return strings.ReplaceAll(p, `\`, `\\`), nil
	case 1:
	default:
		return "", pgerr.New(pgerr.InvalidEscape, "invalid escape string").WithHint("Escape string must be empty or one character.")
	}
	var b strings.Builder
	after := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == esc[0] && !after:
			b.WriteByte('\\')
			after = true
		case c == '\\':
			b.WriteByte('\\')
			if !after {
				b.WriteByte('\\')
			}
			after = false
		default:
			b.WriteByte(c)
			after = false
		}
	}
	return b.String(), nil
}

// jsonOuterLineFeeds puts ",\n " in place of each comma between the
// elements of a JSON array's outer level, as array_to_json's pretty.
func jsonOuterLineFeeds(j []byte) []byte {
	out := make([]byte, 0, len(j)+8)
	depth, inStr, esc := 0, false, false
	for _, c := range j {
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		case c == ',' && depth == 1:
			out = append(out, ",\n "...)
			continue
		}
		out = append(out, c)
	}
	return out
}
