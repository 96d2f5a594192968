package pgwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgbinary"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// maxMessage bounds a message from a client; a larger one ends the
// connection with 08P01 (COPY data comes in many messages).
const maxMessage = 64 << 20

// flushEvery is how many data rows are buffered before they are written.
const flushEvery = 512

// conn is one client connection: its session, its prepared statements
// and portals, and the buffers data rows are encoded into.
type conn struct {
	srv *server
	nc  net.Conn // the client's connection, for its address and deadlines
	pid uint32   // the session's pg_backend_pid(), set with sess
	key []byte   // the secret key of cancel requests
	be  *backend
	// cancel receives the connection's cancel requests, for a streaming
	// COPY (SUBSCRIBE …) and FETCH's waits; a statement of the session is
	// cancelled through the session.
	cancel chan struct{}
	// done is set when the connection must end after the current message.
	done bool
	sess *engine.Session

	stmts   map[string]*prepared
	portals map[string]*portal
	// cursors are those of the transaction block (DECLARE), closed when
	// it ends.
	cursors map[string]*cursor
	// skip is set after an error in an extended-query message: messages
	// are ignored up to the next Sync, as PostgreSQL does.
	skip bool

	// Reused for every data row: its encoded values and their ends; tag
	// for every command tag.
	buf  []byte
	ends []int
	vals [][]byte
	tag  []byte

	// rw is nc, or the TLS connection over it once tls is set.
	rw  net.Conn
	tls bool
	// over is set for a connection beyond the server's bound: it is
	// refused once its startup message arrives (a cancel request from it
	// is still heard).
	over bool
	// params are the startup message's parameters.
	params map[string]string
	// startupStatus are the settings reported at startup, with their
	// values before the startup parameters apply (sendStartupStatus).
	startupStatus [][2]string
	// notify sends the session's notifications (notify.go).
	notify notifier
}

