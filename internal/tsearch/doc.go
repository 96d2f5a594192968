// Package tsearch is PostgreSQL's text search over text, written from its
// documented behaviour and checked against the server: the default parser
// (ts_parse's tokens), the english_stem and simple dictionaries
// (ts_lexize), and the english and simple configurations that text @@ text
// matches under.
//
// Parse("foo-bar 1.5", emit) emits, as ts_parse('default', 'foo-bar 1.5'):
//
//	asciihword      foo-bar
//	hword_asciipart foo
//	blank           -
//	hword_asciipart bar
//	blank           (a space)
//	float           1.5
//
// English.Match("The cats are running", "cat run") is true: both sides
// become lexemes (stems, without stop words), and every lexeme of the
// query is among the document's.
//
// The tsvector and tsquery types are Vector and Query, strings whose
// bytewise order is PostgreSQL's order of the types. English.ToVector("The
// fat rats") is 'fat':2 'rat':3; English.ToQuery("fat <-> rats") is
// 'fat' <-> 'rat', and Match finds it there (positions 2 and 3); Rank and
// RankCD compute ts_rank and ts_rank_cd as PostgreSQL does, digit for digit.
package tsearch
