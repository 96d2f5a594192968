package expr

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// quote_ident, quote_literal and format(fmt, …): PostgreSQL's quoting of
// identifiers and literals, and its format specifiers %s, %I, %L and %%,
// with an argument position (%2$s), the flag - and a width (a number, *
// or *n$).
func init() {
	register(&FuncDef{Name: "format", Params: kinds(value.Text, value.Unknown), Variadic: true, Result: value.TextType, Eval: format})
	register(&FuncDef{Name: "format", Params: kinds(value.Text), Result: value.TextType, Eval: format})
}

// quoteLiteral quotes s as a string literal, E'…' when it holds a
// backslash.
func quoteLiteral(s []byte) string {
	str := string(s)
	q := "'" + strings.ReplaceAll(str, "'", "''") + "'"
	if strings.Contains(str, `\`) {
		q = "E'" + strings.ReplaceAll(strings.ReplaceAll(str, `\`, `\\`), "'", "''") + "'"
	}
	return q
}

// quoteIdent quotes s unless it is a lowercase identifier that is not a
// keyword PostgreSQL reserves in some context.
func quoteIdent(s string) string {
	safe := s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] == '_')
	for i := 0; safe && i < len(s); i++ {
		c := s[i]
		safe = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_'
	}
	if safe && !reservedKeyword[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// reservedKeyword holds PostgreSQL 15's keywords that are not unreserved
// (reserved, column-name and type-or-function-name keywords): an
// identifier spelt like one must be quoted.
var reservedKeyword = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		all analyse analyze and any array as asc asymmetric both case cast check collate column constraint
		create current_catalog current_date current_role current_time current_timestamp current_user default
		deferrable desc distinct do else end except false fetch for foreign from grant group having in
		initially intersect into lateral leading limit localtime localtimestamp not null offset on only or
		order placing primary references returning select session_user some symmetric table then to
		trailing true union unique user using variadic when where window with
		authorization binary collation concurrently cross current_schema freeze full ilike inner is isnull
		join left like natural notnull outer overlaps right similar tablesample verbose
		between bigint bit boolean char character coalesce dec decimal exists extract float greatest
		grouping inout int integer interval least national nchar none normalize nullif numeric out overlay
		position precision real row setof smallint substring time timestamp treat trim values varchar
		xmlattributes xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot
		xmlserialize xmltable`) {
		m[w] = true
	}
	return m
}()

func errFormat(format string, args ...any) *pgerr.Error {
	return pgerr.New(pgerr.InvalidParameter, format, args...)
}

// format is PostgreSQL's format(): NULL when the format is NULL.
func format(a []value.Value) (value.Value, error) {
	if a[0].IsNull() {
		return value.Null, nil
	}
	f, args := textOf(a[0]), a[1:]
	var b strings.Builder
	next := 0 // the next argument without a position
	// num reads a number at f[i:], returning it and the index after it.
	num := func(i int) (int, int, bool) {
		j := i
		for j < len(f) && f[j] >= '0' && f[j] <= '9' {
			j++
		}
		if j == i {
			return 0, i, false
		}
		n, err := strconv.Atoi(f[i:j])
		if err != nil || n > 1<<30 {
			return 0, j, false
		}
		return n, j, true
	}
	arg := func(pos int) (value.Value, error) {
		if pos >= len(args) {
			return value.Null, errFormat("too few arguments for format()")
		}
		return args[pos], nil
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		i++
		if i >= len(f) {
			return value.Null, errFormat("unterminated format() type specifier").WithHint(`For a single "%%" use "%%%%".`)
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		// [n$][-][width|*|*n$]type
		pos := -1
		if n, j, ok := num(i); ok && j < len(f) && f[j] == '$' {
			if n == 0 {
				return value.Null, errFormat("format specifies argument 0, but arguments are numbered from 1")
			}
			pos, i = n-1, j+1
		}
		left := false
		for i < len(f) && f[i] == '-' {
			left = true
			i++
		}
		width := 0
		if i < len(f) && f[i] == '*' {
			i++
			wpos := -1
			if n, j, ok := num(i); ok && j < len(f) && f[j] == '$' {
				if n == 0 {
					return value.Null, errFormat("format specifies argument 0, but arguments are numbered from 1")
				}
				// The value without a position of its own follows
				// the width's argument, as PostgreSQL's text_format
				// reads %*2$s.
				wpos, i = n-1, j+1
				next = n
			} else {
				wpos = next
				next++
			}
			w, err := arg(wpos)
			if err != nil {
				return value.Null, err
			}
			if !w.IsNull() {
				n, err := strconv.Atoi(textOf(w))
				if err != nil {
					return value.Null, pgerr.New(pgerr.InvalidTextRep, "invalid input syntax for type integer: %q", textOf(w))
				}
				if n < 0 {
					left, n = true, -n
				}
				width = n
			}
		} else if n, j, ok := num(i); ok {
			width, i = n, j
		}
		if i >= len(f) {
			return value.Null, errFormat("unterminated format() type specifier").WithHint(`For a single "%%" use "%%%%".`)
		}
		if pos < 0 {
			pos = next
		}
		next = pos + 1
		typ := f[i]
		if typ != 's' && typ != 'I' && typ != 'L' {
			return value.Null, errFormat("unrecognized format() type specifier %q", string(typ)).
				WithHint(`For a single "%%" use "%%%%".`)
		}
		v, err := arg(pos)
		if err != nil {
			return value.Null, err
		}
		var s string
		switch typ {
		case 's':
			if !v.IsNull() {
				s = string(value.AppendText(nil, v))
			}
		case 'I':
			if v.IsNull() {
				return value.Null, pgerr.New("22004", "null values cannot be formatted as an SQL identifier")
			}
			s = quoteIdent(string(value.AppendText(nil, v)))
		case 'L':
			if v.IsNull() {
				s = "NULL"
			} else {
				s = quoteLiteral(value.AppendText(nil, v))
			}
		}
		pad := width - utf8.RuneCountInString(s)
		if pad > 0 && !left {
			b.WriteString(strings.Repeat(" ", pad))
		}
		b.WriteString(s)
		if pad > 0 && left {
			b.WriteString(strings.Repeat(" ", pad))
		}
	}
	return value.NewText(value.Text, b.String()), nil
}