// serve runs the connection until the client terminates, the connection
// fails or the server shuts down.
func (c *conn) serve() error {
	defer func() { c.rw.Close() }()
	c.be = newBackend(pgproto3.NewBackend(c.nc, c.nc))
	c.be.SetMaxBodyLen(maxMessage)
	c.nc.SetWriteDeadline(time.Now().Add(authTimeout))
	c.srv.setReadDeadline(c, time.Now().Add(authTimeout))
	ok, role, err := c.startup()
	if !ok {
		return err
	}
	c.nc.SetWriteDeadline(time.Time{})
	c.srv.clearReadDeadline(c)
	sess := c.srv.newSession()
	sess.SetConnection(c.nc.RemoteAddr(), c.nc.LocalAddr())
	c.srv.mu.Lock() // cancelRequest reads both
	c.sess, c.pid = sess, uint32(sess.BackendPID())
	sess.SpeakCopyBinary() // sendBinaryCopyOut and binaryCopyText
	c.srv.mu.Unlock()
	c.sess.SetCursors(c)
	defer c.sess.Close()
	defer c.stopNotifications()
	defer c.closeCursors()
	if role != "" {
		if err := c.sess.SetRole(role); err != nil {
			return c.fatal(pgerr.Wrap(err))
		}
	}
	if err := c.applyStartupSettings(c.params); err != nil {
		return c.fatal(pgerr.Wrap(err))
	}
	c.sendStartupStatus()
	// The process id is pg_backend_pid()'s, as in PostgreSQL: a client
	// tells its own notifications by it.
	c.be.Send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.key})
	c.stmts, c.portals = map[string]*prepared{}, map[string]*portal{}
	c.readyForQuery()
	if err := c.be.Flush(); err != nil {
		return err
	}
	for {
		idle, inTx := c.sess.IdleSessionTimeout(), c.sess.InBlock()
		if inTx {
			// idle_session_timeout applies outside transactions,
			// idle_in_transaction_session_timeout inside.
			idle = c.sess.IdleInTransactionTimeout()
		}
		if idle > 0 {
			c.srv.setReadDeadline(c, time.Now().Add(idle))
		}
		if err := c.idleStart(); err != nil {
			return err
		}
		msg, err := c.be.Receive()
		c.idleEnd()
		if idle > 0 {
			c.srv.clearReadDeadline(c)
		}
		if err == nil {
			conv, cerr := c.be.receive(msg)
			if cerr != nil {
				// Text not valid in the client's encoding: the message
				// fails as PostgreSQL fails it.
				c.sendError(c.sess.Fail(cerr), "", 0)
				if _, ok := msg.(*pgproto3.Query); ok {
					c.readyForQuery()
				} else {
					c.skip = true
				}
				if err := c.be.Flush(); err != nil {
					return err
				}
				continue
			}
			msg = conv
		}
		if err != nil {
			if c.srv.isClosing() {
				c.fatal(pgerr.New(pgerr.AdminShutdown, "terminating connection due to administrator command"))
				return nil
			}
			if ne, ok := err.(net.Error); idle > 0 && ok && ne.Timeout() && inTx {
				c.fatal(pgerr.New(pgerr.IdleInTransactionTimeout, "terminating connection due to idle-in-transaction timeout").
					WithHint("the session was idle in a transaction longer than idle_in_transaction_session_timeout (%s)", idle))
				return nil
			}
			if ne, ok := err.(net.Error); idle > 0 && ok && ne.Timeout() {
				c.fatal(pgerr.New(pgerr.IdleSessionTimeout, "terminating connection due to idle-session timeout").
					WithHint("the session was idle longer than idle_session_timeout (%s)", idle))
				return nil
			}
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
				return nil
			}
			c.fatal(pgerr.New(pgerr.ProtocolViolation, "invalid message: %v", err))
			return err
		}
		switch m := msg.(type) {
		case *pgproto3.Terminate:
			return nil
		case *pgproto3.Query:
			c.skip = false
			c.simpleQuery(m.String)
			if c.done {
				c.be.Flush() // a FATAL error, if any, before the close
				return nil
			}
			c.readyForQuery()
		case *pgproto3.Sync:
			c.skip = false
			c.readyForQuery()
		case *pgproto3.Flush:
		case *pgproto3.Parse, *pgproto3.Bind, *pgproto3.Describe, *pgproto3.Execute, *pgproto3.Close:
			c.notify.ready = false
			if !c.skip {
				if err := c.extended(m); err != nil {
					c.sendError(c.sess.Fail(err), "", 0)
					c.skip = true
				}
				if c.done {
					c.be.Flush()
					return nil
				}
			}
			// The answers wait for Sync or Flush, as the client expects:
			// a pipeline of messages costs one write.
			continue
		case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
			// The rest of a COPY that failed: PostgreSQL ignores it too.
			continue
		default:
			return c.fatal(pgerr.New(pgerr.ProtocolViolation, "unsupported frontend message %T", msg))
		}
		if err := c.be.Flush(); err != nil {
			return err
		}
	}
}

// startup reads the startup message, answering SSL requests (see
// startTLS) and GSS encryption requests with "no", and lets the client in
// (see login). It returns whether the connection goes on, and the role its
// session acts as.
func (c *conn) startup() (bool, string, error) {
	for {
		msg, err := c.be.ReceiveStartupMessage()
		if err != nil {
			return false, "", err
		}
		switch m := msg.(type) {
		case *pgproto3.SSLRequest:
			if err := c.startTLS(); err != nil {
				return false, "", err
			}
		case *pgproto3.GSSEncRequest:
			if _, err := c.rw.Write([]byte{'N'}); err != nil {
				return false, "", err
			}
		case *pgproto3.CancelRequest:
			c.srv.cancelRequest(m.ProcessID, m.SecretKey)
			return false, "", nil
		case *pgproto3.StartupMessage:
			if c.over {
				return false, "", c.fatal(pgerr.New(pgerr.TooManyConnections, "sorry, too many clients already").
					WithHint("the server serves at most %d connections at once (--max-connections)", c.srv.maxConns))
			}
			c.params = m.Parameters
			user, db := m.Parameters["user"], m.Parameters["database"]
			if db == "" {
				db = user
			}
			role, super, err := c.login(user, db)
			if err != nil {
				return false, "", err
			}
			c.be.Send(&pgproto3.AuthenticationOk{})
			app := m.Parameters["application_name"]
			superuser := "off"
			if super {
				superuser = "on"
			}
			c.startupStatus = [][2]string{
				{"server_version", engine.ServerVersion},
				{"server_encoding", "UTF8"},
				{"client_encoding", "UTF8"},
				{"DateStyle", "ISO, MDY"},
				{"IntervalStyle", "postgres"},
				{"TimeZone", "UTC"},
				{"integer_datetimes", "on"},
				{"standard_conforming_strings", "on"},
				{"is_superuser", superuser},
				{"session_authorization", user},
				{"application_name", app},
				{"default_transaction_read_only", "off"},
				{"in_hot_standby", "off"},
			}
			return true, role, nil
		default:
			return false, "", c.fatal(pgerr.New(pgerr.ProtocolViolation, "unexpected startup message %T", msg))
		}
	}
}

