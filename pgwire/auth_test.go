package pgwire_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
	"github.com/deltaview/deltaview/pgwire"
)

// selfSigned returns a TLS configuration with a certificate for 127.0.0.1
// made for the test.
func selfSigned(t *testing.T) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "deltaview test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}

// startServerWith serves db with o on a loopback port until the test ends.
func startServerWith(t *testing.T, db *deltaview.DB, o pgwire.Options) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	o.Logf = t.Logf
	go func() { done <- pgwire.Serve(c, db, ln, o) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("Serve did not return 10s after its context ended")
		}
	})
	return ln.Addr().String()
}

func connectAs(addr, user, password, sslmode string) (*pgx.Conn, error) {
	host, port, _ := net.SplitHostPort(addr)
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return pgx.Connect(c, fmt.Sprintf("host=%s port=%s user=%s password='%s' dbname=deltaview sslmode=%s connect_timeout=5",
		host, port, user, password, sslmode))
}

func sqlstate(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

const rolesScript = `
CREATE TABLE t (id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 10), (2, 20);
CREATE MATERIALIZED VIEW big AS SELECT id, v FROM t WHERE v > 15;
CREATE ROLE admin LOGIN SUPERUSER PASSWORD 'admin pw';
CREATE ROLE alice LOGIN PASSWORD 'alice pw';
CREATE ROLE nologin PASSWORD 'nologin pw';
GRANT SELECT ON big TO alice;
`

// TestAuthPgx logs in with pgx over TLS as roles with SCRAM-SHA-256, and
// checks the refusals: a wrong password, an unknown role, a role that may
// not log in, the built-in superuser once roles exist, a missing grant, a
// non-superuser's COPY FROM 'file' and COPY (SUBSCRIBE …) of a table it may
// not read. Another client is served throughout.
func TestAuthPgx(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(rolesScript); err != nil {
		t.Fatal(err)
	}
	addr := startServerWith(t, db, pgwire.Options{TLS: selfSigned(t)})
	admin, err := connectAs(addr, "admin", "admin pw", "require")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	if _, ok := admin.PgConn().Conn().(*tls.Conn); !ok {
		t.Errorf("sslmode=require: the connection is a %T", admin.PgConn().Conn())
	}

	for _, c := range []struct{ user, password, code string }{
		{"alice", "wrong", "28P01"},
		{"nobody", "alice pw", "28P01"},
		{"nologin", "nologin pw", "28000"},
		{"deltaview", "", "28P01"},
	} {
		_, err := connectAs(addr, c.user, c.password, "require")
		if sqlstate(err) != c.code {
			t.Errorf("%s with password %q: %v, want SQLSTATE %s", c.user, c.password, err, c.code)
		}
	}

	alice, err := connectAs(addr, "alice", "alice pw", "prefer")
	if err != nil {
		t.Fatal(err)
	}
	defer alice.Close(context.Background())
	var n int
	if err := alice.QueryRow(ctx(t), "SELECT count(*) FROM big").Scan(&n); err != nil || n != 1 {
		t.Errorf("alice reads big: %d, %v", n, err)
	}
	for _, q := range []string{
		"SELECT * FROM t",
		"INSERT INTO t VALUES (3, 30)",
		"COPY t FROM '/etc/hosts'",
		"CREATE ROLE eve",
		"DROP MATERIALIZED VIEW big",
	} {
		_, err := alice.Exec(ctx(t), q)
		if sqlstate(err) != "42501" {
			t.Errorf("alice: %s: %v, want SQLSTATE 42501", q, err)
		}
	}
	res := alice.PgConn().Exec(ctx(t), "COPY (SUBSCRIBE t) TO STDOUT")
	if _, err := res.ReadAll(); sqlstate(err) != "42501" {
		t.Errorf("alice: COPY (SUBSCRIBE t): %v, want SQLSTATE 42501", err)
	}
	mustExec(t, alice, "BEGIN")
	if _, err := alice.Exec(ctx(t), "DECLARE c CURSOR FOR SUBSCRIBE t"); sqlstate(err) != "42501" {
		t.Errorf("alice: DECLARE CURSOR FOR SUBSCRIBE t: %v, want SQLSTATE 42501", err)
	}
	mustExec(t, alice, "ROLLBACK")
	if err := admin.QueryRow(ctx(t), "SELECT count(*) FROM t").Scan(&n); err != nil || n != 2 {
		t.Errorf("admin after the refusals: %d, %v", n, err)
	}
	// A role created while serving logs in at once; the is_superuser
	// parameter tells the client what it is.
	mustExec(t, admin, "CREATE ROLE bob LOGIN PASSWORD 'bob pw'")
	bob, err := connectAs(addr, "bob", "bob pw", "disable")
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close(context.Background())
	if s := bob.PgConn().ParameterStatus("is_superuser"); s != "off" {
		t.Errorf("bob: is_superuser %q", s)
	}
	if s := admin.PgConn().ParameterStatus("is_superuser"); s != "on" {
		t.Errorf("admin: is_superuser %q", s)
	}
}

// TestAuthPsql logs in with psql: PGPASSWORD and sslmode=require, a wrong
// password, and a missing grant.
func TestAuthPsql(t *testing.T) {
	psql := pgtest.Psql(t)
	db := deltaview.Open()
	if err := db.Exec(rolesScript); err != nil {
		t.Fatal(err)
	}
	addr := startServerWith(t, db, pgwire.Options{TLS: selfSigned(t)})
	host, port, _ := net.SplitHostPort(addr)
	run := func(user, password, sql string) string {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(c, psql, "-X", "-c", sql,
			fmt.Sprintf("host=%s port=%s user=%s dbname=deltaview sslmode=require", host, port, user))
		cmd.Env = append(cmd.Environ(), "PGPASSWORD="+password, "PGCONNECT_TIMEOUT=5")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.Run()
		return out.String()
	}
	if out := run("alice", "alice pw", "SELECT id, v FROM big"); !strings.Contains(out, "(1 row)") {
		t.Errorf("alice over TLS:\n%s", out)
	}
	if out := run("alice", "wrong", "SELECT 1"); !strings.Contains(out, `password authentication failed for user "alice"`) {
		t.Errorf("a wrong password:\n%s", out)
	}
	if out := run("alice", "alice pw", "SELECT * FROM t"); !strings.Contains(out, "permission denied for table t") {
		t.Errorf("a missing grant:\n%s", out)
	}
	if out := run("admin", "admin pw", "SELECT count(*) FROM t"); !strings.Contains(out, "2") {
		t.Errorf("admin:\n%s", out)
	}
}

// TestTLSRefusedWithoutCertificate checks that a server without a
// certificate answers an SSL request with 'N': sslmode=require fails,
// sslmode=prefer connects in clear.
func TestTLSRefusedWithoutCertificate(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	if c, err := connectAs(addr, "deltaview", "", "require"); err == nil {
		c.Close(context.Background())
		t.Error("sslmode=require connected to a server without a certificate")
	}
	c, err := connectAs(addr, "deltaview", "", "prefer")
	if err != nil {
		t.Fatal(err)
	}
	c.Close(context.Background())
}

// TestMaxConnections checks that a client beyond the bound gets 53300 and
// that a place freed is taken again.
func TestMaxConnections(t *testing.T) {
	addr := startServerWith(t, deltaview.Open(), pgwire.Options{MaxConnections: 2})
	a := connect(t, addr)
	b, err := connectAs(addr, "deltaview", "", "disable")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := connectAs(addr, "deltaview", "", "disable"); sqlstate(err) != "53300" {
		t.Errorf("a third connection: %v, want SQLSTATE 53300", err)
	}
	b.Close(context.Background())
	var c *pgx.Conn
	for try := 0; try < 50; try++ { // the server notices b's end soon
		if c, err = connectAs(addr, "deltaview", "", "disable"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("after a connection ended: %v", err)
	}
	c.Close(context.Background())
	mustExec(t, a, "SELECT 1")
}

// TestStatementTimeout checks that statement_timeout cancels a wait for
// another session's transaction and a long query with 57014, and that
// the session goes on.
func TestStatementTimeout(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec("CREATE TABLE t (id int); INSERT INTO t SELECT * FROM generate_series(1, 3000)"); err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, db)
	a, b := connect(t, addr), connect(t, addr)
	mustExec(t, a, "BEGIN")
	mustExec(t, a, "INSERT INTO t VALUES (0)")
	mustExec(t, b, "SET statement_timeout = '100ms'")
	start := time.Now()
	if _, err := b.Exec(ctx(t), "INSERT INTO t VALUES (-1)"); sqlstate(err) != "57014" {
		t.Errorf("a wait for the writer: %v, want SQLSTATE 57014", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the statement was canceled after %s", d)
	}
	mustExec(t, a, "ROLLBACK")
	if _, err := b.Exec(ctx(t), "SELECT count(*) FROM t x, t y, t z WHERE x.id + y.id = z.id"); sqlstate(err) != "57014" {
		t.Errorf("a long query: %v, want SQLSTATE 57014", err)
	}
	if _, err := b.Exec(ctx(t), "INSERT INTO t SELECT x.id FROM t x, t y, t z WHERE x.id + y.id = z.id"); sqlstate(err) != "57014" {
		t.Errorf("a long INSERT … SELECT: %v, want SQLSTATE 57014", err)
	}
	mustExec(t, b, "SET statement_timeout = 0")
	mustExec(t, b, "INSERT INTO t VALUES (-1)")
}

// TestIdleSessionTimeout checks that a session idle longer than its
// idle_session_timeout is ended with FATAL 57P05, and not one inside a
// transaction block.
func TestIdleSessionTimeout(t *testing.T) {
	addr := startServer(t, deltaview.Open())
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "deltaview", "database": "deltaview"}})
	wait := func(q string) {
		t.Helper()
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		for {
			msg, err := fe.Receive()
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			if e, ok := msg.(*pgproto3.ErrorResponse); ok {
				t.Fatalf("%s: %s", q, e.Message)
			}
			if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
				return
			}
		}
	}
	query := func(q string) {
		t.Helper()
		fe.Send(&pgproto3.Query{String: q})
		wait(q)
	}
	wait("startup")
	query("SET idle_session_timeout = 150")
	query("BEGIN")
	time.Sleep(400 * time.Millisecond)
	query("COMMIT") // inside the block the session waited as long as it liked
	start := time.Now()
	msg, err := fe.Receive()
	if e, ok := msg.(*pgproto3.ErrorResponse); !ok || e.Code != "57P05" || e.Severity != "FATAL" {
		t.Fatalf("%#v %v, want FATAL 57P05", msg, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("ended after %s", d)
	}
}

