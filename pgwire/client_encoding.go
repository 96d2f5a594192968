package pgwire

import (
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview/internal/pgenc"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// backend is the protocol's backend with the session's client_encoding
// applied at the boundary, as PostgreSQL converts: the text of every
// message it sends is converted from UTF8 (row values by sendRows, which
// knows their formats); the text of the messages received is converted
// to UTF8 by receive. COPY's data is converted by the engine, which
// reads and writes it in client_encoding. enc is nil for UTF8 and
// SQL_ASCII, which are sent as they are.
type backend struct {
	*pgproto3.Backend
	enc *pgenc.Encoding
}

func newBackend(b *pgproto3.Backend) *backend { return &backend{Backend: b} }

// Send converts msg's text to the client's encoding and sends it. An
// error whose text the encoding lacks a character of is replaced by
// PostgreSQL's 22P05 for that character, without context, as PostgreSQL
// raises it while it reports the first. A notice RAISE sends is checked
// by the engine (a RAISE of a notice that does not convert fails); other
// notice text the encoding lacks carries '?' in its place.
func (b *backend) Send(msg pgproto3.BackendMessage) {
	if b.enc == nil {
		b.Backend.Send(msg)
		return
	}
	switch m := msg.(type) {
	case *pgproto3.ErrorResponse:
		c := *m
		// In the order PostgreSQL sends the fields.
		for _, f := range []*string{&c.Message, &c.Detail, &c.Hint, &c.InternalQuery, &c.Where, &c.SchemaName, &c.TableName,
			&c.ColumnName, &c.DataTypeName, &c.ConstraintName} {
			out, err := b.enc.FromUTF8(nil, []byte(*f))
			if err != nil {
				c = pgproto3.ErrorResponse{Severity: "ERROR", SeverityUnlocalized: "ERROR", Code: pgerr.Code(err), Message: b.lossy(err.Error())}
				break
			}
			*f = string(out)
		}
		msg = &c
	case *pgproto3.NoticeResponse:
		c := *m
		for _, f := range []*string{&c.Message, &c.Detail, &c.Hint, &c.Where, &c.SchemaName, &c.TableName, &c.ColumnName,
			&c.DataTypeName, &c.ConstraintName, &c.InternalQuery} {
			*f = b.lossy(*f)
		}
		msg = &c
	case *pgproto3.RowDescription:
		c := *m
		c.Fields = append([]pgproto3.FieldDescription(nil), m.Fields...)
		for i := range c.Fields {
			c.Fields[i].Name = []byte(b.lossy(string(c.Fields[i].Name)))
		}
		msg = &c
	case *pgproto3.ParameterStatus:
		msg = &pgproto3.ParameterStatus{Name: m.Name, Value: b.lossy(m.Value)}
	case *pgproto3.NotificationResponse:
		msg = &pgproto3.NotificationResponse{PID: m.PID, Channel: b.lossy(m.Channel), Payload: b.lossy(m.Payload)}
	case *pgproto3.CommandComplete:
		msg = &pgproto3.CommandComplete{CommandTag: []byte(b.lossy(string(m.CommandTag)))}
	}
	b.Backend.Send(msg)
}

// lossy is s in the client's encoding, '?' for what it lacks.
func (b *backend) lossy(s string) string {
	out, err := b.enc.FromUTF8(nil, []byte(s))
	if err == nil {
		return string(out)
	}
	out = out[:0]
	for _, r := range s {
		var buf [utf8.UTFMax]byte
		c, err := b.enc.FromUTF8(out, utf8.AppendRune(buf[:0], r))
		if err != nil {
			c = append(out, '?')
		}
		out = c
	}
	return string(out)
}

// value converts a row value sent in text format.
func (b *backend) value(v []byte) ([]byte, error) {
	if b.enc == nil || v == nil {
		return v, nil
	}
	return b.enc.FromUTF8(make([]byte, 0, len(v)), v)
}

// receive converts the text of a message from the client to UTF8: a
// query's string, a prepared statement's, a parameter's value in text
// format. Bytes that are not valid in the client's encoding, or have no
// equivalent in UTF8, are PostgreSQL's 22021 and 22P05.
func (b *backend) receive(msg pgproto3.FrontendMessage) (pgproto3.FrontendMessage, error) {
	if b.enc == nil {
		return msg, nil
	}
	conv := func(s []byte) ([]byte, error) {
		if s == nil {
			return nil, nil
		}
		return b.enc.ToUTF8(make([]byte, 0, len(s)), s)
	}
	switch m := msg.(type) {
	case *pgproto3.Query:
		s, err := conv([]byte(m.String))
		if err != nil {
			return nil, err
		}
		return &pgproto3.Query{String: string(s)}, nil
	case *pgproto3.Parse:
		s, err := conv([]byte(m.Query))
		if err != nil {
			return nil, err
		}
		c := *m
		c.Query = string(s)
		return &c, nil
	case *pgproto3.Bind:
		c := *m
		c.Parameters = make([][]byte, len(m.Parameters))
		for i, p := range m.Parameters {
			if formatOf(m.ParameterFormatCodes, i) == 1 {
				c.Parameters[i] = p
				continue
			}
			v, err := conv(p)
			if err != nil {
				return nil, err
			}
			c.Parameters[i] = v
		}
		return &c, nil
	}
	return msg, nil
}

// setEncoding follows the session's client_encoding.
func (c *conn) setEncoding() {
	name, _, err := c.sess.Setting("client_encoding", true)
	if err != nil {
		return
	}
	enc, _ := pgenc.Get(name)
	c.be.enc = enc
}
