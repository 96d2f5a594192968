package expr

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// PostgreSQL's regular-expression functions that return the matched text
// as arrays or rows: regexp_match and regexp_split_to_array (scalars), and
// the set-returning regexp_matches and regexp_split_to_table (resolved by
// ResolveSRF). They find matches as the other regexp_* functions do
// (funcs_regexp.go), with the same refusals.
func init() {
	T := value.Text
	textArray := value.ArrayType(T)
	match := func(a []value.Value) (value.Value, error) {
		re, err := pgRegexUnder("regexp_match", rawText(a[1]), flagsArg(a, 2), false, regexICU(a))
		if err != nil {
			return value.Null, err
		}
		s := rawText(a[0])
		m, err := re.nth(s, 0, 1)
		if err != nil || m == nil {
			return value.Null, err
		}
		return matchArray(s, m), nil
	}
	strict("regexp_match", kinds(T, T), textArray, match)
	strict("regexp_match", kinds(T, T, T), textArray, match)

	split := func(a []value.Value) (value.Value, error) {
		var parts []value.Value
		err := regexpSplit("regexp_split_to_array", a, func(p string) error {
			parts = append(parts, text(p))
			return nil
		})
		if err != nil {
			return value.Null, err
		}
		return value.NewArray(textArray.Kind, parts), nil
	}
	strict("regexp_split_to_array", kinds(T, T), textArray, split)
	strict("regexp_split_to_array", kinds(T, T, T), textArray, split)
}

func flagsArg(a []value.Value, i int) string {
	if i < len(a) {
		return rawText(a[i])
	}
	return ""
}

// matchArray is regexp_match's result for the match m in s: the
// text of each parenthesized subexpression (NULL where it took no part),
// or the whole match when there is none.
func matchArray(s string, m []int) value.Value {
	if len(m) == 2 {
		return value.NewArray(value.ArrayOf(value.Text), []value.Value{text(s[m[0]:m[1]])})
	}
	out := make([]value.Value, len(m)/2-1)
	for i := range out {
		if lo, hi := m[2*i+2], m[2*i+3]; lo >= 0 {
			out[i] = text(s[lo:hi])
		}
	}
	return value.NewArray(value.ArrayOf(value.Text), out)
}

// regexpSplit passes emit the parts of a[0] between the matches of the
// pattern a[1] (flags a[2]), as PostgreSQL splits: a match counts unless it
// is empty at the start, at the end or right after the previous match, or
// begins at the end.
func regexpSplit(fn string, a []value.Value, emit func(string) error) error {
	re, err := pgRegexUnder(fn, rawText(a[1]), flagsArg(a, 2), true, regexICU(a))
	if err != nil {
		return err
	}
	if re.global {
		return pgerr.New(pgerr.InvalidParameter, "%s() does not support the \"global\" option", fn)
	}
	s := rawText(a[0])
	ms, err := re.findAll(s, 0, -1)
	if err != nil {
		return err
	}
	start, prevEnd := 0, 0
	for _, m := range ms {
		if m[0] < len(s) && m[1] > prevEnd {
			if err := emit(s[start:m[0]]); err != nil {
				return err
			}
			start = m[1]
		}
		prevEnd = m[1]
	}
	return emit(s[start:])
}

// resolveRegexpSRF types regexp_matches(s, p [, flags]), rows of text[]
// (one row, the first match, unless flags hold g),
// regexp_split_to_table(s, p [, flags]), rows of text, and
// string_to_table(s, delimiter [, null_string]), rows of text.
func resolveRegexpSRF(name string, args []Expr, missing func() error) (*SRF, error) {
	if len(args) < 2 || len(args) > 3 {
		return nil, missing()
	}
	if name != "string_to_table" && ciRegexpSRF(args) {
		text := make([]Expr, len(args))
		for i, a := range args {
			c, err := Coerce(a, value.TextType, false)
			if err != nil {
				return nil, missing()
			}
			text[i] = c
		}
		f, err := resolveRegexpSRF(name, text, missing)
		if err != nil {
			return nil, err
		}
		gen := f.Gen // the citext extension's overload: case-insensitive flags
		f.Gen = func(a []value.Value, emit func(value.Row) error) error {
			if anyNull(a) {
				return nil
			}
			return gen(ciArgs(a, 2), emit)
		}
		return f, nil
	}
	out := make([]Expr, len(args))
	for i, a := range args {
		c, err := Coerce(a, value.TextType, false)
		if err != nil {
			return nil, missing()
		}
		out[i] = c
	}
	f := &SRF{Name: name, Args: out}
	if name == "string_to_table" {
		// string_to_array's elements, a row each.
		f.Cols = []value.Type{value.TextType}
		f.Gen = func(a []value.Value, emit func(value.Row) error) error {
			arr, err := stringToArray(a)
			if err != nil || arr.IsNull() {
				return err
			}
			for _, e := range arr.Elems() {
				if err := emit(value.Row{e}); err != nil {
					return err
				}
			}
			return nil
		}
		return f, nil
	}
	if name == "regexp_split_to_table" {
		f.Cols = []value.Type{value.TextType}
		f.Gen = func(a []value.Value, emit func(value.Row) error) error {
			if anyNull(a) {
				return nil
			}
			return regexpSplit(name, a, func(p string) error { return emit(value.Row{text(p)}) })
		}
		return f, nil
	}
	f.Cols = []value.Type{value.ArrayType(value.Text)}
	f.Gen = func(a []value.Value, emit func(value.Row) error) error {
		if anyNull(a) {
			return nil
		}
		re, err := pgRegexUnder(name, rawText(a[1]), flagsArg(a, 2), true, regexICU(a))
		if err != nil {
			return err
		}
		s := rawText(a[0])
		ms, err := re.findAll(s, 0, -1)
		if err != nil {
			return err
		}
		if !re.global && len(ms) > 1 {
			ms = ms[:1]
		}
		for _, m := range ms {
			if err := emit(value.Row{matchArray(s, m)}); err != nil {
				return err
			}
		}
		return nil
	}
	return f, nil
}

func anyNull(a []value.Value) bool {
	for _, v := range a {
		if v.IsNull() {
			return true
		}
	}
	return false
}