func isLoopback(a net.Addr) bool {
	switch a := a.(type) {
	case *net.TCPAddr:
		return a.IP.IsLoopback()
	case *net.UnixAddr:
		return true
	}
	return false
}

// fatal sends err as a FATAL error and returns it; the caller closes the
// connection.
func (c *conn) fatal(err *pgerr.Error) error {
	r := errorResponse(err, "FATAL")
	c.be.Send(r)
	c.be.Flush()
	return err
}

// readyForQuery tells the client the transaction status; the cursors of
// a transaction that ended, and those a ROLLBACK TO undid, are closed
// here.
func (c *conn) readyForQuery() {
	st := byte('I')
	switch {
	case c.sess.Failed():
		st = 'E'
	case c.sess.InBlock():
		st = 'T'
	}
	if st == 'I' && len(c.cursors) > 0 {
		c.closeCursors()
	}
	c.closeRolledBack()
	// As PostgreSQL, report the settings that changed (SET TimeZone,
	// application_name, …, and their undoing by ROLLBACK) before
	// ReadyForQuery.
	c.setEncoding()
	for _, r := range c.sess.TakeReports() {
		c.be.Send(&pgproto3.ParameterStatus{Name: r.Name, Value: r.Value})
	}
	if st == 'I' {
		c.sendNotifications()
	}
	c.notify.ready = true
	c.be.Send(&pgproto3.ReadyForQuery{TxStatus: st})
}

// errorResponse is err as an ErrorResponse of severity sev.
func errorResponse(err error, sev string) *pgproto3.ErrorResponse {
	e := pgerr.Wrap(err)
	return &pgproto3.ErrorResponse{Severity: sev, SeverityUnlocalized: sev, Code: e.Code, Message: e.Message,
		Detail: e.Detail, Hint: e.Hint, Position: int32(e.Position), Where: e.Context,
		SchemaName: e.Schema, TableName: e.Table, ColumnName: e.Column, DataTypeName: e.DataType, ConstraintName: e.Constraint}
}

// sendError sends err; its position, within a statement that starts at
// the 0-based byte offset off of query, is made a position in query.
//
// An error 57P01 (pg_terminate_backend) is FATAL: the connection ends
// after it, as a terminated PostgreSQL backend's does.
func (c *conn) sendError(err error, query string, off int) {
	r := errorResponse(err, "ERROR")
	if r.Code == pgerr.AdminShutdown {
		r.Severity, r.SeverityUnlocalized = "FATAL", "FATAL"
		c.done = true
	}
	if r.Position > 0 && off > 0 && off <= len(query) {
		r.Position += int32(utf8.RuneCountInString(query[:off]))
	}
	c.be.Send(r)
}

// sendNotices sends a statement's notices, each of its severity and
// with PostgreSQL's SQLSTATE for it (engine.Result.NoticeCode). A run of
// several "drop cascades to …" notices goes as PostgreSQL sends it: one
// notice counting the objects, the lines in its DETAIL.
func (c *conn) sendNotices(r engine.Result) {
	for i := 0; i < len(r.Notices); i++ {
		n := r.Notices[i]
		sev, code := r.NoticeLevel(i), r.NoticeCode(i)
		j := i
		for j+1 < len(r.Notices) && cascadeNotice(r, j+1) && cascadeNotice(r, i) {
			j++
		}
		if j > i {
			c.be.Send(&pgproto3.NoticeResponse{Severity: sev, SeverityUnlocalized: sev, Code: code,
				Message: fmt.Sprintf("drop cascades to %d other objects", j-i+1), Detail: strings.Join(r.Notices[i:j+1], "\n")})
			i = j
			continue
		}
		nr := &pgproto3.NoticeResponse{Severity: sev, SeverityUnlocalized: sev, Code: code, Message: n}
		if f := r.NoticeFields[i]; f != nil {
			nr.Detail, nr.Hint, nr.Where = f.Detail, f.Hint, f.Context
			nr.SchemaName, nr.TableName, nr.ColumnName, nr.DataTypeName, nr.ConstraintName = f.Schema, f.Table, f.Column, f.DataType, f.Constraint
		}
		c.be.Send(nr)
	}
}

