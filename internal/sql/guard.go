package sql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// MaxStatementBytes is the longest statement text Parse accepts, and the
// longest script Split accepts.
const MaxStatementBytes = 16 << 20

// MaxNestingDepth bounds how deeply a statement's expressions may nest, as
// nestingDepth estimates it. The parser builds, and hands over, its tree
// recursively on a thread's C stack, where running out is a crash no Go
// program can recover from: a chain of 30,000 additions does that with an
// 8 MB stack. One level costs at most about 420 bytes there, so this
// limit keeps the parser within 2 MB, the smallest default thread stack
// of the usual C libraries. PostgreSQL itself refuses a chain of about
// 4,090 additions with its default max_stack_depth.
const MaxNestingDepth = 4000

// checkText refuses, before any cgo call, text the parser must not see: a
// NUL byte (which C would take for the end of the text), invalid UTF-8,
// text over MaxStatementBytes (what is "statement" or "script").
func checkText(text, what string) error {
	if len(text) > MaxStatementBytes {
		return pgerr.New(pgerr.ProgramLimitExceeded, "%s is too long: %d bytes, the limit is %s", what, len(text), FormatBytes(MaxStatementBytes))
	}
	return value.ValidText(text)
}

// checkDepth refuses a statement whose expressions would nest more than
// MaxNestingDepth levels deep, with PostgreSQL's error for running out of
// stack.
func checkDepth(text string) error {
	if d := nestingDepth(text); d > MaxNestingDepth {
		return pgerr.New(pgerr.StatementTooComplex, "stack depth limit exceeded").
			WithHint("Expressions may nest at most %d levels deep, and this statement's nest about %d: group long chains of operators with parentheses, or split the statement.", MaxNestingDepth, d)
	}
	return nil
}

// nestingDepth estimates, from the tokens alone, an upper bound of how
// deeply the parser's tree for text nests. Every operator, and every
// keyword that makes an operator node (NOT, IS, LIKE, BETWEEN, IN,
// COLLATE, AT, JOIN, UNION …), adds a level within its parenthesised
// group, because a chain of them builds a tree as deep as the chain is
// long; a comma ends an element of a list, whose elements are siblings.
// Each open parenthesis, bracket or CASE adds a level of its own, and a
// subquery (a group that starts with SELECT, VALUES, WITH or TABLE) three
// more, for the statement nodes around it. AND and OR chains add nothing,
// since the parser flattens them into one node.
func nestingDepth(text string) int {
	type level struct {
		base, chain int
		closer      byte // ')', ']' or 'E' for CASE … END
		first       bool // no token read in this group yet
	}
	var stackBuf [64]level
	stack := append(stackBuf[:0], level{first: true})
	sum, max := 0, 0 // sum of base+chain over the stack
	l := lexer{s: text}
	for {
		kind, start, end := l.next()
		if kind == tkEOF {
			break
		}
		if kind == tkComment {
			continue
		}
		top := &stack[len(stack)-1]
		first := top.first
		top.first = false
		add := 0
		switch kind {
		case tkOp:
			// "+-" may be two operators; an operator ends in + or - only
			// when it holds one of ~!@#^&|`?%.
			add = 1
			for _, c := range []byte(text[start+1 : end]) {
				if c == '+' || c == '-' {
					add++
				}
			}
		case tkTypecast:
			add = 1
		case tkPunct:
			switch c := text[start]; c {
			case '(', '[':
				closer := byte(')')
				if c == '[' {
					closer = ']'
				}
				stack = append(stack, level{base: 1, closer: closer, first: true})
				sum++
			case ')', ']':
				// Close the innermost group this closes, and any CASE left
				// open inside it; an unmatched closer closes nothing.
				for k := len(stack) - 1; k > 0; k-- {
					if stack[k].closer == c {
						for len(stack) > k {
							t := stack[len(stack)-1]
							sum -= t.base + t.chain
							stack = stack[:len(stack)-1]
						}
						break
					}
				}
			case ',':
				sum -= top.chain
				top.chain = 0
			case ';':
				stack = stack[:1]
				stack[0] = level{first: true}
				sum = 0
			}
		case tkWord:
			switch w := text[start:end]; {
			case len(w) > 9:
			case first && (strings.EqualFold(w, "select") || strings.EqualFold(w, "values") ||
				strings.EqualFold(w, "with") || strings.EqualFold(w, "table")):
				top.base += 3
				sum += 3
			case strings.EqualFold(w, "case"):
				stack = append(stack, level{base: 2, closer: 'E'})
				sum += 2
			case strings.EqualFold(w, "end"):
				if len(stack) > 1 && top.closer == 'E' {
					sum -= top.base + top.chain
					stack = stack[:len(stack)-1]
				}
			case strings.EqualFold(w, "when") || strings.EqualFold(w, "then") || strings.EqualFold(w, "else"):
				if top.closer == 'E' { // CASE's branches are a list
					sum -= top.chain
					top.chain = 0
				}
			case chainKeyword(w):
				add = 1
			}
		}
		if add > 0 {
			top = &stack[len(stack)-1]
			top.chain += add
			sum += add
		}
		if sum > max {
			max = sum
		}
	}
	return max
}

// chainKeyword reports whether w is a keyword that makes an operator node
// of what precedes or follows it.
func chainKeyword(w string) bool {
	for _, k := range [...]string{"not", "is", "isnull", "notnull", "like", "ilike", "similar",
		"between", "in", "collate", "at", "operator", "union", "intersect", "except", "join", "overlaps"} {
		if strings.EqualFold(w, k) {
			return true
		}
	}
	return false
}
