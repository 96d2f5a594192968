package tsearch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEnglishStopWords checks the stop words against PostgreSQL's
// english.stop, when a server is installed.
func TestEnglishStopWords(t *testing.T) {
	files, _ := filepath.Glob("/usr/share/postgresql/*/tsearch_data/english.stop")
	if len(files) == 0 {
		t.Skip("no PostgreSQL english.stop")
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(b))
	slices.Sort(want)
	var got []string
	for w := range englishStopWords {
		got = append(got, w)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("stop words differ from %s:\n got %v\nwant %v", files[0], got, want)
	}
}

// The stems are PostgreSQL's english_stem (the engine's tests compare
// many more with the server).
func TestStemEnglish(t *testing.T) {
	for word, stem := range map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "tie", "cats": "cat", "gas": "gas", "kiwis": "kiwi",
		"agreed": "agre", "feed": "feed", "hoping": "hope", "hopping": "hop", "luxuriated": "luxuri",
		"cry": "cri", "by": "by", "say": "say", "happily": "happili", "national": "nation",
		"rationalization": "ration", "generously": "generous", "communism": "communism", "arsenal": "arsenal",
		"skies": "sky", "dying": "die", "news": "news", "innings": "inning", "proceeding": "proceed",
		"electricity": "electr", "adjustment": "adjust", "effective": "effect", "controll": "control",
		"yesterday": "yesterday", "'tis": "tis", "universal": "univers", "organic": "organ",
	} {
		if got := StemEnglish(word); got != stem {
			t.Errorf("StemEnglish(%q) = %q, want %q", word, got, stem)
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"foo-bar 1.5", "asciihword:foo-bar hword_asciipart:foo blank:- hword_asciipart:bar blank:  float:1.5"},
		{"-1.2.3", "blank:- version:1.2.3"},
		{"x@example.com", "email:x@example.com"},
		{"http://a.org/p?q", "protocol:http:// url:a.org/p?q host:a.org url_path:/p?q"},
		{"<b>é</b>", "tag:<b> word:é tag:</b>"},
		{"<style>x</style>", "tag:<style> blank:x tag:</style>"},
	} {
		var got []string
		Parse(c.text, func(tk Token) { got = append(got, TokenTypes[tk.Type-1].Alias+":"+tk.Text) })
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("Parse(%q) = %s, want %s", c.text, g, c.want)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		cfg        *Config
		doc, query string
		want       bool
	}{
		{English, "The cats are running", "cat run", true},
		{English, "The cats are running", "the", false},
		{English, "state-of-the-art", "art-state", false},
		{SimpleConfig, "The cats", "the cats", true},
		{SimpleConfig, "The cats", "cat", false},
	} {
		if got := c.cfg.Match(c.doc, c.query); got != c.want {
			t.Errorf("%s: %q @@ %q = %v, want %v", c.cfg.Name, c.doc, c.query, got, c.want)
		}
	}
}

var benchText = strings.Repeat("The quick brown foxes were jumping over lazy dogs at http://example.com/x, 3.14 times. ", 12)

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		Parse(benchText, func(Token) {})
	}
}

func BenchmarkMatch(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		English.Match(benchText, "jumping dogs")
	}
}

// TestStemEnglishShortWords stems every word of up to six letters over an
// alphabet of the letters the steps look at, apostrophes among them: none
// may panic, whatever is left after a step removes a suffix.
func TestStemEnglishShortWords(t *testing.T) {
	const alphabet = "aeyslid'g"
	var word []byte
	var walk func()
	walk = func() {
		StemEnglish(string(word))
		if len(word) == 6 {
			return
		}
		for i := range len(alphabet) {
			word = append(word, alphabet[i])
			walk()
			word = word[:len(word)-1]
		}
	}
	walk()
	if got := StemEnglish("''s"); got != "''s" {
		t.Errorf(`StemEnglish("''s") = %q, want the word`, got)
	}
}