// cascadeNotice reports whether r's i-th notice is a NOTICE that DROP …
// CASCADE gives for one object it drops.
func cascadeNotice(r engine.Result, i int) bool {
	return r.NoticeLevel(i) == "NOTICE" && strings.HasPrefix(r.Notices[i], "drop cascades to ") &&
		!strings.HasSuffix(r.Notices[i], " other objects")
}

// simpleQuery runs the statements of a Query message in order, each in
// autocommit unless a transaction block is open, up to the first error.
func (c *conn) simpleQuery(q string) {
	res, ok, err := c.psqlRelations(q)
	if !ok {
		res, ok, err = c.psqlCatalog(q)
	}
	if ok {
		if err != nil {
			c.sendError(c.sess.Fail(err), q, 0)
			return
		}
		if err := c.sendResult(res, nil, true); err != nil {
			c.sendError(c.sess.Fail(err), q, 0)
		}
		return
	}
	parts, err := sql.Split(q)
	if err != nil {
		c.sendError(c.sess.Fail(err), q, 0)
		return
	}
	ran, cursor := false, 0
	for _, p := range parts {
		off := -1
		if i := strings.Index(q[cursor:], p); i >= 0 {
			off = cursor + i
			cursor = off + len(p)
		}
		if cmd, ok, err := parseCursorCmd(p); ok {
			ran = true
			var res engine.Result
			if err == nil {
				res, err = c.runCursorCmd(cmd)
			} else {
				err = c.sess.Fail(err)
			}
			if err != nil {
				c.sendError(err, q, off)
				return
			}
			if err := c.sendResult(res, nil, true); err != nil {
				c.sendError(c.sess.Fail(err), q, 0)
				return
			}
			continue
		}
		if m := copySubscribe.FindStringSubmatch(p); m != nil {
			ran = true
			err, end := c.copyOutSubscribe(m)
			if end {
				c.done = true
				return
			}
			if err != nil {
				c.sendError(err, q, off)
				return
			}
			continue
		}
		st, err := sql.Parse(p)
		if err != nil {
			c.sendError(c.sess.Fail(err), q, off)
			return
		}
		if st == nil {
			continue
		}
		ran = true
		var results []engine.Result
		if isCopyFromStdin(st) {
			results, err = c.copyIn(st)
		} else {
			results, err = c.sess.Exec(st)
		}
		if err != nil {
			var ce connError
			if errors.As(err, &ce) {
				return // the connection failed during COPY: the next read reports it
			}
			for _, r := range results {
				c.sendNotices(r) // sent before the error, as PostgreSQL sends them
				if r.CopyOut != nil && !r.CopyOut.Binary {
					c.sendCopyLines(r.CopyOut) // the lines of a COPY … TO before its error
				}
			}
			c.sendError(err, q, off)
			return
		}
		for _, r := range results {
			if err := c.sendResult(r, nil, true); err != nil {
				c.sendError(c.sess.Fail(err), q, 0)
				return
			}
		}
	}
	if !ran {
		c.be.Send(&pgproto3.EmptyQueryResponse{})
	}
}

