package tsearch

import (
	"slices"
	"strings"
)

// Config is a text search configuration: which of the parser's tokens
// it indexes, and the dictionary that turns each into a lexeme.
type Config struct {
	// Name is the qualified name, as SHOW default_text_search_config
	// prints it.
	Name string
	// OID is its pg_ts_config oid, which regconfig holds.
	OID   uint32
	dicts [len(TokenTypes) + 1]Dict
}

// Dict is a text search dictionary.
type Dict uint8

const (
	// NoDict leaves a token type unindexed.
	NoDict Dict = iota
	// Simple lower-cases a token.
	Simple
	// EnglishStem lower-cases a token, drops the English stop words and
	// stems the rest (Porter2).
	EnglishStem
)

// The configurations known: PostgreSQL's english and simple.
var (
	English      = &Config{Name: "pg_catalog.english", OID: 13164}
	SimpleConfig = &Config{Name: "pg_catalog.simple", OID: 3748}
)

func init() {
	for _, t := range []TokenType{ASCIIWord, Word, ASCIIHWord, HWord, HWordASCIIPart, HWordPart} {
		English.dicts[t] = EnglishStem
		SimpleConfig.dicts[t] = Simple
	}
	for _, t := range []TokenType{NumWord, NumHWord, HWordNumPart, Email, URL, Host, URLPath, File,
		SFloat, Float, Int, UInt, Version} {
		English.dicts[t] = Simple
		SimpleConfig.dicts[t] = Simple
	}
}

// snowballLanguages are the languages of PostgreSQL's built-in stemmers
// (the configurations and dictionaries named after them), of which
// deltaview has english.
var snowballLanguages = strings.Fields(`arabic armenian basque catalan danish dutch english finnish french
	german greek hindi hungarian indonesian irish italian lithuanian nepali norwegian portuguese romanian
	russian serbian spanish swedish tamil turkish yiddish`)

// IsSnowballLanguage reports whether PostgreSQL has a configuration and a
// stemmer for lang.
func IsSnowballLanguage(lang string) bool { return slices.Contains(snowballLanguages, lang) }

// LookupConfig finds a configuration by its name within pg_catalog.
func LookupConfig(name string) *Config {
	switch name {
	case "english":
		return English
	case "simple":
		return SimpleConfig
	}
	return nil
}

// ConfigByOID finds a configuration by its oid; nil when none has it.
func ConfigByOID(oid uint32) *Config {
	for _, c := range []*Config{English, SimpleConfig} {
		if c.OID == oid {
			return c
		}
	}
	return nil
}

// maxLexeme is the length in bytes from which a word is too long to be
// indexed: PostgreSQL skips it with a notice.
const maxLexeme = 2047

// Lexize returns the lexeme dictionary d makes of token; ok is false for a
// stop word.
func (d Dict) Lexize(token string) (lexeme string, ok bool) {
	w := lowerASCII(token)
	switch d {
	case Simple:
		return w, w != ""
	case EnglishStem:
		if w == "" || englishStopWords[w] {
			return "", false
		}
		// Longer strings are surely not words: they are kept as they are.
		if len(token) > 1000 {
			return w, true
		}
		return StemEnglish(w), true
	}
	return "", false
}

// lowerASCII lower-cases the ASCII letters of s, as PostgreSQL does in the
// C locale.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Lexemes passes to emit the lexemes of text in order, as to_tsvector
// finds them before it sorts and dedups them.
func (c *Config) Lexemes(text string, emit func(lexeme string)) {
	Parse(text, func(t Token) {
		if len(t.Text) >= maxLexeme {
			return
		}
		if lex, ok := c.dicts[t.Type].Lexize(t.Text); ok {
			emit(lex)
		}
	})
}

// Match is text @@ text under c: whether the lexemes of doc include every
// lexeme of query (to_tsvector(c, doc) @@ plainto_tsquery(c, query)). A
// query without lexemes matches nothing.
func (c *Config) Match(doc, query string) bool {
	var want []string
	c.Lexemes(query, func(l string) { want = append(want, l) })
	if len(want) == 0 {
		return false
	}
	have := map[string]bool{}
	c.Lexemes(doc, func(l string) { have[l] = true })
	for _, l := range want {
		if !have[l] {
			return false
		}
	}
	return true
}

// Dict returns the dictionary c gives tokens of type t, NoDict for a type
// it leaves out.
func (c *Config) Dict(t TokenType) Dict { return c.dicts[t] }

// String is the dictionary's name, as regdictionary prints it.
func (d Dict) String() string {
	switch d {
	case Simple:
		return "simple"
	case EnglishStem:
		return "english_stem"
	}
	return ""
}
