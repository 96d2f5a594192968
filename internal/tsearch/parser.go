package tsearch

// The default parser is a backtracking automaton over characters. Each
// state has an ordered list of rules; the first rule whose character test
// passes fires. A rule may push the current position (to come back and try
// the state's next rule if the longer reading fails), pop back to the last
// pushed position, or accept the characters read so far as a token.
//
// Characters are classified as the PostgreSQL server classifies them under
// the C locale with UTF-8 encoding: every non-ASCII character is a letter,
// never a digit or a space.

type pstate uint8

const (
	sBase pstate = iota
	sNumWord
	sASCIIWord
	sWord
	sUnsignedInt
	sSignedIntFirst
	sSignedInt
	sSpace
	sUDecimalFirst
	sUDecimal
	sDecimalFirst
	sDecimal
	sVerVersion
	sSVerVersion
	sVersionFirst
	sVersion
	sMantissaFirst
	sMantissaSign
	sMantissa
	sEntityFirst
	sEntity
	sEntityNumFirst
	sEntityNum
	sEntityHexNumFirst
	sEntityHexNum
	sEntityEnd
	sTagFirst
	sXMLBegin
	sTagCloseFirst
	sTagName
	sTagBeginEnd
	sTag
	sTagQuote
	sTagDoubleQuote
	sTagBackslash
	sTagEnd
	sCommentFirst
	sCommentLast
	sComment
	sCloseCommentFirst
	sCloseCommentLast
	sCommentEnd
	sHostFirstDomain
	sHostDomainSecond
	sHostDomain
	sPortFirst
	sPort
	sHostFirstAN
	sHost
	sEmail
	sFileFirst
	sFileTwiddle
	sPathFirst
	sPathFirstFirst
	sPathSecond
	sFile
	sFileNext
	sURLPathFirst
	sURLPathStart
	sURLPath
	sFURL
	sProtocolFirst
	sProtocolSecond
	sProtocolEnd
	sHyphenASCIIWordFirst
	sHyphenASCIIWord
	sHyphenWordFirst
	sHyphenWord
	sHyphenNumWordFirst
	sHyphenNumWord
	sHyphenDigitLookahead
	sParseHyphen
	sParseHyphenHyphen
	sHyphenWordPart
	sHyphenASCIIWordPart
	sHyphenNumWordPart
	sHyphenUnsignedInt
	sStay // in a rule: keep the current state
)

// A character test.
type ctest uint8

const (
	tAny ctest = iota
	tEOF
	tEq
	tASCIILetter
	tAlpha
	tDigit
	tAlnum
	tNotAlnum
	tSpace
	tXDigit
	tIgnore   // inside <script> or <style>
	tStopHost // once, when a host is wanted (URL re-reading)
	tHost     // a host follows (email)
	tURLPath  // a URL path follows
	tURLChar
)

// Rule actions, combinable.
const (
	aNext   = 1 << iota // advance one character
	aBingo              // accept the token read so far
	aPop                // back to the last pushed position, trying its next rule
	aPush               // remember this position and rule, then advance
	aRerun              // do not advance: apply the new state to this character
	aClear              // forget the last pushed position
	aClrAll             // forget every pushed position
	aMerge              // pop, keeping the current position
)

// What a rule does on firing besides its action.
type special uint8

const (
	xNone       special = iota
	xTags               // a tag name read: <script>/<style> start or end ignored text
	xRewind             // after accepting a compound, re-read it from its start
	xFURL               // as xRewind, and re-read its host as a host
	xVerVersion         // a signed version: re-read it, the sign apart
)

type rule struct {
	test ctest
	c    rune
	act  uint8
	to   pstate
	tok  TokenType
	x    special
}

func r(test ctest, act uint8, to pstate) rule { return rule{test: test, act: act, to: to} }
func eq(c rune, act uint8, to pstate) rule    { return rule{test: tEq, c: c, act: act, to: to} }
func bingo(test ctest, act uint8, to pstate, tok TokenType) rule {
	return rule{test: test, act: act | aBingo, to: to, tok: tok}
}