// sendResult sends a statement's notices, then its rows (preceded by
// their description when describe is set) in the formats given (text when
// empty, one format for all when one), then its command tag. A row that
// cannot be sent in the client's encoding ends it: its error is returned,
// to be sent in place of the tag, after the rows before it, as
// PostgreSQL does.
func (c *conn) sendResult(r engine.Result, formats []int16, describe bool) error {
	c.sendNotices(r)
	c.tag = append(c.tag[:0], r.Tag...)
	if r.CopyOut != nil {
		c.sendCopyOut(r.CopyOut)
	}
	if r.HasRows {
		if describe {
			c.be.Send(rowDescription(r.Columns, formats))
		}
		if err := c.sendRows(r.Rows, r.Columns, formats); err != nil {
			return err
		}
		if r.Tag == "" {
			c.tag = strconv.AppendInt(append(c.tag, "SELECT "...), int64(len(r.Rows)), 10)
		}
	}
	c.be.Send(&pgproto3.CommandComplete{CommandTag: c.tag}) // encoded at once: the buffer is reused
	if r.Tag == "DISCARD ALL" {
		// As PostgreSQL's DEALLOCATE ALL and CLOSE ALL: the prepared
		// statements and portals of the protocol go too.
		clear(c.stmts)
		clear(c.portals)
	}
	return nil
}

func rowDescription(cols []plan.Column, formats []int16) *pgproto3.RowDescription {
	fs := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		fs[i] = pgproto3.FieldDescription{Name: []byte(col.Name), DataTypeOID: columnTypeOID(col),
			DataTypeSize: pgbinary.TypeSize(col.Type), TypeModifier: pgbinary.TypeModifier(col.Type), Format: formatOf(formats, i),
			TableOID: col.TableOID, TableAttributeNumber: uint16(col.AttNum)}
	}
	return &pgproto3.RowDescription{Fields: fs}
}

// columnTypeOID is the type oid RowDescription sends for col: a domain
// column's is its base type's, as PostgreSQL sends it, but an array of a
// domain is a type of its own (_d).
func columnTypeOID(col plan.Column) uint32 {
	if col.TypeOID != 0 {
		return col.TypeOID
	}
	return pgbinary.TypeOID(col.Type)
}

// formatOf returns column i's format code: text when none is given, the
// one given for all, or the column's own.
func formatOf(formats []int16, i int) int16 {
	switch {
	case len(formats) == 0:
		return 0
	case len(formats) == 1:
		return formats[0]
	case i < len(formats):
		return formats[i]
	}
	return 0
}

// emptyValue is an empty, non-NULL column value.
var emptyValue = []byte{}

// sendRows sends rows as DataRows, encoding each into the connection's
// reused buffers.
func (c *conn) sendRows(rows []value.Row, cols []plan.Column, formats []int16) error {
	style, zone := c.sess.TextStyle(), c.sess.TimeZone()
	for n, row := range rows {
		c.buf, c.ends = c.buf[:0], c.ends[:0]
		for i, v := range row {
			if v.IsNull() {
				c.ends = append(c.ends, -1)
				continue
			}
			if formatOf(formats, i) == 1 && i < len(cols) {
				k := cols[i].Type.Kind
				if v.Kind() != k {
					if cv, err := value.Cast(v, value.Type{Kind: k, Mod: -1}, true); err == nil {
						v = cv
					}
				}
				start := len(c.buf)
				c.buf = pgbinary.AppendBinary(c.buf, v, v.Kind())
				if oid := cols[i].ElemTypeOID; oid != 0 && len(c.buf) >= start+12 {
					// An array of a domain names the domain as its
					// element type, as PostgreSQL's array_send does.
					binary.BigEndian.PutUint32(c.buf[start+8:], oid)
				}
			} else {
				c.buf = value.AppendTextZone(c.buf, v, style, zone)
				if c.be.enc != nil {
					// The value in the client's encoding, in place.
					start := 0
					if len(c.ends) > 0 {
						start = max(c.ends[len(c.ends)-1], 0)
					}
					conv, err := c.be.value(c.buf[start:])
					if err != nil {
						return err
					}
					c.buf = append(c.buf[:start], conv...)
				}
			}
			c.ends = append(c.ends, len(c.buf))
		}
		c.vals = c.vals[:0]
		start := 0
		for _, end := range c.ends {
			if end < 0 {
				c.vals = append(c.vals, nil)
				continue
			}
			v := c.buf[start:end:end]
			if v == nil {
				// An empty value before anything was ever encoded: a nil
				// slice would go out as NULL.
				v = emptyValue
			}
			c.vals = append(c.vals, v)
			start = end
		}
		c.be.Send(&pgproto3.DataRow{Values: c.vals})
		if n%flushEvery == flushEvery-1 {
			c.be.Flush()
		}
	}
	return nil
}

