package pgwire

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// copySubscribe matches COPY (SUBSCRIBE [TO] view [WITH (options)]) TO
// STDOUT [WITH (options)], which is not PostgreSQL grammar: group 1 is the
// view, groups 2 and 3 the options, inside and after the parentheses.
var copySubscribe = regexp.MustCompile(`(?is)^\s*copy\s*\(\s*subscribe\s+(?:to\s+)?("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)\s*(?:with\s*\(([^()]*)\)\s*)?\)\s*to\s+stdout\s*(?:with\s*\((.*)\))?\s*;?\s*$`)

// subscribeOptions reads the options of COPY (SUBSCRIBE …): snapshot
// [= true|false].
func subscribeOptions(opts string) (deltaview.SubscribeOptions, error) {
	var o deltaview.SubscribeOptions
	for _, opt := range strings.Split(opts, ",") {
		name, val, _ := strings.Cut(strings.TrimSpace(opt), "=")
		name, val = strings.ToLower(strings.TrimSpace(name)), strings.ToLower(strings.Trim(strings.TrimSpace(val), "'"))
		switch {
		case name == "":
		case name == "snapshot":
			b, err := strconv.ParseBool(map[string]string{"": "true", "on": "true", "off": "false"}[val] + val)
			if err != nil {
				return o, pgerr.New(pgerr.InvalidParameter, "snapshot requires a Boolean value")
			}
			o.Snapshot = b
		default:
			return o, pgerr.New(pgerr.SyntaxError, "option %q not recognized", name).
				WithHint("COPY (SUBSCRIBE view) TO STDOUT takes the option snapshot")
		}
	}
	return o, nil
}

// copyOutSubscribe streams a view's changes as COPY text rows (ts, diff,
// then the view's columns), one CopyData message per row, each commit's
// rows written as the commit lands, until the client cancels, the
// connection ends, the server shuts down, or the subscription ends (the
// view dropped, or the client too slow to keep up: its queue full). It
// returns an error to report, and whether the connection must end.
func (c *conn) copyOutSubscribe(m []string) (error, bool) {
	if c.sess.InBlock() {
		return pgerr.New(pgerr.ActiveTransaction, "COPY (SUBSCRIBE …) cannot run inside a transaction block"), false
	}
	view := m[1]
	if strings.HasPrefix(view, `"`) {
		view = strings.ReplaceAll(view[1:len(view)-1], `""`, `"`)
	} else {
		view = strings.ToLower(view)
	}
	opts, err := subscribeOptions(m[2] + "," + m[3])
	if err != nil {
		return err, false
	}
	if err := c.sess.CheckSelect(view); err != nil {
		return err, false
	}
	deltas := make(chan deltaview.Delta, 1)
	stop := make(chan struct{})
	cancelSub, err := c.srv.db.SubscribeWith(view, opts, func(d deltaview.Delta) {
		select {
		case deltas <- d:
		case <-stop:
		}
	})
	if err != nil {
		return err, false
	}
	// stop is closed before cancelSub waits for the function, which may
	// be blocked handing over a delta the loop below will not take.
	defer func() {
		close(stop)
		cancelSub()
	}()
	c.be.Send(&pgproto3.CopyOutResponse{OverallFormat: 0})
	if err := c.be.Flush(); err != nil {
		return nil, true
	}
	// A client has nothing to send during COPY TO but Terminate: a read
	// that returns ends the stream.
	read := make(chan error, 1)
	go func() {
		msg, err := c.be.Receive()
		if err == nil {
			err = errors.New("message during COPY (SUBSCRIBE …)")
			if _, ok := msg.(*pgproto3.Terminate); ok {
				err = errTerminate
			}
		}
		read <- err
	}()
	stopReading := func() {
		c.nc.SetReadDeadline(time.Now())
		<-read
		c.srv.clearReadDeadline(c)
	}
	for {
		select {
		case d := <-deltas:
			if d.Err != nil {
				stopReading()
				return subscriptionEnded(d.Err), false
			}
			for _, ch := range d.Changes {
				c.sendCopyRow(d.TS, ch)
			}
			if err := c.flushStream(); err != nil {
				return nil, true
			}
		case <-c.cancel:
			stopReading()
			return pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request"), false
		case <-read:
			if c.srv.isClosing() {
				return c.fatal(pgerr.New(pgerr.AdminShutdown, "terminating connection due to administrator command")), true
			}
			return nil, true
		}
	}
}

var errTerminate = errors.New("terminate")

// sendCopyRow sends one change as a row of COPY's text format.
func (c *conn) sendCopyRow(ts uint64, ch deltaview.Change) {
	b := strconv.AppendUint(c.buf[:0], ts, 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, ch.Diff, 10)
	for _, v := range ch.Row {
		b = append(b, '\t')
		if v.IsNull() {
			b = append(b, `\N`...)
			continue
		}
		start := len(b)
		b = value.AppendTextZone(b, v, c.sess.TextStyle(), c.sess.TimeZone())
		b = escapeCopy(b, start)
	}
	b = append(b, '\n')
	c.buf = b
	c.be.Send(&pgproto3.CopyData{Data: b})
}

// escapeCopy escapes b[start:] for COPY's text format: backslash, tab,
// newline and carriage return.
func escapeCopy(b []byte, start int) []byte {
	n := 0
	for _, x := range b[start:] {
		if x == '\\' || x == '\t' || x == '\n' || x == '\r' {
			n++
		}
	}
	if n == 0 {
		return b
	}
	src := append([]byte(nil), b[start:]...)
	b = b[:start]
	for _, x := range src {
		switch x {
		case '\\':
			b = append(b, '\\', '\\')
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, x)
		}
	}
	return b
}
