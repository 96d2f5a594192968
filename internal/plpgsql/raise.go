package plpgsql

import (
	"strings"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Levels of RAISE, PostgreSQL's elog levels: below INFO (LOG, DEBUG) a
// client is not told; INFO, NOTICE and WARNING it is; ERROR raises.
const (
	levelInfo    = 17
	levelNotice  = 18
	levelWarning = 19
	levelError   = 21
)

// Kinds of RAISE … USING options, as PostgreSQL's grammar numbers them.
const (
	optErrcode = iota
	optMessage
	optDetail
	optHint
	optColumn
	optConstraint
	optDatatype
	optTable
	optSchema
)

// optionNames are the options' names, for the error of one given twice.
var optionNames = [...]string{"ERRCODE", "MESSAGE", "DETAIL", "HINT", "COLUMN", "CONSTRAINT", "DATATYPE", "TABLE", "SCHEMA"}

// raise runs RAISE: an error at level EXCEPTION, else a notice to the
// client (INFO, NOTICE, WARNING) or nothing (LOG, DEBUG, which a client
// does not receive by default).
func (c *call) raise(s *raise) error {
	if s.level >= levelError && s.condname == "" && s.message == "" && len(s.options) == 0 {
		if len(c.caught) == 0 {
			return pgerr.New("0Z002", "RAISE without parameters cannot be used outside an exception handler")
		}
		c.placed = true // the error again, with the context it had
		return c.caught[len(c.caught)-1]
	}
	e := &pgerr.Error{Code: "P0001"}
	if s.condname != "" {
		e.Code, e.Message = conditionCode(s.condname), s.condname
	}
	if s.message != "" {
		msg, err := c.format(s.message, s.params)
		if err != nil {
			return err
		}
		e.Message = msg
	}
	var given [len(optionNames)]bool
	given[optMessage] = s.message != ""
	for _, o := range s.options {
		if o.kind < 0 || o.kind >= len(optionNames) {
			return pgerr.New(pgerr.Internal, "unrecognized RAISE option %d", o.kind)
		}
		if given[o.kind] {
			return pgerr.New(pgerr.SyntaxError, "RAISE option already specified: %s", optionNames[o.kind])
		}
		given[o.kind] = true
		text, ok, err := c.text(o.e)
		if err != nil {
			return err
		}
		if !ok {
			return pgerr.New("22004", "RAISE statement option cannot be null")
		}
		fields := [...]*string{optMessage: &e.Message, optDetail: &e.Detail, optHint: &e.Hint, optColumn: &e.Column,
			optConstraint: &e.Constraint, optDatatype: &e.DataType, optTable: &e.Table, optSchema: &e.Schema}
		if o.kind == optErrcode {
			if e.Code, err = errcode(text); err != nil {
				return err
			}
			continue
		}
		*fields[o.kind] = text
	}
	if e.Message == "" {
		e.Message = e.Code
	}
	if s.level >= levelInfo && s.level < levelError {
		if err := c.checkNotice(noticeLevel(s.level), e); err != nil {
			return err
		}
	}
	if fn, ok := c.rt.(FieldNoticer); ok && s.level >= levelInfo && s.level < levelError {
		e.Context = c.pgContext(s)
		fn.NoticeFull(noticeLevel(s.level), e, s.condname != "" || given[optErrcode])
		return nil
	}
	if nc, ok := c.rt.(NoticeCoder); ok && (s.condname != "" || given[optErrcode]) && s.level < levelError {
		nc.NoticeCode(noticeLevel(s.level), e.Code, e.Message)
		return nil
	}
	switch {
	case s.level >= levelError:
		return e
	case s.level >= levelWarning:
		c.rt.Notice("WARNING", e.Message)
	case s.level >= levelNotice:
		c.rt.Notice("NOTICE", e.Message)
	case s.level >= levelInfo:
		c.rt.Notice("INFO", e.Message)
	}
	return nil
}

// errcode is the SQLSTATE of RAISE's ERRCODE option: a condition name or
// a SQLSTATE of five digits and capital letters.
func errcode(text string) (string, error) {
	if code, ok := conditions[strings.ToLower(text)]; ok {
		return code, nil
	}
	if len(text) == 5 && strings.Trim(text, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
		return text, nil
	}
	return "", pgerr.New(pgerr.UndefinedObject, "unrecognized exception condition %q", text)
}

// conditionCode is the SQLSTATE of a condition name, or the SQLSTATE
// itself.
func conditionCode(name string) string {
	if code, ok := conditions[strings.ToLower(name)]; ok {
		return code
	}
	return name
}

// format replaces each % of a RAISE message by the next parameter's text
// (<NULL> for NULL), %% by %.
func (c *call) format(msg string, params []*pexpr) (string, error) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(msg); i++ {
		if msg[i] != '%' {
			b.WriteByte(msg[i])
			continue
		}
		if i+1 < len(msg) && msg[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		text, ok, err := c.text(params[next])
		if err != nil {
			return "", err
		}
		next++
		if !ok {
			text = "<NULL>"
		}
		b.WriteString(text)
	}
	return b.String(), nil
}

// assert runs ASSERT: a condition false or NULL fails with P0004.
func (c *call) assert(s *assertStmt) error {
	if !c.checkAsserts() {
		return nil // plpgsql.check_asserts = off: neither is evaluated
	}
	v, _, err := c.scalar(s.cond)
	if err != nil {
		return err
	}
	if !v.IsNull() {
		if v, err = c.rt.Assign(v, value.BoolType); err != nil {
			return err
		}
		if v.Bool() {
			return nil
		}
	}
	msg := "assertion failed"
	if s.message != nil {
		text, ok, err := c.text(s.message)
		if err != nil {
			return err
		}
		if ok {
			msg = text
		}
	}
	return pgerr.New("P0004", "%s", msg)
}
