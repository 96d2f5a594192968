package expr

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var _ Expr = (*Regex)(nil)

// Regex is E [NOT] SIMILAR TO Pattern [ESCAPE Escape] when Similar, else
// the regular-expression match E ~ Pattern (~* with Fold, !~ and !~* with
// Not). A SIMILAR TO pattern is translated to a regular expression as
// PostgreSQL translates it (% is .*, _ is ., the escape character — a
// backslash when Escape is nil, none when it is empty — quotes the next
// one, the whole pattern must match); both are then PostgreSQL's advanced
// regular expressions, matched as the regexp_* functions match them
// (funcs_regexp.go), with their errors. NULL if any operand is NULL.
// Compiled patterns are kept in the regexp_* functions' cache, so a
// constant pattern is compiled once.
type Regex struct {
	E, Pattern Expr
	Escape     Expr // SIMILAR TO only; nil: backslash
	Similar    bool
	Fold, Not  bool
}

func (r *Regex) Type() value.Type { return value.BoolType }
func (*Regex) expr()              {}

func (r *Regex) Volatile() bool {
	return r.E.Volatile() || r.Pattern.Volatile() || (r.Escape != nil && r.Escape.Volatile())
}

func (r *Regex) String() string {
	if r.Similar {
		op := " SIMILAR TO "
		if r.Not {
			op = " NOT SIMILAR TO "
		}
		s := operand(r.E) + op + operand(r.Pattern)
		if r.Escape != nil {
			s += " ESCAPE " + operand(r.Escape)
		}
		return s
	}
	op := " ~"
	if r.Not {
		op = " !~"
	}
	if r.Fold {
		op += "*"
	}
	return operand(r.E) + op + " " + operand(r.Pattern)
}

func (r *Regex) Eval(row value.Row) (value.Value, error) {
	s, pat, esc, null, err := matchOperands(row, r.E, r.Pattern, r.Escape)
	if err != nil || null {
		return value.Null, nondeterministicFor(err, "regular expressions")
	}
	if !r.Similar {
		flags := ""
		if r.Fold {
			flags = "i"
		}
		re, err := pgRegexUnder("~", pat, flags, false, underICU(r.E) || underICU(r.Pattern))
		if err != nil {
			return value.Null, err
		}
		ok, err := re.match(s)
		return boolValue(ok != r.Not), err
	}
	re, err := similarRegexFor(pat, esc, r.Fold, underICU(r.E) || underICU(r.Pattern) || r.Escape != nil && underICU(r.Escape))
	if err != nil {
		return value.Null, err
	}
	ok, err := re.match(s)
	return boolValue(ok != r.Not), err
}

// CompileRegex compiles a PostgreSQL regular expression for Go's matcher:
// . matches a newline, as in PostgreSQL's default mode; fold matches
// case-insensitively. A pattern Go cannot read is 2201B.
func CompileRegex(pattern string, fold bool) (*regexp.Regexp, error) {
	flags := "(?s)"
	if fold {
		flags = "(?is)"
	}
	re, err := regexp.Compile(flags + pattern)
	if err != nil {
		msg := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			msg = string(se.Code)
		}
		return nil, pgerr.New(pgerr.InvalidRegex, "invalid regular expression: %s", msg)
	}
	return re, nil
}

// SimilarToRegex translates a SIMILAR TO pattern with escape string esc
// ("" for none) into a regular expression matching the whole text, as
// PostgreSQL's similar_to_escape does.
func SimilarToRegex(pattern, esc string) (string, error) {
	escRune, useEsc := rune(0), false
	switch utf8.RuneCountInString(esc) {
	case 0:
	case 1:
		escRune, _ = utf8.DecodeRuneInString(esc)
		useEsc = true
	default:
		return "", pgerr.New(pgerr.InvalidEscape, "invalid escape string").WithHint("Escape string must be empty or one character.")
	}
	var sb strings.Builder
	sb.WriteString("^(?:")
	// classDepth counts the brackets open ([[:alpha:]] nests one);
	// classStart is 1 right after a class's opening bracket and 2 after
	// its first caret, where a closing bracket is a literal.
	after, classDepth, classStart, quotes := false, 0, 0, 0
	for _, c := range pattern {
		switch {
		case after:
			after = false
			if c == '"' && classDepth == 0 {
				// The separators of SUBSTRING's three parts; in a match
				// they only group.
				switch quotes {
				case 0:
					sb.WriteString("){1,1}?(")
				case 1:
					sb.WriteString("){1,1}(?:")
				default:
					return "", pgerr.New(pgerr.InvalidRegex, "SQL regular expression may not contain more than two escape-double-quote separators")
				}
				quotes++
				continue
			}
			sb.WriteByte('\\')
			sb.WriteRune(c)
		case useEsc && c == escRune:
			after = true
		case classDepth > 0:
			if c == '\\' {
				sb.WriteByte('\\')
			}
			sb.WriteRune(c)
			switch {
			case c == ']' && classStart > 2:
				classDepth--
			case c == '[':
				classDepth++
			}
			if c == '^' {
				classStart++
			} else {
				classStart = 3
			}
		case c == '[':
			sb.WriteRune(c)
			classDepth, classStart = 1, 1
		case c == '%':
			sb.WriteString(".*")
		case c == '_':
			sb.WriteByte('.')
		case c == '(':
			sb.WriteString("(?:")
		case c == '\\' || c == '.' || c == '^' || c == '$':
			sb.WriteByte('\\')
			sb.WriteRune(c)
		default:
			sb.WriteRune(c)
		}
	}
	if after {
		// A pattern ending in the escape character: PostgreSQL's
		// regular expression then ends in a lone backslash.
		return "", pgerr.New(pgerr.InvalidRegex, "invalid regular expression: invalid escape \\ sequence")
	}
	sb.WriteString(")$")
	return sb.String(), nil
}
