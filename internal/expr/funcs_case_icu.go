package expr

import "github.com/deltaview/deltaview/internal/value"

// caseFn is lower, upper or initcap (op 'l', 'u', 't'): f of the string, or, for a
// string under an ICU collation, ICU's case mapping of its locale
// (value.CaseMapped), as PostgreSQL maps case by the collation of the
// argument.
func caseFn(op byte, f func(string) string) func([]value.Value) (value.Value, error) {
	return func(a []value.Value) (value.Value, error) {
		if id := a[0].CollationID(); id != 0 {
			if s, ok := value.CaseMapped(id, op, textOf(a[0])); ok {
				return text(s), nil
			}
		}
		return text(f(textOf(a[0]))), nil
	}
}
