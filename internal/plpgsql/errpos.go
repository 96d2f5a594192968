package plpgsql

import (
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/pganalyze/pg_query_go/v6/parser"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// CompileError is a compile error of a body at a place in it: PostgreSQL
// reports a CREATE FUNCTION's or a DO's compile error at that place of
// the statement, and one of a body compiled at its first call without a
// position in the calling statement. Unwrap gives the error without a
// position.
type CompileError struct {
	Err *pgerr.Error
	// Offset is the byte offset in Body of the token the error is at,
	// len(Body) at its end.
	Offset int
	Body   string
}

func (e *CompileError) Error() string { return e.Err.Message }

func (e *CompileError) Unwrap() error { return e.Err }

// In returns the error positioned in stmt, the statement whose body it
// is, as PostgreSQL places a body's position in its CREATE statement;
// unpositioned when the body's text is not once in stmt as written (a
// body in quotes with doubled quotes).
func (e *CompileError) In(stmt string) error {
	off := strings.Index(stmt, e.Body)
	if off < 0 || e.Body == "" || strings.Index(stmt[off+1:], e.Body) >= 0 {
		return e.Err
	}
	return e.Err.At(stmt, off+e.Offset)
}

var (
	nearToken    = regexp.MustCompile(`^syntax error at or near "(.+)"$`)
	unknownVar   = regexp.MustCompile(`^"(.+)" is not a known variable$`)
	identCharSet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"
)

// positioned finds where in body the grammar's error err of src is: the
// grammar's library does not say, and PostgreSQL reports it. It is the
// last candidate place where a token valid nowhere (WHERE) put instead of
// the token the message names, or before the end of input (the end of an
// expression, before a terminator, or the body's end), changes the error:
// the grammar stops at its first error, so a change after it changes
// nothing, and one at it or before it makes the error the new token's.
// It returns err as is when it cannot tell.
func positioned(err *pgerr.Error, src, body string, sig Signature) error {
	var cands []int
	n := 0 // the length of the token replaced; 0 to insert
	if err.Message == "syntax error at end of input" {
		cands = append(occurrences(body, ";", false), occurrences(body, "then", true)...)
		cands = append(append(cands, occurrences(body, "loop", true)...), len(body))
		slices.Sort(cands)
	} else {
		tok, fold := "", false
		if m := nearToken.FindStringSubmatch(err.Message); m != nil {
			tok = m[1]
		} else if m := unknownVar.FindStringSubmatch(err.Message); m != nil {
			tok, fold = m[1], true
		} else if m := mustBeCursor.FindStringSubmatch(err.Message); m != nil {
			tok, fold = m[1], true
		}
		if tok == "" {
			return err
		}
		cands, n = occurrences(body, tok, fold), len(tok)
	}
	bodyAt := strings.Index(src, body)
	if body == "" || bodyAt < 0 {
		return err
	}
	at := -1
	if n == 0 {
		at = len(body) // when a WHERE there still leaves an expression unended
	}
	for _, p := range cands {
		mutated := body[:p] + " WHERE " + body[p+n:]
		_, _, _, _, _, _, perr := parse(src[:bodyAt]+mutated+src[bodyAt+len(body):], mutated, sig)
		var pe *parser.Error
		if !errors.As(perr, &pe) || pe.Message != err.Message {
			at = p
		}
	}
	if at < 0 {
		return err
	}
	return &CompileError{Err: err, Offset: at, Body: body}
}

// occurrences are the offsets of tok in body where it is a whole token:
// one of identifier characters is not part of a longer word.
func occurrences(body, tok string, fold bool) []int {
	hay, needle := body, tok
	if fold {
		hay, needle = strings.ToLower(body), strings.ToLower(tok)
	}
	startsWord := strings.ContainsAny(needle[:1], identCharSet)
	endsWord := strings.ContainsAny(needle[len(needle)-1:], identCharSet)
	var out []int
	for i := 0; ; {
		j := strings.Index(hay[i:], needle)
		if j < 0 {
			return out
		}
		p := i + j
		i = p + 1
		if startsWord && p > 0 && strings.ContainsAny(hay[p-1:p], identCharSet) {
			continue
		}
		if e := p + len(needle); endsWord && e < len(hay) && strings.ContainsAny(hay[e:e+1], identCharSet) {
			continue
		}
		out = append(out, p)
	}
}

// CheckTypes checks, as PostgreSQL's compiler does at CREATE, that the
// type of each variable a DECLARE gives by name exists: resolve returns
// the error of a type name that names none (42704), placed at the name in
// the body. Row types (%ROWTYPE, record, a relation's name the grammar
// declares record), %TYPE and refcursor are resolved at the first call.
func (f *Func) CheckTypes(body string, resolve func(typName string) error) error {
	for i, d := range f.datums {
		if i < f.nparams || d.implicit || d.record || d.cursor != nil || d.typName == "" {
			continue
		}
		lower := strings.ToLower(d.typName)
		if strings.HasSuffix(lower, "%type") || strings.HasSuffix(lower, "%rowtype") ||
			lower == "refcursor" || lower == "pg_catalog.refcursor" {
			continue
		}
		if f.sig.RowType != nil && f.sig.RowType(lower) {
			continue
		}
		err := resolve(d.typName)
		if err == nil {
			continue
		}
		pe := pgerr.Wrap(err)
		c := *pe
		c.Position = 0
		if off := declTypeAt(body, d.name, d.typName); off >= 0 {
			return &CompileError{Err: &c, Offset: off, Body: body}
		}
		return &c
	}
	return nil
}

// declTypeAt is the offset in body of the type name typName of the
// declaration of name, -1 when it is not found.
func declTypeAt(body, name, typName string) int {
	before := regexp.MustCompile(`(?is)(?:^|[^a-z0-9_$"])"?` + regexp.QuoteMeta(name) + `"?\s+(?:constant\s+)?$`)
	for _, p := range occurrences(body, typName, true) {
		if before.MatchString(body[:p]) {
			return p
		}
	}
	return -1
}
