package value

import (
	_ "embed"
	"strings"
)

// pgICULocales are the ICU locales of PostgreSQL 15's collations on
// Debian 12 (ICU 72), one a line: pg_collation's colliculocale of each
// collation "<locale>-x-icu".
//
//go:embed icu_locales.txt
var pgICULocales string

// PostgreSQLICUCollation reports whether PostgreSQL has the ICU
// collation called name, supported here or not.
func PostgreSQLICUCollation(name string) bool {
	loc, ok := strings.CutSuffix(name, "-x-icu")
	if !ok || loc == "" {
		return false
	}
	for l := range strings.Lines(pgICULocales) {
		if strings.TrimSuffix(l, "\n") == loc {
			return true
		}
	}
	return false
}

// icuLocales are the ICU locales whose collations deltaview offers: those
// for which golang.org/x/text/collate orders every string of the
// repertoire (CollationRepertoire) as PostgreSQL 15 with ICU 72 does, by
// a differential test over random strings of it. Left out because they
// differ: da, nb, nn, fi, et, lv, lt, hu, hr, gl, cy, fr-CA (newer CLDR
// tailorings: Danish and Norwegian sort upper case first and "aa" as "å",
// French Canadian reverses accents, …), and the locales not yet checked.
var icuLocales = map[string]bool{
	"und": true, "af": true, "ca": true, "cs": true, "de": true, "de-AT": true, "de-CH": true,
	"en": true, "en-GB": true, "en-US": true, "es": true, "eu": true, "fr": true, "ga": true,
	"id": true, "is": true, "it": true, "ms": true, "nl": true, "pl": true, "pt": true,
	"pt-BR": true, "ro": true, "sk": true, "sl": true, "sv": true, "sw": true, "tr": true, "zu": true,
}
