package pgwire_test

import (
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview"
)

// TestDomainCheckAtBind: a parameter declared of a domain (its oid at
// Parse) is checked against the domain's constraints at Bind, as
// PostgreSQL's input function for the domain checks it: the error
// answers the Bind, before any Execute.
func TestDomainCheckAtBind(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	c := connect(t, addr)
	mustExec(t, c, `CREATE DOMAIN posint AS int CHECK (VALUE > 0)`)
	mustExec(t, c, `CREATE DOMAIN nn AS text NOT NULL`)
	var pos, nn uint32
	if err := c.QueryRow(ctx(t), `SELECT 'posint'::regtype::oid, 'nn'::regtype::oid`).Scan(&pos, &nn); err != nil {
		t.Fatal(err)
	}
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	exchange := func(msgs ...pgproto3.FrontendMessage) string {
		t.Helper()
		for _, m := range msgs {
			fe.Send(m)
		}
		fe.Send(&pgproto3.Sync{})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			msg, err := fe.Receive()
			if err != nil {
				t.Fatal(err)
			}
			switch m := msg.(type) {
			case *pgproto3.ReadyForQuery:
				return fmt.Sprint(got)
			case *pgproto3.ParseComplete:
				got = append(got, "parse")
			case *pgproto3.BindComplete:
				got = append(got, "bind")
			case *pgproto3.DataRow:
				got = append(got, fmt.Sprintf("row %s", m.Values))
			case *pgproto3.CommandComplete:
				got = append(got, string(m.CommandTag))
			case *pgproto3.ErrorResponse:
				got = append(got, "error "+m.Code+" "+m.Message)
			}
		}
	}
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "deltaview", "database": "deltaview"}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	if got := exchange(&pgproto3.Parse{Name: "p", Query: `SELECT $1 AS d, $2 AS s`, ParameterOIDs: []uint32{pos, nn}}); got != "[parse]" {
		t.Fatalf("parse: %s", got)
	}
	bind := func(d, s []byte) *pgproto3.Bind {
		return &pgproto3.Bind{DestinationPortal: "q", PreparedStatement: "p", Parameters: [][]byte{d, s}}
	}
	binary := &pgproto3.Bind{DestinationPortal: "q", PreparedStatement: "p", ParameterFormatCodes: []int16{1, 0},
		Parameters: [][]byte{{0xff, 0xff, 0xff, 0xfe}, []byte("x")}}
	for _, c := range []struct {
		msgs []pgproto3.FrontendMessage
		want string
	}{
		{[]pgproto3.FrontendMessage{bind([]byte("5"), []byte("x")), &pgproto3.Execute{Portal: "q"}}, "[bind row [5 x] SELECT 1]"},
		// No Execute: the Bind itself fails.
		{[]pgproto3.FrontendMessage{bind([]byte("-1"), []byte("x"))}, `[error 23514 value for domain posint violates check constraint "posint_check"]`},
		{[]pgproto3.FrontendMessage{bind([]byte("1"), nil)}, "[error 23502 domain nn does not allow null values]"},
		{[]pgproto3.FrontendMessage{binary}, `[error 23514 value for domain posint violates check constraint "posint_check"]`},
		{[]pgproto3.FrontendMessage{bind([]byte("0"), []byte("x")), &pgproto3.Execute{Portal: "q"}}, `[error 23514 value for domain posint violates check constraint "posint_check"]`},
		{[]pgproto3.FrontendMessage{bind([]byte(strconv.Itoa(7)), []byte("y")), &pgproto3.Execute{Portal: "q"}}, "[bind row [7 y] SELECT 1]"},
	} {
		if got := exchange(c.msgs...); got != c.want {
			t.Errorf("%v: got %s, want %s", c.msgs, got, c.want)
		}
	}
}