// isCopyFromStdin reports whether st is COPY … FROM STDIN.
func isCopyFromStdin(st *sql.Stmt) bool {
	if st.Node == nil {
		return false
	}
	cp := st.Node.GetCopyStmt()
	return cp != nil && cp.IsFrom && cp.Filename == "" && !cp.IsProgram
}

// connError is a failure of the connection itself during COPY.
type connError struct{ err error }

func (e connError) Error() string { return e.err.Error() }

// sendCopyOut sends COPY … TO STDOUT's data as PostgreSQL does: the
// CopyOutResponse (text, for every column), one CopyData message per
// line, then CopyDone.
func (c *conn) sendCopyOut(out *engine.CopyOut) {
	if out.Binary {
		c.sendBinaryCopyOut(out)
		return
	}
	c.sendCopyLines(out)
	c.be.Send(&pgproto3.CopyDone{})
}

// sendCopyLines sends the CopyOutResponse and COPY … TO's lines.
func (c *conn) sendCopyLines(out *engine.CopyOut) {
	c.be.Send(&pgproto3.CopyOutResponse{OverallFormat: 0, ColumnFormatCodes: make([]uint16, out.Columns)})
	start := 0
	for n, end := range out.Ends {
		c.be.Send(&pgproto3.CopyData{Data: out.Data[start:end]})
		start = end
		if n%flushEvery == flushEvery-1 {
			c.be.Flush()
		}
	}
}

// copyIn runs COPY … FROM STDIN: it asks for the data, collects the
// CopyData messages up to CopyDone, then runs the statement on them. The
// data is collected first so that a slow client never holds the engine's
// write lock.
func (c *conn) copyIn(st *sql.Stmt) ([]engine.Result, error) {
	var types []value.Type // the columns', when the client sends binary rows
	var names []string
	if isBinaryCopy(st) {
		var err error
		if types, names, err = c.sess.CopyInTypes(st); err != nil {
			return nil, c.sess.Fail(err)
		}
		c.be.Send(&pgproto3.CopyInResponse{OverallFormat: 1, ColumnFormatCodes: slices.Repeat([]uint16{1}, len(types))})
	} else {
		c.be.Send(&pgproto3.CopyInResponse{OverallFormat: 0})
	}
	if err := c.be.Flush(); err != nil {
		return nil, connError{err}
	}
	var data bytes.Buffer
	for {
		msg, err := c.be.Receive()
		if err != nil {
			return nil, connError{err}
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			data.Write(m.Data)
		case *pgproto3.CopyDone:
			if types != nil {
				text, err := engine.BinaryCopyText(data.Bytes(), types, names, copyTable(st))
				if err != nil {
					return nil, c.sess.Fail(err)
				}
				return c.sess.ExecCopyDecoded(st, bytes.NewReader(text))
			}
			return c.sess.ExecCopyData(st, bytes.NewReader(endOfData(data.Bytes())))
		case *pgproto3.CopyFail:
			return nil, c.sess.Fail(pgerr.New(pgerr.QueryCanceled, "COPY from stdin failed: %s", m.Message))
		case *pgproto3.Flush, *pgproto3.Sync:
			// Allowed during COPY and ignored, as PostgreSQL does.
		default:
			return nil, c.sess.Fail(pgerr.New(pgerr.ProtocolViolation, "unexpected message type 0x%02x during COPY from stdin", msgType(msg)))
		}
	}
}

// endOfData cuts data before its first line \. (psql sends that line; it
// ends the data, as in a script).
func endOfData(data []byte) []byte {
	for off := 0; off < len(data); {
		line := data[off:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		if t := bytes.TrimRight(line, "\r\n"); string(t) == `\.` {
			return data[:off]
		}
		off += len(line)
	}
	return data
}

func msgType(m pgproto3.FrontendMessage) byte {
	b, err := m.Encode(nil)
	if err != nil || len(b) == 0 {
		return 0
	}
	return b[0]
}