// TestStalledSubscriber opens COPY (SUBSCRIBE v) on a connection that then
// reads nothing: commits go on at full speed, the connection is ended once
// a write to it has waited StreamWriteTimeout, and other clients are
// served throughout.
func TestStalledSubscriber(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec("CREATE TABLE t (id int PRIMARY KEY, pad text); CREATE MATERIALIZED VIEW v AS SELECT * FROM t"); err != nil {
		t.Fatal(err)
	}
	addr := startServerWith(t, db, pgwire.Options{StreamWriteTimeout: 200 * time.Millisecond})
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(30 * time.Second))
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
		Parameters: map[string]string{"user": "deltaview", "database": "deltaview"}})
	fe.Send(&pgproto3.Query{String: "COPY (SUBSCRIBE v) TO STDOUT"})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := msg.(*pgproto3.CopyOutResponse); ok {
			break
		}
	}
	// The stalled client reads nothing from here on.
	other := connect(t, addr)
	pad := strings.Repeat("x", 8<<10)
	start := time.Now()
	var slowest time.Duration
	const commits = 3000
	for i := range commits {
		t0 := time.Now()
		if err := db.Exec(fmt.Sprintf("INSERT INTO t VALUES (%d, '%s')", i, pad)); err != nil {
			t.Fatal(err)
		}
		slowest = max(slowest, time.Since(t0))
	}
	t.Logf("%d commits of 8 kB rows with a stalled subscriber: %s, slowest %s", commits, time.Since(start), slowest)
	if slowest > 2*time.Second {
		t.Errorf("a commit took %s: the stalled subscriber slowed it", slowest)
	}
	var n int
	if err := other.QueryRow(ctx(t), "SELECT count(*) FROM v").Scan(&n); err != nil || n != commits {
		t.Errorf("another client: %d, %v", n, err)
	}
	// Draining what the server wrote before it gave up ends in EOF (or a
	// reset), not in the read deadline: the server closed the connection.
	buf := make([]byte, 1<<20)
	drained := 0
	for {
		k, err := nc.Read(buf)
		drained += k
		if err != nil {
			t.Logf("drained %d bytes", drained)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatalf("the stalled connection is still open: %v", err)
			}
			break
		}
	}
}

