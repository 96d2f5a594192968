package tsearch

import "strings"

// StemEnglish returns the stem of a lower-case English word by the
// Porter2 (Snowball "english") algorithm. Characters other than a, e, i,
// o, u and y count as consonants.
func StemEnglish(word string) string {
	if s, ok := stemExceptions[word]; ok {
		return s
	}
	w := []rune(word)
	if len(w) < 3 {
		return word
	}
	st := stemmer{w: w}
	st.prelude()
	st.markRegions()
	st.step1a()
	if len(st.w) == 0 {
		// Only apostrophes and a possessive ("''s"): PostgreSQL's
		// snowball dictionary keeps a word whose stem is empty.
		return word
	}
	if !keepAfter1a[string(st.w)] {
		st.step1b()
		st.step1c()
		st.step2()
		st.step3()
		st.step4()
		st.step5()
	}
	for i, c := range st.w {
		if c == 'Y' {
			st.w[i] = 'y'
		}
	}
	return string(st.w)
}

// stemExceptions are words stemmed as a whole, before any step.
var stemExceptions = map[string]string{
	"skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie",
	"idly": "idl", "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl",
	"sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes",
}

// keepAfter1a are words left as they are once step 1a is done.
var keepAfter1a = map[string]bool{
	"inning": true, "outing": true, "canning": true, "herring": true,
	"earring": true, "proceed": true, "exceed": true, "succeed": true,
}

type stemmer struct {
	w      []rune
	p1, p2 int // the starts of regions R1 and R2
}

// isVowel reports whether c is a vowel; a consonant y is marked Y.
func isVowel(c rune) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

func (s *stemmer) prelude() {
	if s.w[0] == '\'' {
		s.w = s.w[1:]
	}
	for i, c := range s.w {
		if c == 'y' && (i == 0 || isVowel(s.w[i-1])) {
			s.w[i] = 'Y'
		}
	}
}

// markRegions finds R1, after the first consonant that follows a vowel
// (or after one of a few prefixes), and R2, the same within R1.
func (s *stemmer) markRegions() {
	s.p1, s.p2 = len(s.w), len(s.w)
	word := string(s.w)
	p1 := -1
	for _, pre := range [...]string{"gener", "commun", "arsen"} {
		if strings.HasPrefix(word, pre) {
			p1 = len([]rune(pre))
			break
		}
	}
	if p1 < 0 {
		p1 = s.afterVC(0)
		if p1 < 0 {
			return
		}
	}
	s.p1 = p1
	if p2 := s.afterVC(p1); p2 >= 0 {
		s.p2 = p2
	}
}

// afterVC returns the position after the first consonant that follows a
// vowel at or after from, or -1.
func (s *stemmer) afterVC(from int) int {
	i := from
	for i < len(s.w) && !isVowel(s.w[i]) {
		i++
	}
	for i < len(s.w) && isVowel(s.w[i]) {
		i++
	}
	if i >= len(s.w) {
		return -1
	}
	return i + 1
}

func (s *stemmer) hasSuffix(suf string) bool {
	n := len(suf) // suffixes are ASCII
	if n > len(s.w) {
		return false
	}
	for i := 0; i < n; i++ {
		if s.w[len(s.w)-n+i] != rune(suf[i]) {
			return false
		}
	}
	return true
}

// longest returns the longest of sufs that ends the word, or "".
func (s *stemmer) longest(sufs ...string) string {
	best := ""
	for _, suf := range sufs {
		if len(suf) > len(best) && s.hasSuffix(suf) {
			best = suf
		}
	}
	return best
}

// replace replaces the suffix suf by to.
func (s *stemmer) replace(suf, to string) {
	s.w = append(s.w[:len(s.w)-len(suf)], []rune(to)...)
}

// vowelBefore reports whether a vowel occurs before position end.
func (s *stemmer) vowelBefore(end int) bool {
	for i := 0; i < end; i++ {
		if isVowel(s.w[i]) {
			return true
		}
	}
	return false
}

// shortSyllableAt reports whether the word up to end ends in a short
// syllable: consonant, vowel, consonant other than w, x or Y; or, at the
// word's start, vowel then consonant.
func (s *stemmer) shortSyllableAt(end int) bool {
	w := s.w
	if end >= 3 && !isVowel(w[end-1]) && w[end-1] != 'w' && w[end-1] != 'x' && w[end-1] != 'Y' &&
		isVowel(w[end-2]) && !isVowel(w[end-3]) {
		return true
	}
	return end == 2 && !isVowel(w[1]) && isVowel(w[0])
}

