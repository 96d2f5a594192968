package expr

import (
	"strconv"
	"strings"
)

// typeNameParts reads a type name as regtype's input does, keeping what
// names the type and dropping what only refines it: the modifiers
// ("numeric(10,2)", "timestamp(3) with time zone"), an interval's fields
// ("interval year to month") and array bounds ("int8[3][4]" is an array
// of int8). mods are the modifiers when all are integers (float(p) picks
// its type by them); ok is false for a text the tokenizer cannot split,
// which is then read as written.
func typeNameParts(s string) (name string, mods []int32, array, ok bool) {
	toks, ok := typeNameTokens(s)
	if !ok || len(toks) == 0 {
		return "", nil, false, false
	}
	var b strings.Builder
	interval := false
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t {
		case "(":
			for i++; i < len(toks) && toks[i] != ")"; i++ {
				if toks[i] == "," {
					continue
				}
				n, err := strconv.ParseInt(toks[i], 10, 32)
				if err != nil {
					return "", nil, false, false
				}
				mods = append(mods, int32(n))
			}
			continue
		case "[":
			array = true
			for i < len(toks) && toks[i] != "]" {
				i++
			}
			continue
		case ".":
			b.WriteString(".")
			continue
		}
		if interval && typeNameContinues([]string{"interval"}, strings.ToLower(t)) {
			continue // a field of the interval: it refines the type
		}
		if b.Len() > 0 && !strings.HasSuffix(b.String(), ".") {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		interval = strings.EqualFold(b.String(), "interval") || strings.EqualFold(b.String(), "pg_catalog.interval")
	}
	if interval {
		mods = nil // its fields and precision, checked nowhere else here
	}
	return b.String(), mods, array, true
}
