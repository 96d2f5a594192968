package pgwire

import (
	"crypto/rand"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/deltaview/deltaview/internal/dbaccess"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/scram"
)

// authTimeout bounds a client's startup: the TLS handshake, the startup
// message and the password exchange (PostgreSQL's authentication_timeout).
const authTimeout = time.Minute

// maxAuthMessage bounds a message of the password exchange.
const maxAuthMessage = 64 << 10

// startTLS answers an SSLRequest: 'S' and a TLS handshake when the server
// has a certificate, 'N' otherwise (and on a connection already
// encrypted); the client then sends its startup message, encrypted or not.
func (c *conn) startTLS() error {
	if c.srv.tls == nil || c.tls {
		_, err := c.rw.Write([]byte{'N'})
		return err
	}
	if _, err := c.rw.Write([]byte{'S'}); err != nil {
		return err
	}
	tc := tls.Server(c.nc, c.srv.tls)
	if err := tc.Handshake(); err != nil {
		return err
	}
	c.rw, c.tls = tc, true
	c.be = newBackend(pgproto3.NewBackend(tc, tc))
	c.be.SetMaxBodyLen(maxMessage)
	return nil
}

// login lets in the user a startup message names. With no roles in the
// catalog the only user is the built-in superuser, without a password,
// from loopback addresses; once roles exist, a role that may log in proves
// its password with SCRAM-SHA-256. It returns the role the session acts as
// (empty for the built-in superuser) and whether it is a superuser.
func (c *conn) login(user, db string) (string, bool, error) {
	e := dbaccess.Engine(c.srv.db)
	if !e.HasRoles() {
		if !isLoopback(c.nc.RemoteAddr()) {
			return "", false, c.fatal(pgerr.New(pgerr.InvalidAuthorization, "no roles are configured: connections are accepted from this machine only"))
		}
		if user != User {
			return "", false, c.fatal(pgerr.New(pgerr.InvalidAuthorization, "role %q does not exist", user).
				WithHint("with no roles configured, the only role is %q, without a password", User))
		}
		if db != Database {
			return "", false, c.fatal(pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", db).
				WithHint("the only database is %q", Database))
		}
		return "", true, nil
	}
	info, ok := e.Role(user)
	v := info.Verifier
	if !ok || !info.HasPassword {
		// The exchange runs against a verifier no password matches, so
		// that the answer does not tell which roles exist.
		v = c.srv.decoy
	}
	failed := func() error {
		return c.fatal(pgerr.New(pgerr.InvalidPassword, "password authentication failed for user %q", user))
	}
	// A client not yet authenticated gets no large buffer (PostgreSQL
	// bounds an authentication message to 64 kB too).
	c.be.SetMaxBodyLen(maxAuthMessage)
	defer c.be.SetMaxBodyLen(maxMessage)
	c.be.Send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{scram.Mechanism}})
	if err := c.be.Flush(); err != nil {
		return "", false, err
	}
	c.be.SetAuthType(pgproto3.AuthTypeSASL)
	msg, err := c.receiveAuth()
	if err != nil {
		return "", false, err
	}
	first, ok1 := msg.(*pgproto3.SASLInitialResponse)
	if !ok1 {
		return "", false, c.fatal(pgerr.New(pgerr.ProtocolViolation, "expected SASL response, got message type 0x%02x", msgType(msg)))
	}
	if first.AuthMechanism != scram.Mechanism {
		return "", false, c.fatal(pgerr.New(pgerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism %q", first.AuthMechanism))
	}
	ex := scram.NewServer(v)
	serverFirst, err := ex.ClientFirst(first.Data)
	if err != nil {
		return "", false, c.fatal(pgerr.New(pgerr.ProtocolViolation, "%v", err))
	}
	c.be.Send(&pgproto3.AuthenticationSASLContinue{Data: serverFirst})
	if err := c.be.Flush(); err != nil {
		return "", false, err
	}
	c.be.SetAuthType(pgproto3.AuthTypeSASLContinue)
	msg, err = c.receiveAuth()
	if err != nil {
		return "", false, err
	}
	final, ok2 := msg.(*pgproto3.SASLResponse)
	if !ok2 {
		return "", false, c.fatal(pgerr.New(pgerr.ProtocolViolation, "expected SASL response, got message type 0x%02x", msgType(msg)))
	}
	serverFinal, err := ex.ClientFinal(final.Data)
	switch {
	case errors.Is(err, scram.ErrFailed):
		return "", false, failed()
	case err != nil:
		return "", false, c.fatal(pgerr.New(pgerr.ProtocolViolation, "%v", err))
	case !ok || !info.HasPassword:
		return "", false, failed()
	}
	if !info.Login {
		return "", false, c.fatal(pgerr.New(pgerr.InvalidAuthorization, "role %q is not permitted to log in", user).
			WithHint("a superuser allows it with ALTER ROLE %s LOGIN", user))
	}
	c.be.Send(&pgproto3.AuthenticationSASLFinal{Data: serverFinal})
	if db != Database {
		return "", false, c.fatal(pgerr.New(pgerr.InvalidCatalogName, "database %q does not exist", db).
			WithHint("the only database is %q", Database))
	}
	if !info.Connect {
		return "", false, c.fatal(pgerr.New(pgerr.InsufficientPrivilege, "permission denied for database %q", db).
			WithDetail("User does not have CONNECT privilege."))
	}
	return user, info.Superuser, nil
}

// receiveAuth reads a message of the password exchange; a message that
// cannot be read (too long, malformed) ends the connection with 08P01.
func (c *conn) receiveAuth() (pgproto3.FrontendMessage, error) {
	msg, err := c.be.Receive()
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, net.ErrClosed) {
		return nil, c.fatal(pgerr.New(pgerr.ProtocolViolation, "invalid message: %v", err))
	}
	return msg, err
}

// decoyVerifier is a verifier no password matches (its keys are random),
// for the exchanges of users that do not exist or have no password.
func decoyVerifier() scram.Verifier {
	v := scram.Verifier{Iter: scram.Iterations, Salt: make([]byte, 16), StoredKey: make([]byte, 32), ServerKey: make([]byte, 32)}
	rand.Read(v.Salt)
	rand.Read(v.StoredKey)
	rand.Read(v.ServerKey)
	return v
}
