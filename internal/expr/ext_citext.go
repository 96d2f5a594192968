package expr

import (
	"slices"
	"strings"
	"sync"

	"github.com/deltaview/deltaview/internal/value"
)

// The citext extension: its type (value.CIText, text that compares
// without regard to case) and the functions it defines over citext, each
// as the extension's SQL body runs it: the built-in function on the
// arguments as text, the regular expressions with the flag i added
// (unless the flags hold c), strpos on the lowered strings, replace and
// split_part with the pattern's other characters escaped, translate on
// both cases of the characters. The comparison operators are
// value.Compare's for citext, and LIKE, ~ and their kin fold case when
// the matched operand is citext (the binder's ciMatch); regexp_matches
// and regexp_split_to_table add the flag when called over citext
// (ResolveSRF). Casts between citext and the other strings keep the
// text as written; text converts to citext by assignment only.
func init() {
	C, T, I4 := value.CIText, value.Text, value.Int4
	taT := value.ArrayType(T)
	imm := func(name string, params []value.Kind, result value.Type, eval func([]value.Value) (value.Value, error)) *FuncDef {
		return &FuncDef{Name: name, Strict: true, Params: params, Result: result, Eval: eval}
	}
	match := builtinEval("regexp_match", T, T, T)
	rreplace := builtinEval("regexp_replace", T, T, T, T)
	split := builtinEval("regexp_split_to_array", T, T, T)
	strpos := builtinEval("strpos", T, T)
	translate := builtinEval("translate", T, T, T)
	// withFlags calls f with the flags at i made case-insensitive.
	withFlags := func(f func() func([]value.Value) (value.Value, error), i int) func([]value.Value) (value.Value, error) {
		return func(a []value.Value) (value.Value, error) { return f()(ciArgs(a, i)) }
	}
	registerExtension(&Extension{
		Name: "citext", Version: "1.6", Relocatable: true,
		Comment: "data type for case-insensitive character strings",
		Types:   []value.Type{value.CITextType},
		Funcs: []*FuncDef{
			imm("regexp_match", kinds(C, C), taT, withFlags(match, 2)),
			imm("regexp_match", kinds(C, C, T), taT, withFlags(match, 2)),
			imm("regexp_replace", kinds(C, C, T), value.TextType, withFlags(rreplace, 3)),
			imm("regexp_replace", kinds(C, C, T, T), value.TextType, withFlags(rreplace, 3)),
			imm("regexp_split_to_array", kinds(C, C), taT, withFlags(split, 2)),
			imm("regexp_split_to_array", kinds(C, C, T), taT, withFlags(split, 2)),
			imm("strpos", kinds(C, C), value.Int4Type, func(a []value.Value) (value.Value, error) {
				return strpos()([]value.Value{text(lowerASCII(rawText(a[0]))), text(lowerASCII(rawText(a[1])))})
			}),
			imm("replace", kinds(C, C, C), value.TextType, func(a []value.Value) (value.Value, error) {
				return rreplace()([]value.Value{text(rawText(a[0])), text(escapeRegex(rawText(a[1]))), text(rawText(a[2])), text("gi")})
			}),
			imm("split_part", kinds(C, C, I4), value.TextType, func(a []value.Value) (value.Value, error) {
				arr, err := split()([]value.Value{text(rawText(a[0])), text(escapeRegex(rawText(a[1]))), text("i")})
				if err != nil || arr.IsNull() {
					return value.Null, err
				}
				// An array's subscript: NULL outside its bounds.
				parts, n := arr.Elems(), a[2].Int()
				if n < 1 || n > int64(len(parts)) {
					return value.Null, nil
				}
				return parts[n-1], nil
			}),
			imm("translate", kinds(C, C, T), value.TextType, func(a []value.Value) (value.Value, error) {
				from, to := rawText(a[1]), text(rawText(a[2]))
				once, err := translate()([]value.Value{text(rawText(a[0])), text(lowerASCII(from)), to})
				if err != nil {
					return value.Null, err
				}
				return translate()([]value.Value{once, text(upperASCII(from)), to})
			}),
		},
	})
}

// builtinEval returns, once the catalog is filled, the evaluation of the
// built-in function of a name and parameters.
func builtinEval(name string, params ...value.Kind) func() func([]value.Value) (value.Value, error) {
	return sync.OnceValue(func() func([]value.Value) (value.Value, error) {
		for _, d := range catalog[name] {
			if slices.Equal(d.Params, params) {
				return d.Eval
			}
		}
		panic("expr: no built-in function " + name)
	})
}

// ciFlags is the citext extension's flags for a regular expression over
// citext: i added, unless the flags ask for case (c).
func ciFlags(flags string) string {
	if strings.IndexByte(flags, 'c') < 0 {
		return flags + "i"
	}
	return flags
}

// ciArgs returns a's first i arguments and the case-insensitive flags of
// a[i] (none when a has no a[i]), as text.
func ciArgs(a []value.Value, i int) []value.Value {
	out := make([]value.Value, i+1)
	for j := range i {
		out[j] = a[j]
		if a[j].Kind() == value.CIText {
			out[j] = text(a[j].Str())
		}
	}
	flags := ""
	if i < len(a) {
		flags = rawText(a[i])
	}
	out[i] = text(ciFlags(flags))
	return out
}

// escapeRegex escapes every character of s but ASCII letters, digits and
// the underscore with a backslash, as the extension's
// regexp_replace(s, '([^a-zA-Z_0-9])', E'\\\\\\1', 'g') does.
func escapeRegex(s string) string {
	var b strings.Builder
	for _, r := range s {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lowerASCII and upperASCII change the case of s's ASCII letters alone,
// as lower and upper do under the C collation that citext's functions
// use.
func lowerASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func upperASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}

// ciRegexpSRF reports whether regexp_matches or regexp_split_to_table
// over args takes the citext extension's overload: its first two
// arguments citext or untyped, one of them citext.
func ciRegexpSRF(args []Expr) bool {
	if len(args) < 2 {
		return false
	}
	k0, k1 := args[0].Type().Kind, args[1].Type().Kind
	isCI := func(k value.Kind) bool { return k == value.CIText || k == value.Unknown }
	return isCI(k0) && isCI(k1) && (k0 == value.CIText || k1 == value.CIText)
}
