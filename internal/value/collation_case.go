package value

import (
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// CaseMapped returns s lowered, uppered or title-cased (op 'l', 'u' or
// 't') as ICU maps case under collation id's locale, as PostgreSQL's
// lower, upper and initcap do for a string under an ICU collation
// (u_strToLower, u_strToUpper, u_strToTitle with ICU's word breaks): the full Unicode mappings
// with the locale's tailoring (upper('ß') is 'SS'; under tr, upper('i')
// is 'İ' and lower('I') is 'ı'). ok is false for an unknown id.
func CaseMapped(id uint8, op byte, s string) (string, bool) {
	c := CollationByID(id)
	if c == nil {
		return "", false
	}
	tag := language.MustParse(c.Locale)
	switch op {
	case 'l':
		return cases.Lower(tag).String(s), true
	case 'u':
		return cases.Upper(tag).String(s), true
	}
	return icuTitle(c.Locale, s), true
}