// TestAuthMalformed sends an oversized message and one of a wrong type in
// the middle of the password exchange: each gets FATAL 08P01, and a role
// logs in afterwards.
func TestAuthMalformed(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec(rolesScript); err != nil {
		t.Fatal(err)
	}
	addr := startServerWith(t, db, pgwire.Options{})
	for name, raw := range map[string][]byte{
		"oversized":  {'p', 0x7f, 0, 0, 0},
		"over 64 kB": {'p', 0, 2, 0, 0},
		"not SASL":   {'Q', 0, 0, 0, 13, 'S', 'E', 'L', 'E', 'C', 'T', ' ', '1', 0},
		"bad length": {'p', 0, 0, 0, 2},
	} {
		nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		nc.SetDeadline(time.Now().Add(10 * time.Second))
		fe := pgproto3.NewFrontend(nc, nc)
		fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber,
			Parameters: map[string]string{"user": "alice", "database": "deltaview"}})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		if msg, err := fe.Receive(); err != nil {
			t.Fatalf("%s: %v", name, err)
		} else if _, ok := msg.(*pgproto3.AuthenticationSASL); !ok {
			t.Fatalf("%s: %#v, want AuthenticationSASL", name, msg)
		}
		if _, err := nc.Write(raw); err != nil {
			t.Fatal(err)
		}
		msg, err := fe.Receive()
		if e, ok := msg.(*pgproto3.ErrorResponse); !ok || e.Code != "08P01" || e.Severity != "FATAL" {
			t.Errorf("%s: %#v %v, want FATAL 08P01", name, msg, err)
		}
		nc.Close()
	}
	c, err := connectAs(addr, "alice", "alice pw", "disable")
	if err != nil {
		t.Fatal(err)
	}
	c.Close(context.Background())
}

