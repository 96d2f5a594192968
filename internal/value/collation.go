package value

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// ICU collations. A string value (text, varchar, char) may carry a
// collation, a small number that Compare reads: its strings then order as
// that ICU collation orders them, the bytes breaking ties, as PostgreSQL's
// deterministic collations do (varstr_cmp falls back to strcmp). Equality,
// keys and hashes stay those of the bytes, which is exactly what a
// deterministic collation makes equal, so a collated value groups, joins
// and deduplicates with its uncollated self. The collation is the binder's
// choice (expr.Collate applies it); a value without one compares byte by
// byte, as the collations C, POSIX and default do here.
//
// The collator is golang.org/x/text/collate (CLDR 23 tables), while
// PostgreSQL 15 on Debian 12 links ICU 72 (CLDR 42). The two agree on
// the repertoire below for the locales in icuLocales (a differential test
// against PostgreSQL checks it); a string outside the repertoire is
// refused where a collation is applied (CollationRepertoire), and other
// locales are not offered, rather than ordered differently.

// Collation is an ICU collation known to the process.
type Collation struct {
	ID     uint8  // what a Value carries; 0 is none
	Name   string // as in pg_collation, e.g. "en-x-icu"
	Locale string // the ICU locale, pg_collation.colliculocale
	// Nondeterministic marks a collation that holds equal the strings
	// its ICU locale orders alike (CREATE COLLATION … deterministic =
	// false): no bytes break the tie, and keys and hashes are those of
	// the sort key, so that such strings group, join and deduplicate
	// together.
	Nondeterministic bool
	pool             sync.Pool
	keys             collationKeys
}

// nondeterministicKnown is set once the process knows a nondeterministic
// collation: from then on strings equal under a collation may print
// differently (HasReprs), which the operators that show one of several
// equal values must tell apart. It is never reset: a value of such a
// collation may be held anywhere. Before it, strings cost nothing more.
var nondeterministicKnown atomic.Bool

var collations struct {
	sync.Mutex
	byName map[string]*Collation
	byID   [256]*Collation
	n      int
}

// LookupCollation returns the ICU collation called name ("und-x-icu",
// "en-x-icu", …), nil when there is none deltaview supports.
func LookupCollation(name string) *Collation {
	loc, ok := strings.CutSuffix(name, "-x-icu")
	if !ok || !icuLocales[loc] {
		return nil
	}
	collations.Lock()
	defer collations.Unlock()
	if c := collations.byName[name]; c != nil {
		return c
	}
	if collations.n == 255 {
		return nil // more collations than a value can name: refused
	}
	collations.n++
	tag := language.MustParse(loc)
	c := &Collation{ID: uint8(collations.n), Name: name, Locale: loc}
	c.pool.New = func() any { return collate.New(tag) }
	if collations.byName == nil {
		collations.byName = map[string]*Collation{}
	}
	collations.byName[name] = c
	collations.byID[c.ID] = c
	return c
}

// ICUCollationNames lists the ICU collations deltaview supports, as
// pg_collation names them.
func ICUCollationNames() []string {
	out := make([]string, 0, len(icuLocales))
	for l := range icuLocales {
		out = append(out, l+"-x-icu")
	}
	return out
}

// compareCollated orders a and b under collation id, the bytes breaking
// ties. It compares their sort keys (collationKeys), each computed once.
func compareCollated(id uint8, a, b string) int {
	c := collations.byID[id]
	if c == nil {
		return strings.Compare(a, b)
	}
	if a == b {
		return 0
	}
	if r := bytes.Compare(c.key(a), c.key(b)); r != 0 || c.Nondeterministic {
		return r
	}
	return strings.Compare(a, b)
}

// Collated returns v carrying collation id (0: none). Only text, varchar
// and char values carry one; others are returned as they are.
func (v Value) Collated(id uint8) Value {
	if v.kind == Text || v.kind == Varchar || v.kind == Char {
		v.sc = id
	}
	return v
}

// CollationID is the collation v carries, 0 for none.
func (v Value) CollationID() uint8 {
	if v.kind == Text || v.kind == Varchar || v.kind == Char {
		return v.sc
	}
	return 0
}

// collationOf is the collation that orders a and b: either's, a's first.
func collationOf(a, b Value) uint8 {
	if a.sc != 0 {
		return a.sc
	}
	return b.sc
}

// CollationRepertoire returns the first character of s that the ICU
// collations are not known to order as PostgreSQL's ICU does, ok false;
// ok true when every character is in the repertoire: the printable ASCII
// characters, Latin-1 Supplement and Latin Extended-A (U+0020–U+007E,
// U+00A0–U+017F).
func CollationRepertoire(s string) (r rune, ok bool) {
	for _, r := range s {
		if !(r >= 0x20 && r <= 0x7e || r >= 0xa0 && r <= 0x17f) {
			return r, false
		}
	}
	return 0, true
}

// CollationByID is the collation numbered id, nil for 0 or an unknown
// one.
func CollationByID(id uint8) *Collation {
	collations.Lock()
	defer collations.Unlock()
	return collations.byID[id]
}

// UserCollation returns the collation called name that orders as the ICU
// locale does (CREATE COLLATION name (provider = icu, locale = …)),
// nondeterministic when deterministic is false; nil when deltaview does
// not support the locale. It carries an ID of its own, so that messages
// name it, and is shared by every collation of that name, locale and
// determinism the process knows: the ordering is the locale's.
func UserCollation(name, locale string, deterministic bool) *Collation {
	if !ICULocaleSupported(locale) {
		return nil
	}
	// No built-in collation's name has a NUL.
	key := name + "\x00" + locale
	if !deterministic {
		key += "\x00nondeterministic"
	}
	collations.Lock()
	defer collations.Unlock()
	if c := collations.byName[key]; c != nil {
		return c
	}
	if collations.n == 255 {
		return nil
	}
	collations.n++
	tag := language.MustParse(locale)
	c := &Collation{ID: uint8(collations.n), Name: name, Locale: locale, Nondeterministic: !deterministic}
	if !deterministic {
		nondeterministicKnown.Store(true)
	}
	c.pool.New = func() any { return collate.New(tag) }
	if collations.byName == nil {
		collations.byName = map[string]*Collation{}
	}
	collations.byName[key] = c
	collations.byID[c.ID] = c
	return c
}

// icuStrengths are the collation strengths a user collation's locale
// may ask for (its -u-ks- keyword), which golang.org/x/text/collate
// reads as ICU does: level1 ignores accents and case, level2 case.
var icuStrengths = map[string]bool{"ks-level1": true, "ks-level2": true, "ks-level3": true}

// ICULocaleSupported reports whether deltaview orders strings as
// PostgreSQL's ICU collations of locale do: a locale of icuLocales,
// optionally with a strength ("und-u-ks-level2").
func ICULocaleSupported(locale string) bool {
	base, ext, ok := strings.Cut(locale, "-u-")
	return icuLocales[base] && (!ok || icuStrengths[ext])
}

// Nondeterministic reports whether the collation v carries is a
// nondeterministic one.
func (v Value) Nondeterministic() bool {
	if id := v.CollationID(); id != 0 {
		c := collations.byID[id]
		return c != nil && c.Nondeterministic
	}
	return false
}

// collationKey is s's sort key under the collation numbered id.
func collationKey(id uint8, s string) string {
	return string(collations.byID[id].key(s))
}
