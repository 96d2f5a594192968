package sql

import "strings"

// blockDepth follows psql's count of BEGIN … END blocks: a semicolon
// inside BEGIN ATOMIC … END (the body of CREATE [OR REPLACE] FUNCTION or
// PROCEDURE) does not end the statement. As in psql, only words outside
// parentheses of such a statement count: BEGIN opens a block, CASE opens
// one inside a block, END closes one.
type blockDepth struct {
	first        []string // the statement's first words, lower case
	parens       int
	depth        int
	routine      bool
	routineKnown bool
}

// word counts a word of the statement.
func (d *blockDepth) word(w string) {
	w = strings.ToLower(w)
	if !d.routineKnown {
		d.first = append(d.first, w)
		d.routine, d.routineKnown = routineStart(d.first)
	}
	if !d.routine || d.parens > 0 {
		return
	}
	switch {
	case w == "begin":
		d.depth++
	case w == "case" && d.depth > 0:
		d.depth++
	case w == "end" && d.depth > 0:
		d.depth--
	}
}

// routineStart reports, from a statement's first words, whether it is
// CREATE [OR REPLACE] FUNCTION or PROCEDURE, once it is known.
func routineStart(w []string) (routine, known bool) {
	isRoutine := func(s string) bool { return s == "function" || s == "procedure" }
	switch {
	case w[0] != "create":
		return false, true
	case len(w) < 2:
		return false, false
	case isRoutine(w[1]):
		return true, true
	case w[1] != "or":
		return false, true
	case len(w) < 4:
		return false, len(w) == 3 && w[2] != "replace"
	}
	return w[2] == "replace" && isRoutine(w[3]), true
}

// punct counts a punctuation character of the statement.
func (d *blockDepth) punct(c byte) {
	switch c {
	case '(':
		d.parens++
	case ')':
		if d.parens > 0 {
			d.parens--
		}
	}
}

// ends reports whether a semicolon ends the statement, and then starts
// the next one's count.
func (d *blockDepth) ends() bool {
	if d.depth > 0 || d.parens > 0 {
		// psql's rule: a semicolon inside parentheses does not end the
		// statement (CREATE RULE's ( action; action ); COPY (SELECT 1;
		// SELECT 2) is one statement, a syntax error).
		return false
	}
	*d = blockDepth{}
	return true
}
