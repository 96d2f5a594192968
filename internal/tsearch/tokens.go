package tsearch

// TokenType is one of the default parser's 23 token types; its number is
// PostgreSQL's tokid.
type TokenType int

// The default parser's token types, numbered as PostgreSQL numbers them.
const (
	ASCIIWord      TokenType = 1 + iota // Word, all ASCII
	Word                                // Word, all letters
	NumWord                             // Word, letters and digits
	Email                               // Email address
	URL                                 // URL
	Host                                // Host
	SFloat                              // Scientific notation
	Version                             // Version number
	HWordNumPart                        // Hyphenated word part, letters and digits
	HWordPart                           // Hyphenated word part, all letters
	HWordASCIIPart                      // Hyphenated word part, all ASCII
	Blank                               // Space symbols
	Tag                                 // XML tag
	Protocol                            // Protocol head
	NumHWord                            // Hyphenated word, letters and digits
	ASCIIHWord                          // Hyphenated word, all ASCII
	HWord                               // Hyphenated word, all letters
	URLPath                             // URL path
	File                                // File or path name
	Float                               // Decimal notation
	Int                                 // Signed integer
	UInt                                // Unsigned integer
	Entity                              // XML entity
)

// TokenTypes lists the token types in tokid order, with the alias and
// description ts_token_type shows.
var TokenTypes = [...]struct {
	Alias, Description string
}{
	{"asciiword", "Word, all ASCII"},
	{"word", "Word, all letters"},
	{"numword", "Word, letters and digits"},
	{"email", "Email address"},
	{"url", "URL"},
	{"host", "Host"},
	{"sfloat", "Scientific notation"},
	{"version", "Version number"},
	{"hword_numpart", "Hyphenated word part, letters and digits"},
	{"hword_part", "Hyphenated word part, all letters"},
	{"hword_asciipart", "Hyphenated word part, all ASCII"},
	{"blank", "Space symbols"},
	{"tag", "XML tag"},
	{"protocol", "Protocol head"},
	{"numhword", "Hyphenated word, letters and digits"},
	{"asciihword", "Hyphenated word, all ASCII"},
	{"hword", "Hyphenated word, all letters"},
	{"url_path", "URL path"},
	{"file", "File or path name"},
	{"float", "Decimal notation"},
	{"int", "Signed integer"},
	{"uint", "Unsigned integer"},
	{"entity", "XML entity"},
}

// DefaultParserOID is the oid of PostgreSQL's default parser, pg_catalog.default.
const DefaultParserOID = 3722
