package expr

import (
	"crypto/md5"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// maxStringBytes bounds the strings repeat and lpad/rpad build, as
// PostgreSQL bounds a value to 1GB.
const maxStringBytes = 1<<30 - 1

const codeSubstringError = "22011"

func text(s string) value.Value { return value.NewText(value.Text, s) }

func int4(n int64) value.Value { return value.NewInt(value.Int4, n) }

func errTooLarge() error {
	return pgerr.New(pgerr.ProgramLimitExceeded, "requested length too large")
}

func init() {
	T, I4, C := value.Text, value.Int4, value.Char
	textFn := func(f func(string) string) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) { return text(f(textOf(a[0]))), nil }
	}
	strict("lower", kinds(T), value.TextType, caseFn('l', asciiLower))
	strict("upper", kinds(T), value.TextType, caseFn('u', asciiUpper))
	strict("initcap", kinds(T), value.TextType, caseFn('t', initcap))
	strict("reverse", kinds(T), value.TextType, textFn(reverse))
	strict("md5", kinds(T), value.TextType, textFn(func(s string) string {
		sum := md5.Sum([]byte(s))
		return hex.EncodeToString(sum[:])
	}))
	length := func(a []value.Value) (value.Value, error) {
		return int4(int64(utf8.RuneCountInString(textOf(a[0])))), nil
	}
	strict("length", kinds(T), value.Int4Type, length, "char_length", "character_length")
	strict("length", kinds(C), value.Int4Type, length, "char_length", "character_length")

	strict("substr", kinds(T, I4), value.TextType, func(a []value.Value) (value.Value, error) {
		return substr(textOf(a[0]), a[1].Int(), 0, false)
	}, "substring")
	strict("substr", kinds(T, I4, I4), value.TextType, func(a []value.Value) (value.Value, error) {
		return substr(textOf(a[0]), a[1].Int(), a[2].Int(), true)
	}, "substring")

	trim := func(left, right bool) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) {
			chars := " "
			if len(a) > 1 {
				chars = textOf(a[1])
			}
			s := textOf(a[0])
			if left {
				s = strings.TrimLeft(s, chars)
			}
			if right {
				s = strings.TrimRight(s, chars)
			}
			return text(s), nil
		}
	}
	for _, f := range []struct {
		name        string
		left, right bool
	}{{"btrim", true, true}, {"ltrim", true, false}, {"rtrim", false, true}} {
		strict(f.name, kinds(T), value.TextType, trim(f.left, f.right))
		strict(f.name, kinds(T, T), value.TextType, trim(f.left, f.right))
	}

	strict("replace", kinds(T, T, T), value.TextType, func(a []value.Value) (value.Value, error) {
		s, from := textOf(a[0]), textOf(a[1])
		if from == "" {
			return text(s), nil
		}
		to := textOf(a[2])
		if n := strings.Count(s, from); n > 0 && len(to) > len(from) &&
			len(s)+n*(len(to)-len(from)) > maxStringBytes {
			return value.Null, errTooLarge()
		}
		return text(strings.ReplaceAll(s, from, to)), nil
	})
	strict("strpos", kinds(T, T), value.Int4Type, func(a []value.Value) (value.Value, error) {
		s := textOf(a[0])
		i := strings.Index(s, textOf(a[1]))
		if i < 0 {
			return int4(0), nil
		}
		return int4(int64(utf8.RuneCountInString(s[:i])) + 1), nil
	})
	strict("starts_with", kinds(T, T), value.BoolType, func(a []value.Value) (value.Value, error) {
		return boolValue(strings.HasPrefix(textOf(a[0]), textOf(a[1]))), nil
	})
	strict("left", kinds(T, I4), value.TextType, func(a []value.Value) (value.Value, error) {
		r := []rune(textOf(a[0]))
		n := a[1].Int()
		if n < 0 {
			n += int64(len(r))
		}
		return text(string(r[:clamp(n, 0, int64(len(r)))])), nil
	})
	strict("right", kinds(T, I4), value.TextType, func(a []value.Value) (value.Value, error) {
		r := []rune(textOf(a[0]))
		n := a[1].Int()
		if n < 0 {
			n += int64(len(r))
		}
		return text(string(r[int64(len(r))-clamp(n, 0, int64(len(r))):])), nil
	})
	strict("repeat", kinds(T, I4), value.TextType, func(a []value.Value) (value.Value, error) {
		s, n := textOf(a[0]), a[1].Int()
		if n <= 0 || s == "" {
			return text(""), nil
		}
		if int64(len(s))*n > maxStringBytes {
			return value.Null, errTooLarge()
		}
		return text(strings.Repeat(s, int(n))), nil
	})
	for _, left := range []bool{true, false} {
		name := "rpad"
		if left {
			name = "lpad"
		}
		strict(name, kinds(T, I4), value.TextType, func(a []value.Value) (value.Value, error) {
			return pad(textOf(a[0]), a[1].Int(), " ", left)
		})
		strict(name, kinds(T, I4, T), value.TextType, func(a []value.Value) (value.Value, error) {
			return pad(textOf(a[0]), a[1].Int(), textOf(a[2]), left)
		})
	}

	// concat and concat_ws print their arguments with the type's output
	// function (char(n) keeps its padding) and skip NULLs.
	register(&FuncDef{Name: "concat", Params: kinds(value.Unknown), Variadic: true, Result: value.TextType,
		Eval: func(a []value.Value) (value.Value, error) { return concatWS("", a), nil }})
	register(&FuncDef{Name: "concat_ws", Params: kinds(T, value.Unknown), Variadic: true, Result: value.TextType,
		Eval: func(a []value.Value) (value.Value, error) {
			if a[0].IsNull() {
				return value.Null, nil
			}
			return concatWS(textOf(a[0]), a[1:]), nil
		}})
}

func clamp(n, lo, hi int64) int64 { return min(max(n, lo), hi) }

func concatWS(sep string, args []value.Value) value.Value {
	var b []byte
	first := true
	for _, v := range args {
		if v.IsNull() {
			continue
		}
		if !first {
			b = append(b, sep...)
		}
		first = false
		b = value.AppendText(b, v)
	}
	return text(string(b))
}

// substr is PostgreSQL's substring by characters: from position start
// (1-based, may be 0 or negative) for count characters, or to the end.
func substr(s string, start, count int64, hasCount bool) (value.Value, error) {
	if hasCount && count < 0 {
		return value.Null, pgerr.New(codeSubstringError, "negative substring length not allowed")
	}
	r := []rune(s)
	n := int64(len(r))
	end := n + 1
	if hasCount {
		end = start + count // int4 arguments: no overflow in int64
	}
	from := max(start, 1)
	if end <= from || from > n {
		return text(""), nil
	}
	return text(string(r[from-1 : min(end-1, n)])), nil
}

// pad is lpad/rpad: s fitted to n characters, truncated or filled with
// repetitions of fill on the left or right.
func pad(s string, n int64, fill string, left bool) (value.Value, error) {
	if n <= 0 {
		return text(""), nil
	}
	r := []rune(s)
	if int64(len(r)) >= n {
		return text(string(r[:n])), nil
	}
	if fill == "" {
		return text(s), nil
	}
	if n*int64(utf8.UTFMax) > maxStringBytes {
		return value.Null, errTooLarge()
	}
	f := []rune(fill)
	need := n - int64(len(r))
	p := make([]rune, need)
	for i := range p {
		p[i] = f[i%len(f)]
	}
	if left {
		return text(string(p) + s), nil
	}
	return text(s + string(p)), nil
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}
