// Package pgerr defines the error value every user-facing failure carries:
// a SQLSTATE code, a message, and optionally a position in the statement text
// and a hint, printed the way psql prints server errors.
package pgerr

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// SQLSTATE codes used across deltaview.
const (
	FeatureNotSupported      = "0A000"
	SyntaxError              = "42601"
	UndefinedTable           = "42P01"
	UndefinedColumn          = "42703"
	UndefinedFunction        = "42883"
	UndefinedObject          = "42704"
	InvalidTablesampleArg    = "2202H"
	InvalidTablesampleRepeat = "2202G"
	DuplicateTable           = "42P07"
	DuplicateObject          = "42710"
	DuplicateColumn          = "42701"
	AmbiguousColumn          = "42702"
	DatatypeMismatch         = "42804"
	CannotCoerce             = "42846"
	GroupingError            = "42803"
	InvalidColumnRef         = "42P10"
	WrongObjectType          = "42809"
	DependentObjects         = "2BP01"
	InvalidTableDef          = "42P16"
	NumericOutOfRange        = "22003"
	DivisionByZero           = "22012"
	InvalidTextRep           = "22P02"
	InvalidDatetimeFormat    = "22007"
	DatetimeOverflow         = "22008"
	IntervalOverflow         = "22015"
	StringTooLong            = "22001"
	InvalidParameter         = "22023"
	InvalidEscape            = "22025"
	InvalidRegex             = "2201B"
	CardinalityViolation     = "21000"
	UniqueViolation          = "23505"
	NotNullViolation         = "23502"
	CheckViolation           = "23514"
	ExclusionViolation       = "23P01"
	ForeignKeyViolation      = "23503"
	InvalidForeignKey        = "42830"
	ActiveTransaction        = "25001"
	NoActiveTransaction      = "25P01"
	InFailedTransaction      = "25P02"
	ProgramLimitExceeded     = "54000"
	OutOfMemory              = "53200"
	Internal                 = "XX000"
	InvalidObjectDef         = "42P17"
	InvalidRecursion         = "42P19"
	Undefined                = "42000"
	DuplicateAlias           = "42712"
	BadCopyFileFormat        = "22P04"
	UndefinedFile            = "58P01"
	IOError                  = "58030"
	InsufficientPrivilege    = "42501"
	UndefinedParameter       = "42P02"
	IndeterminateDatatype    = "42P18"
	ProtocolViolation        = "08P01"
	InvalidTxState           = "25000"
	LockNotAvailable         = "55P03"
	InvalidBinaryRep         = "22P03"
	AdminShutdown            = "57P01"
	QueryCanceled            = "57014"
	InvalidAuthorization     = "28000"
	InvalidCatalogName       = "3D000"
	UndefinedPrepared        = "26000"
	UndefinedCursor          = "34000"
	DuplicatePrepared        = "42P05"
	DuplicateCursor          = "42P03"
	InvalidCursorState       = "24000"
	StatementTooComplex      = "54001"
	CharacterNotInRepertoire = "22021"
	ObjectNotInPrereqState   = "55000"
	ConnectionFailure        = "08006"
)

// Error is a user-facing error. Position is a 1-based character offset into
// the statement text, or 0 when unknown.
type Error struct {
	Code     string
	Message  string
	Detail   string
	Hint     string
	Position int
	// Context says where the error arose, a line each, innermost first,
	// as PostgreSQL's CONTEXT field (PL/pgSQL function f(integer) line 3
	// at RAISE).
	Context string
	// Schema, Table, Column, DataType and Constraint name the object the
	// error concerns, when it says (PL/pgSQL's RAISE … USING TABLE = …).
	Schema, Table, Column, DataType, Constraint string
	// NoContext keeps Context empty: PostgreSQL gives no context to an
	// error raised while it reports another (a notice that does not
	// convert to the client's encoding).
	NoContext bool
	// FailingRow are the texts of the values a DETAIL "Failing row
	// contains (…)." shows, by column of Table, for the statement to
	// show only those its role may read, as PostgreSQL does.
	FailingRow []string
}

