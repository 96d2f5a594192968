package expr

import (
	"strings"
	"unicode/utf8"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// The unaccent extension: unaccent(text) and unaccent(dictionary, text)
// with its one dictionary, "unaccent", whose rules (unaccentRules) are
// PostgreSQL's default ones. PostgreSQL marks the functions stable, as a
// rules file may change; here the rules are fixed, so a view may call
// them. The dictionary is not a text search dictionary here: ts_lexize
// and configurations do not know it.
func init() {
	T := value.Text
	registerExtension(&Extension{
		Name: "unaccent", Version: "1.1", Relocatable: true,
		Comment: "text search dictionary that removes accents",
		Funcs: []*FuncDef{
			{Name: "unaccent", Strict: true, Stable: true, Params: kinds(T), Result: value.TextType,
				Eval: func(a []value.Value) (value.Value, error) { return text(unaccent(textOf(a[0]))), nil }},
			{Name: "unaccent", Strict: true, Stable: true, Params: kinds(T, T), Result: value.TextType,
				Eval: func(a []value.Value) (value.Value, error) {
					if err := unaccentDictionary(textOf(a[0])); err != nil {
						return value.Null, err
					}
					return text(unaccent(textOf(a[1]))), nil
				}},
		},
	})
}

// unaccentDictionary checks that a dictionary's name is the unaccent
// dictionary's, in public or unqualified.
func unaccentDictionary(s string) error {
	n, full, err := TextSearchName(s)
	if err != nil {
		return err
	}
	switch {
	case full == "unaccent" || full == "public.unaccent":
		return nil
	case n == "simple" || n == "english_stem" || strings.HasSuffix(n, "_stem"):
		// PostgreSQL reads another dictionary's data as unaccent rules.
		return pgerr.New(pgerr.FeatureNotSupported, "unaccent with text search dictionary %q is not supported", full).
			WithHint("use the unaccent dictionary")
	}
	return pgerr.New(pgerr.UndefinedObject, "text search dictionary %q does not exist", full)
}

// unaccent replaces each character that the rules name by its
// replacement; every source is one character, so the longest match is the
// character itself.
func unaccent(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if _, ok := unaccentRules[r]; ok {
			break
		}
		i += n
	}
	if i == len(s) {
		return s // nothing to replace: no copy
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if to, ok := unaccentRules[r]; ok {
			b.WriteString(to)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
