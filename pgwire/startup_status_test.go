package pgwire_test

import (
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// startupStatus opens a connection with params and returns the
// ParameterStatus messages the server sends up to its first
// ReadyForQuery, as name=value, in order.
func startupStatus(t *testing.T, network, addr string, params map[string]string) []string {
	t.Helper()
	nc, err := net.DialTimeout(network, addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: params})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		switch m := msg.(type) {
		case *pgproto3.ParameterStatus:
			out = append(out, m.Name+"="+m.Value)
		case *pgproto3.ErrorResponse:
			t.Fatalf("%s %s", m.Code, m.Message)
		case *pgproto3.ReadyForQuery:
			return out
		}
	}
}

// TestStartupParameterStatus sets client_encoding, DateStyle,
// IntervalStyle, TimeZone and application_name at startup, as a client
// does: each setting the server reports is sent once, with the value the
// session starts with, as PostgreSQL sends it (not the default, then the
// value set).
func TestStartupParameterStatus(t *testing.T) {
	params := map[string]string{"client_encoding": "LATIN1", "DateStyle": "SQL, DMY", "IntervalStyle": "iso_8601",
		"TimeZone": "Europe/Paris", "application_name": "e10app"}
	srv := pgtest.Start(t)
	pgParams := map[string]string{"user": "postgres", "database": "postgres"}
	dvParams := map[string]string{"user": "deltaview", "database": "deltaview"}
	for k, v := range params {
		pgParams[k], dvParams[k] = v, v
	}
	pg := startupStatus(t, "unix", filepath.Join(srv.SocketDir(), fmt.Sprintf(".s.PGSQL.%d", srv.Port())), pgParams)
	dv := startupStatus(t, "tcp", startServer(t, deltaview.OpenWith(deltaview.Options{})), dvParams)
	values := func(list []string) map[string]string {
		m := map[string]string{}
		for _, s := range list {
			for i := range s {
				if s[i] == '=' {
					if _, dup := m[s[:i]]; dup {
						t.Errorf("%s reported twice: %q", s[:i], list)
					}
					m[s[:i]] = s[i+1:]
					break
				}
			}
		}
		return m
	}
	t.Logf("PostgreSQL %q", pg)
	pv, dvv := values(pg), values(dv)
	names := func(list []string) (out []string) {
		for _, s := range list {
			out = append(out, s[:strings.IndexByte(s, '=')])
		}
		return out
	}
	if !slices.Equal(names(pg), names(dv)) {
		t.Errorf("deltaview reports %q, PostgreSQL %q", names(dv), names(pg))
	}
	for _, name := range []string{"client_encoding", "DateStyle", "IntervalStyle", "TimeZone", "application_name",
		"server_encoding", "integer_datetimes", "standard_conforming_strings", "default_transaction_read_only", "in_hot_standby"} {
		if pv[name] != dvv[name] {
			t.Errorf("%s: deltaview %q, PostgreSQL %q", name, dvv[name], pv[name])
		}
	}
}
