package plpgsql

import "github.com/deltaview/deltaview/internal/pgerr"

// NoticeChecker is a Runtime that may refuse a notice before it is sent:
// PostgreSQL converts a notice to the client's encoding as RAISE sends
// it, and a character the encoding lacks fails the RAISE itself (22P05),
// an error the block's EXCEPTION clause may catch. CheckNotice is given
// the notice's severity and its text fields, in the order PostgreSQL
// sends them; without it every notice is sent.
type NoticeChecker interface {
	CheckNotice(level string, texts ...string) error
}

// noticeLevel names RAISE's severity below ERROR as a client sees it.
func noticeLevel(level int) string {
	switch {
	case level >= levelWarning:
		return "WARNING"
	case level >= levelNotice:
		return "NOTICE"
	}
	return "INFO"
}

// checkNotice asks the runtime whether the notice e may be sent.
func (c *call) checkNotice(level string, e *pgerr.Error) error {
	nc, ok := c.rt.(NoticeChecker)
	if !ok {
		return nil
	}
	return nc.CheckNotice(level, e.Message, e.Detail, e.Hint, e.Schema, e.Table, e.Column, e.DataType, e.Constraint)
}
