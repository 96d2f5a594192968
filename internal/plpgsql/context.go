package plpgsql

import (
	"fmt"
	"strings"
)

// CallStack is a Runtime that knows the calls of PL/pgSQL code running
// in its session, outermost first (those CursorRuntime.PushCursors was
// given): GET DIAGNOSTICS PG_CONTEXT lists the lines of those around the
// call that asks.
type CallStack interface {
	Calls() []any
}

// contextLine is the line of a call's context, at the statement s.
func (c *call) contextLine(s stmt) string {
	return fmt.Sprintf("PL/pgSQL function %s line %d at %s", c.f.signatureText(), c.f.lines[s], stmtKind(s))
}

// outerLines are the context lines of a call running statement s, the
// call of this one: the SQL statement that called it, when s runs one,
// then its own line.
func (c *call) outerLines() []string {
	s := c.cur
	if s == nil {
		return nil
	}
	var lines []string
	switch s := s.(type) {
	case *execSQL:
		lines = append(lines, `SQL statement "`+s.sql.text+`"`)
	case *perform:
		lines = append(lines, `SQL statement "`+s.e.text+`"`)
	}
	return append(lines, c.contextLine(s))
}

// pgContext is GET DIAGNOSTICS PG_CONTEXT at statement s: this call's
// line, then those of the calls around it, innermost first.
func (c *call) pgContext(s stmt) string {
	lines := []string{c.contextLine(s)}
	if cs, ok := c.rt.(CallStack); ok {
		calls := cs.Calls()
		// The calls below this one in the stack are those around it.
		i := len(calls) - 1
		for i >= 0 && calls[i] != any(c) {
			i--
		}
		for i--; i >= 0; i-- {
			if o, ok := calls[i].(*call); ok {
				lines = append(lines, o.outerLines()...)
			}
		}
	}
	return strings.Join(lines, "\n")
}