func (s *stemmer) inR1(suf string) bool { return len(s.w)-len(suf) >= s.p1 }
func (s *stemmer) inR2(suf string) bool { return len(s.w)-len(suf) >= s.p2 }

func (s *stemmer) step1a() {
	if suf := s.longest("'", "'s", "'s'"); suf != "" {
		s.replace(suf, "")
	}
	switch suf := s.longest("sses", "ied", "ies", "s", "us", "ss"); suf {
	case "sses":
		s.replace(suf, "ss")
	case "ied", "ies":
		if len(s.w)-3 >= 2 {
			s.replace(suf, "i")
		} else {
			s.replace(suf, "ie")
		}
	case "s":
		if s.vowelBefore(len(s.w) - 2) {
			s.replace(suf, "")
		}
	}
}

func (s *stemmer) step1b() {
	switch suf := s.longest("eed", "eedly", "ed", "edly", "ing", "ingly"); suf {
	case "":
	case "eed", "eedly":
		if s.inR1(suf) {
			s.replace(suf, "ee")
		}
	default:
		if !s.vowelBefore(len(s.w) - len(suf)) {
			return
		}
		s.replace(suf, "")
		switch end := s.longest("at", "bl", "iz", "bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"); end {
		case "at", "bl", "iz":
			s.w = append(s.w, 'e')
		case "":
			if s.p1 == len(s.w) && s.shortSyllableAt(len(s.w)) {
				s.w = append(s.w, 'e')
			}
		default:
			s.w = s.w[:len(s.w)-1]
		}
	}
}

func (s *stemmer) step1c() {
	n := len(s.w)
	if (s.w[n-1] == 'y' || s.w[n-1] == 'Y') && n > 2 && !isVowel(s.w[n-2]) {
		s.w[n-1] = 'i'
	}
}

var step2Rules = map[string]string{
	"tional": "tion", "enci": "ence", "anci": "ance", "abli": "able", "entli": "ent",
	"izer": "ize", "ization": "ize", "ational": "ate", "ation": "ate", "ator": "ate",
	"alism": "al", "aliti": "al", "alli": "al", "fulness": "ful", "ousli": "ous", "ousness": "ous",
	"iveness": "ive", "iviti": "ive", "biliti": "ble", "bli": "ble", "ogi": "og", "fulli": "ful",
	"lessli": "less", "li": "",
}

var (
	step2Suffixes = keys(step2Rules)
	step3Suffixes = keys(step3Rules)
	// step4Suffixes are deleted in R2 (ion after s or t only).
	step4Suffixes = strings.Fields("al ance ence er ic able ible ant ement ment ent ism ate iti ous ive ize ion")
)

func keys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func (s *stemmer) step2() {
	suf := s.longest(step2Suffixes...)
	if suf == "" || !s.inR1(suf) {
		return
	}
	before := len(s.w) - len(suf)
	switch suf {
	case "ogi":
		if before == 0 || s.w[before-1] != 'l' {
			return
		}
	case "li":
		if before == 0 || !strings.ContainsRune("cdeghkmnrt", s.w[before-1]) {
			return
		}
	}
	s.replace(suf, step2Rules[suf])
}

var step3Rules = map[string]string{
	"tional": "tion", "ational": "ate", "alize": "al", "icate": "ic", "iciti": "ic", "ical": "ic",
	"ful": "", "ness": "", "ative": "",
}

func (s *stemmer) step3() {
	suf := s.longest(step3Suffixes...)
	if suf == "" || !s.inR1(suf) || suf == "ative" && !s.inR2(suf) {
		return
	}
	s.replace(suf, step3Rules[suf])
}

func (s *stemmer) step4() {
	suf := s.longest(step4Suffixes...)
	if suf == "" || !s.inR2(suf) {
		return
	}
	if suf == "ion" {
		before := len(s.w) - 3
		if before == 0 || s.w[before-1] != 's' && s.w[before-1] != 't' {
			return
		}
	}
	s.replace(suf, "")
}

func (s *stemmer) step5() {
	n := len(s.w)
	switch s.w[n-1] {
	case 'e':
		if s.inR2("e") || s.inR1("e") && !s.shortSyllableAt(n-1) {
			s.w = s.w[:n-1]
		}
	case 'l':
		if s.inR2("l") && n > 1 && s.w[n-2] == 'l' {
			s.w = s.w[:n-1]
		}
	}
}