// rules are each state's rules, in the order they are tried.
var rules = [sStay][]rule{
	sBase: {
		r(tEOF, aNext, sStay),
		eq('<', aPush, sTagFirst),
		r(tIgnore, aNext, sSpace),
		r(tASCIILetter, aNext, sASCIIWord),
		r(tAlpha, aNext, sWord),
		r(tDigit, aNext, sUnsignedInt),
		eq('-', aPush, sSignedIntFirst),
		eq('+', aPush, sSignedIntFirst),
		eq('&', aPush, sEntityFirst),
		eq('~', aPush, sFileTwiddle),
		eq('/', aPush, sFileFirst),
		eq('.', aPush, sPathFirstFirst),
		r(tAny, aNext, sSpace),
	},
	sNumWord: {
		bingo(tEOF, 0, sBase, NumWord),
		r(tAlnum, aNext, sNumWord),
		eq('@', aPush, sEmail),
		eq('/', aPush, sFileFirst),
		eq('.', aPush, sFileNext),
		eq('-', aPush, sHyphenNumWordFirst),
		bingo(tAny, 0, sBase, NumWord),
	},
	sASCIIWord: {
		bingo(tEOF, 0, sBase, ASCIIWord),
		r(tASCIILetter, aNext, sStay),
		eq('.', aPush, sHostFirstDomain),
		eq('.', aPush, sFileNext),
		eq('-', aPush, sHostFirstAN),
		eq('-', aPush, sHyphenASCIIWordFirst),
		eq('_', aPush, sHostFirstAN),
		eq('@', aPush, sEmail),
		eq(':', aPush, sProtocolFirst),
		eq('/', aPush, sFileFirst),
		r(tDigit, aPush, sHost),
		r(tDigit, aNext, sNumWord),
		r(tAlpha, aNext, sWord),
		bingo(tAny, 0, sBase, ASCIIWord),
	},
	sWord: {
		bingo(tEOF, 0, sBase, Word),
		r(tAlpha, aNext, sStay),
		r(tDigit, aNext, sNumWord),
		eq('-', aPush, sHyphenWordFirst),
		bingo(tAny, 0, sBase, Word),
	},
	sUnsignedInt: {
		bingo(tEOF, 0, sBase, UInt),
		r(tDigit, aNext, sStay),
		eq('.', aPush, sHostFirstDomain),
		eq('.', aPush, sUDecimalFirst),
		eq('e', aPush, sMantissaFirst),
		eq('E', aPush, sMantissaFirst),
		eq('-', aPush, sHostFirstAN),
		eq('_', aPush, sHostFirstAN),
		eq('@', aPush, sEmail),
		r(tASCIILetter, aPush, sHost),
		r(tAlpha, aNext, sNumWord),
		eq('/', aPush, sFileFirst),
		bingo(tAny, 0, sBase, UInt),
	},
	sSignedIntFirst: {
		r(tEOF, aPop, sStay),
		r(tDigit, aNext|aClear, sSignedInt),
		r(tAny, aPop, sStay),
	},
	sSignedInt: {
		bingo(tEOF, 0, sBase, Int),
		r(tDigit, aNext, sStay),
		eq('.', aPush, sDecimalFirst),
		eq('e', aPush, sMantissaFirst),
		eq('E', aPush, sMantissaFirst),
		bingo(tAny, 0, sBase, Int),
	},
	sSpace: {
		bingo(tEOF, 0, sBase, Blank),
		bingo(tEq, 0, sBase, Blank).with('<'),
		r(tIgnore, aNext, sStay),
		bingo(tEq, 0, sBase, Blank).with('-'),
		bingo(tEq, 0, sBase, Blank).with('+'),
		bingo(tEq, 0, sBase, Blank).with('&'),
		bingo(tEq, 0, sBase, Blank).with('/'),
		r(tNotAlnum, aNext, sSpace),
		bingo(tAny, 0, sBase, Blank),
	},
	sUDecimalFirst: {
		r(tDigit, aClear, sUDecimal),
		r(tAny, aPop, sStay),
	},
	sUDecimal: {
		bingo(tEOF, 0, sBase, Float),
		r(tDigit, aNext, sUDecimal),
		eq('.', aPush, sVersionFirst),
		eq('e', aPush, sMantissaFirst),
		eq('E', aPush, sMantissaFirst),
		bingo(tAny, 0, sBase, Float),
	},
	sDecimalFirst: {
		r(tDigit, aClear, sDecimal),
		r(tAny, aPop, sStay),
	},
	sDecimal: {
		bingo(tEOF, 0, sBase, Float),
		r(tDigit, aNext, sDecimal),
		eq('.', aPush, sVerVersion),
		eq('e', aPush, sMantissaFirst),
		eq('E', aPush, sMantissaFirst),
		bingo(tAny, 0, sBase, Float),
	},
	sVerVersion: {
		rule{test: tDigit, act: aRerun, to: sSVerVersion, x: xVerVersion},
		r(tAny, aPop, sStay),
	},
	sSVerVersion: {
		bingo(tDigit, aClrAll, sUnsignedInt, Blank),
		r(tAny, aNext, sStay),
	},
	sVersionFirst: {
		r(tDigit, aClear, sVersion),
		r(tAny, aPop, sStay),
	},
	sVersion: {
		bingo(tEOF, 0, sBase, Version),
		r(tDigit, aNext, sVersion),
		eq('.', aPush, sVersionFirst),
		bingo(tAny, 0, sBase, Version),
	},
	sMantissaFirst: {
		r(tDigit, aClear, sMantissa),
		eq('+', aNext, sMantissaSign),
		eq('-', aNext, sMantissaSign),
		r(tAny, aPop, sStay),
	},
	sMantissaSign: {
		r(tDigit, aClear, sMantissa),
		r(tAny, aPop, sStay),
	},
	sMantissa: {
		bingo(tEOF, 0, sBase, SFloat),
		r(tDigit, aNext, sMantissa),
		bingo(tAny, 0, sBase, SFloat),
	},
	sEntityFirst: {
		eq('#', aNext, sEntityNumFirst),
		r(tASCIILetter, aNext, sEntity),
		eq(':', aNext, sEntity),
		eq('_', aNext, sEntity),
		r(tAny, aPop, sStay),
	},
	sEntity: {
		r(tAlnum, aNext, sEntity),
		eq(':', aNext, sEntity),
		eq('_', aNext, sEntity),
		eq('.', aNext, sEntity),
		eq('-', aNext, sEntity),
		eq(';', aNext, sEntityEnd),
		r(tAny, aPop, sStay),
	},
	sEntityNumFirst: {
		eq('x', aNext, sEntityHexNumFirst),
		eq('X', aNext, sEntityHexNumFirst),
		r(tDigit, aNext, sEntityNum),
		r(tAny, aPop, sStay),
	},
	sEntityHexNumFirst: {
		r(tXDigit, aNext, sEntityHexNum),
		r(tAny, aPop, sStay),
	},
	sEntityNum: {
		r(tDigit, aNext, sEntityNum),
		eq(';', aNext, sEntityEnd),
		r(tAny, aPop, sStay),
	},
	sEntityHexNum: {
		r(tXDigit, aNext, sEntityHexNum),
		eq(';', aNext, sEntityEnd),
		r(tAny, aPop, sStay),
	},
	sEntityEnd: {
		bingo(tAny, aClear, sBase, Entity),
	},
	sTagFirst: {
		r(tEOF, aPop, sStay),
		eq('/', aPush, sTagCloseFirst),
		eq('!', aPush, sCommentFirst),
		eq('?', aPush, sXMLBegin),
		r(tASCIILetter, aPush, sTagName),
		eq(':', aPush, sTagName),
		eq('_', aPush, sTagName),
		r(tAny, aPop, sStay),
	},
	sXMLBegin: {
		r(tEOF, aPop, sStay),
		eq('x', aNext, sTag),
		eq('X', aNext, sTag),
		r(tAny, aPop, sStay),
	},
	sTagCloseFirst: {
		r(tEOF, aPop, sStay),
		r(tASCIILetter, aNext, sTagName),
		r(tAny, aPop, sStay),
	},
	sTagName: {
		r(tEOF, aPop, sStay),
		eq('/', aNext, sTagBeginEnd),
		eq('>', aNext, sTagEnd).does(xTags),
		r(tSpace, aNext, sTag).does(xTags),
		r(tAlnum, aNext, sStay),
		eq(':', aNext, sStay),
		eq('_', aNext, sStay),
		eq('.', aNext, sStay),
		eq('-', aNext, sStay),
		r(tAny, aPop, sStay),
	},
	sTagBeginEnd: {
		r(tEOF, aPop, sStay),
		eq('>', aNext, sTagEnd),
		r(tAny, aPop, sStay),
	},
	sTag: {
		r(tEOF, aPop, sStay),
		eq('>', aNext, sTagEnd).does(xTags),
		eq('\'', aNext, sTagQuote),
		eq('"', aNext, sTagDoubleQuote),
		r(tASCIILetter, aNext, sStay),
		r(tDigit, aNext, sStay),
		eq('=', aNext, sStay),
		eq('-', aNext, sStay),
		eq('_', aNext, sStay),
		eq('#', aNext, sStay),
		eq('/', aNext, sStay),
		eq(':', aNext, sStay),
		eq('.', aNext, sStay),
		eq('&', aNext, sStay),
		eq('?', aNext, sStay),
		eq('%', aNext, sStay),
		eq('~', aNext, sStay),
		r(tSpace, aNext, sStay).does(xTags),
		r(tAny, aPop, sStay),
	},
	sTagQuote: {
		r(tEOF, aPop, sStay),
		eq('\\', aPush, sTagBackslash),
		eq('\'', aNext, sTag),
		r(tAny, aNext, sTagQuote),
	},
	sTagDoubleQuote: {
		r(tEOF, aPop, sStay),
		eq('\\', aPush, sTagBackslash),
		eq('"', aNext, sTag),
		r(tAny, aNext, sTagDoubleQuote),
	},
	sTagBackslash: {
		r(tEOF, aPop, sStay),
		r(tAny, aMerge, sStay),
	},
	sTagEnd: {
		bingo(tAny, aClrAll, sBase, Tag),
	},
	sCommentFirst: {
		r(tEOF, aPop, sStay),
		eq('-', aNext, sCommentLast),
		eq('D', aNext, sTag), // <!DOCTYPE ...>
		eq('d', aNext, sTag),
		r(tAny, aPop, sStay),
	},
	sCommentLast: {
		r(tEOF, aPop, sStay),
		eq('-', aNext, sComment),
		r(tAny, aPop, sStay),
	},
	sComment: {
		r(tEOF, aPop, sStay),
		eq('-', aNext, sCloseCommentFirst),
		r(tAny, aNext, sStay),
	},
	sCloseCommentFirst: {
		r(tEOF, aPop, sStay),
		eq('-', aNext, sCloseCommentLast),
		r(tAny, aNext, sComment),
	},
	sCloseCommentLast: {
		r(tEOF, aPop, sStay),
		eq('-', aNext, sStay),
		eq('>', aNext, sCommentEnd),
		r(tAny, aNext, sComment),
	},
	sCommentEnd: {
		bingo(tAny, aClrAll, sBase, Tag),
	},
	sHostFirstDomain: {
		r(tEOF, aPop, sStay),
		r(tASCIILetter, aNext, sHostDomainSecond),
		r(tDigit, aNext, sHost),
		r(tAny, aPop, sStay),
	},
	sHostDomainSecond: {
		r(tEOF, aPop, sStay),
		r(tASCIILetter, aNext, sHostDomain),
		r(tDigit, aPush, sHost),
		eq('-', aPush, sHostFirstAN),
		eq('_', aPush, sHostFirstAN),
		eq('.', aPush, sHostFirstDomain),
		eq('@', aPush, sEmail),
		r(tAny, aPop, sStay),
	},
	sHostDomain: {
		bingo(tEOF, aClrAll, sBase, Host),
		r(tASCIILetter, aNext, sHostDomain),
		r(tDigit, aPush, sHost),
		eq(':', aPush, sPortFirst),
		eq('-', aPush, sHostFirstAN),
		eq('_', aPush, sHostFirstAN),
		eq('.', aPush, sHostFirstDomain),
		eq('@', aPush, sEmail),
		r(tDigit, aPop, sStay),
		bingo(tStopHost, aClrAll, sURLPathStart, Host),
		eq('/', aPush, sFURL),
		bingo(tAny, aClrAll, sBase, Host),
	},
	sPortFirst: {
		r(tEOF, aPop, sStay),
		r(tDigit, aNext, sPort),
		r(tAny, aPop, sStay),
	},
	sPort: {
		bingo(tEOF, aClrAll, sBase, Host),
		r(tDigit, aNext, sPort),
		bingo(tStopHost, aClrAll, sURLPathStart, Host),
		eq('/', aPush, sFURL),
		bingo(tAny, aClrAll, sBase, Host),
	},
	sHostFirstAN: {
		r(tEOF, aPop, sStay),
		r(tDigit, aNext, sHost),
		r(tASCIILetter, aNext, sHost),
		r(tAny, aPop, sStay),
	},
	sHost: {
		r(tEOF, aPop, sStay),
		r(tDigit, aNext, sHost),
		r(tASCIILetter, aNext, sHost),
		eq('@', aPush, sEmail),
		eq('.', aPush, sHostFirstDomain),
		eq('-', aPush, sHostFirstAN),
		eq('_', aPush, sHostFirstAN),
		r(tAny, aPop, sStay),
	},
	sEmail: {
		r(tStopHost, aPop, sStay),
		bingo(tHost, aClrAll, sBase, Email),
		r(tAny, aPop, sStay),
	},
	sFileFirst: {
		r(tEOF, aPop, sStay),
		r(tASCIILetter, aNext, sFile),
		r(tDigit, aNext, sFile),
		eq('.', aNext, sPathFirst),
		eq('_', aNext, sFile),
		eq('~', aPush, sFileTwiddle),
		r(tAny, aPop, sStay),
	},
	sFileTwiddle: {
		r(tEOF, aPop, sStay),
		r(tASCIILetter, aNext, sFile),
		r(tDigit, aNext, sFile),
		eq('_', aNext, sFile),
		eq('/', aNext, sFileFirst),
		r(tAny, aPop, sStay),
	},
	sPathFirst: {
		r(tEOF, aPop, sStay),
		r(tASCIILetter, aNext, sFile),
		r(tDigit, aNext, sFile),
		eq('_', aNext, sFile),
		eq('.', aNext, sPathSecond),
		eq('/', aNext, sFileFirst),
		r(tAny, aPop, sStay),
	},
	sPathFirstFirst: {
		r(tEOF, aPop, sStay),
		eq('.', aNext, sPathSecond),
		eq('/', aNext, sFileFirst),
		r(tAny, aPop, sStay),
	},
	sPathSecond: {
		bingo(tEOF, aClear, sBase, File),
		eq('/', aNext|aPush, sFileFirst),
		bingo(tEq, aClear, sBase, File).with('/'),
		bingo(tSpace, aClear, sBase, File),
		r(tAny, aPop, sStay),
	},
	sFile: {
		bingo(tEOF, 0, sBase, File),
		r(tASCIILetter, aNext, sFile),
		r(tDigit, aNext, sFile),
		eq('.', aPush, sFileNext),
		eq('_', aNext, sFile),
		eq('-', aNext, sFile),
		eq('/', aPush, sFileFirst),
		bingo(tAny, 0, sBase, File),
	},
	sFileNext: {
		r(tASCIILetter, aClear, sFile),
		r(tDigit, aClear, sFile),
		eq('_', aClear, sFile),
		r(tAny, aPop, sStay),
	},
	sURLPathFirst: {
		r(tEOF, aPop, sStay),
		r(tURLChar, aNext, sURLPath),
		r(tAny, aPop, sStay),
	},
	sURLPathStart: {
		r(tAny, aNext, sURLPath),
	},
	sURLPath: {
		bingo(tEOF, 0, sBase, URLPath),
		r(tURLChar, aNext, sURLPath),
		bingo(tAny, 0, sBase, URLPath),
	},
	sFURL: {
		r(tEOF, aPop, sStay),
		bingo(tURLPath, aClrAll, sBase, URL).does(xFURL),
		r(tAny, aPop, sStay),
	},
	sProtocolFirst: {
		r(tEOF, aPop, sStay),
		eq('/', aNext, sProtocolSecond),
		r(tAny, aPop, sStay),
	},
	sProtocolSecond: {
		r(tEOF, aPop, sStay),
		eq('/', aNext, sProtocolEnd),
		r(tAny, aPop, sStay),
	},
	sProtocolEnd: {
		bingo(tAny, aClrAll, sBase, Protocol),
	},
	sHyphenASCIIWordFirst: {
		r(tEOF, aPop, sStay),
		r(tASCIILetter, aNext, sHyphenASCIIWord),
		r(tAlpha, aNext, sHyphenWord),
		r(tDigit, aNext, sHyphenDigitLookahead),
		r(tAny, aPop, sStay),
	},
	sHyphenASCIIWord: {
		bingo(tEOF, aClrAll, sParseHyphen, ASCIIHWord).does(xRewind),
		r(tASCIILetter, aNext, sHyphenASCIIWord),
		r(tAlpha, aNext, sHyphenWord),
		r(tDigit, aNext, sHyphenNumWord),
		eq('-', aPush, sHyphenASCIIWordFirst),
		bingo(tAny, aClrAll, sParseHyphen, ASCIIHWord).does(xRewind),
	},
	sHyphenWordFirst: {
		r(tEOF, aPop, sStay),
		r(tAlpha, aNext, sHyphenWord),
		r(tDigit, aNext, sHyphenDigitLookahead),
		r(tAny, aPop, sStay),
	},
	sHyphenWord: {
		bingo(tEOF, aClrAll, sParseHyphen, HWord).does(xRewind),
		r(tAlpha, aNext, sHyphenWord),
		r(tDigit, aNext, sHyphenNumWord),
		eq('-', aPush, sHyphenWordFirst),
		bingo(tAny, aClrAll, sParseHyphen, HWord).does(xRewind),
	},
	sHyphenNumWordFirst: {
		r(tEOF, aPop, sStay),
		r(tAlpha, aNext, sHyphenNumWord),
		r(tDigit, aNext, sHyphenDigitLookahead),
		r(tAny, aPop, sStay),
	},
	sHyphenNumWord: {
		bingo(tEOF, aClrAll, sParseHyphen, NumHWord).does(xRewind),
		r(tAlnum, aNext, sHyphenNumWord),
		eq('-', aPush, sHyphenNumWordFirst),
		bingo(tAny, aClrAll, sParseHyphen, NumHWord).does(xRewind),
	},
	sHyphenDigitLookahead: {
		r(tEOF, aPop, sStay),
		r(tDigit, aNext, sHyphenDigitLookahead),
		r(tAlpha, aNext, sHyphenNumWord),
		r(tAny, aPop, sStay),
	},
	sParseHyphen: {
		r(tEOF, aRerun, sBase),
		r(tASCIILetter, aNext, sHyphenASCIIWordPart),
		r(tAlpha, aNext, sHyphenWordPart),
		r(tDigit, aPush, sHyphenUnsignedInt),
		eq('-', aPush, sParseHyphenHyphen),
		r(tAny, aRerun, sBase),
	},
	sParseHyphenHyphen: {
		r(tEOF, aPop, sStay),
		bingo(tAlnum, aClear, sParseHyphen, Blank),
		r(tAny, aPop, sStay),
	},
	sHyphenWordPart: {
		bingo(tEOF, 0, sBase, HWordPart),
		r(tAlpha, aNext, sHyphenWordPart),
		r(tDigit, aNext, sHyphenNumWordPart),
		bingo(tAny, 0, sParseHyphen, HWordPart),
	},
	sHyphenASCIIWordPart: {
		bingo(tEOF, 0, sBase, HWordASCIIPart),
		r(tASCIILetter, aNext, sHyphenASCIIWordPart),
		r(tAlpha, aNext, sHyphenWordPart),
		r(tDigit, aNext, sHyphenNumWordPart),
		bingo(tAny, 0, sParseHyphen, HWordASCIIPart),
	},
	sHyphenNumWordPart: {
		bingo(tEOF, 0, sBase, HWordNumPart),
		r(tAlnum, aNext, sHyphenNumWordPart),
		bingo(tAny, 0, sParseHyphen, HWordNumPart),
	},
	sHyphenUnsignedInt: {
		r(tEOF, aPop, sStay),
		r(tDigit, aNext, sStay),
		r(tAlpha, aClear, sHyphenNumWordPart),
		r(tAny, aPop, sStay),
	},
}

func (x rule) with(c rune) rule    { x.c = c; return x }
func (x rule) does(s special) rule { x.x = s; return x }