// TestStartupSettings gives statement_timeout in the startup message, as
// a connection string's parameter and in options (-c name=value): the
// session starts with it; a bad value refuses the connection with 22023.
func TestStartupSettings(t *testing.T) {
	db := deltaview.Open()
	if err := db.Exec("CREATE TABLE t (id int)"); err != nil {
		t.Fatal(err)
	}
	addr := startServer(t, db)
	a := connect(t, addr)
	mustExec(t, a, "BEGIN")
	mustExec(t, a, "INSERT INTO t VALUES (0)")
	defer mustExec(t, a, "ROLLBACK")
	for _, extra := range []string{"statement_timeout=100", "options='-c statement_timeout=100ms'"} {
		c, err := pgx.Connect(ctx(t), connString(addr)+" "+extra)
		if err != nil {
			t.Fatalf("%s: %v", extra, err)
		}
		if _, err := c.Exec(ctx(t), "INSERT INTO t VALUES (1)"); sqlstate(err) != "57014" {
			t.Errorf("%s: %v, want SQLSTATE 57014", extra, err)
		}
		var v string
		if err := c.QueryRow(ctx(t), "SHOW statement_timeout").Scan(&v); err != nil || v != "100ms" {
			t.Errorf("%s: SHOW statement_timeout: %q, %v", extra, v, err)
		}
		c.Close(context.Background())
	}
	if c, err := pgx.Connect(ctx(t), connString(addr)+" statement_timeout=soon"); sqlstate(err) != "22023" {
		if err == nil {
			c.Close(context.Background())
		}
		t.Errorf("a bad value: %v, want SQLSTATE 22023", err)
	}
}