func (e *Error) Error() string { return e.Message }

// New returns an error with code and a formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: sprintf(format, args...)}
}

// At returns a copy of e positioned at the 0-based byte offset off of the
// statement text sql; a negative offset leaves e unpositioned.
func (e *Error) At(sql string, off int) *Error {
	if off < 0 || off > len(sql) {
		return e
	}
	c := *e
	c.Position = utf8.RuneCountInString(sql[:off]) + 1
	return &c
}

// WithHint returns a copy of e with a hint.
func (e *Error) WithHint(format string, args ...any) *Error {
	c := *e
	c.Hint = sprintf(format, args...)
	return &c
}

// WithDetail returns a copy of e with a detail.
func (e *Error) WithDetail(format string, args ...any) *Error {
	c := *e
	c.Detail = sprintf(format, args...)
	return &c
}

// WithContext returns a copy of e with a line of context after those it
// has.
func (e *Error) WithContext(line string) *Error {
	if e.NoContext {
		return e
	}
	c := *e
	if c.Context != "" {
		c.Context += "\n"
	}
	c.Context += line
	return &c
}

// Code returns the SQLSTATE of err, or XX000 if err carries none.
func Code(err error) string {
	if err == nil {
		return Internal
	}
	return Wrap(err).Code
}

// Wrap returns err as an *Error, giving it code XX000 if it has none.
func Wrap(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	// An error of a PostgreSQL client (a source, a sink's target) keeps
	// the SQLSTATE the server sent.
	var s interface{ SQLState() string }
	if errors.As(err, &s) && len(s.SQLState()) == 5 {
		return &Error{Code: s.SQLState(), Message: err.Error()}
	}
	return &Error{Code: Internal, Message: err.Error()}
}

// Format prints err as psql does: "ERROR:  message", the SQLSTATE, and when
// the error is positioned, the offending line of sql with a caret under the
// position, then DETAIL and HINT lines.
func Format(err error, sql string) string {
	e := Wrap(err)
	var b strings.Builder
	fmt.Fprintf(&b, "ERROR:  %s (SQLSTATE %s)\n", e.Message, e.Code)
	if e.Position > 0 && sql != "" {
		writeCaret(&b, sql, e.Position)
	}
	if e.Detail != "" {
		fmt.Fprintf(&b, "DETAIL:  %s\n", e.Detail)
	}
	if e.Hint != "" {
		fmt.Fprintf(&b, "HINT:  %s\n", e.Hint)
	}
	if e.Context != "" {
		fmt.Fprintf(&b, "CONTEXT:  %s\n", e.Context)
	}
	return b.String()
}

// writeCaret writes "LINE n: text" and a caret under the 1-based character
// position pos, like psql.
func writeCaret(b *strings.Builder, sql string, pos int) {
	runes := []rune(sql)
	if pos > len(runes)+1 {
		return
	}
	line, start := 1, 0
	for i := 0; i < pos-1 && i < len(runes); i++ {
		if runes[i] == '\n' {
			line++
			start = i + 1
		}
	}
	end := start
	for end < len(runes) && runes[end] != '\n' {
		end++
	}
	prefix := fmt.Sprintf("LINE %d: ", line)
	text := strings.ReplaceAll(string(runes[start:end]), "\t", " ")
	if i := strings.IndexByte(text, 0); i >= 0 {
		text = text[:i] // a NUL ends the line shown, as it would a C string
	}
	fmt.Fprintf(b, "%s%s\n", prefix, text)
	fmt.Fprintf(b, "%s^\n", strings.Repeat(" ", len(prefix)+pos-1-start))
}

// SQLSTATE codes of a server's connections.
const (
	InvalidPassword            = "28P01"
	TooManyConnections         = "53300"
	IdleSessionTimeout         = "57P05"
	IdleInTransactionTimeout   = "25P03"
	ConfigurationLimitExceeded = "53400"
)
