// Package scram implements the server side of SCRAM-SHA-256 (RFC 5802,
// RFC 7677) as PostgreSQL speaks it: password verifiers in PostgreSQL's
// format, and the exchange that proves a client knows the password without
// the password crossing the wire. It keeps no state beyond one exchange.
package scram

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Iterations is the PBKDF2 iteration count of new verifiers, PostgreSQL's
// default.
const Iterations = 4096

// Verifier is what a server stores of a password: the salt and iteration
// count, and two keys derived from the password from which it cannot be
// recovered.
type Verifier struct {
	Iter      int
	Salt      []byte
	StoredKey []byte
	ServerKey []byte
}

// NewVerifier derives a verifier of password with a random salt.
func NewVerifier(password string) (Verifier, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return Verifier{}, err
	}
	return derive(password, salt, Iterations)
}

func derive(password string, salt []byte, iter int) (Verifier, error) {
	salted, err := pbkdf2.Key(sha256.New, password, salt, iter, sha256.Size)
	if err != nil {
		return Verifier{}, err
	}
	clientKey := mac(salted, "Client Key")
	stored := sha256.Sum256(clientKey)
	return Verifier{Iter: iter, Salt: salt, StoredKey: stored[:], ServerKey: mac(salted, "Server Key")}, nil
}

// Check reports whether password is the one v was derived from (for HTTP
// basic authentication, where the client sends the password itself).
func (v Verifier) Check(password string) bool {
	w, err := derive(password, v.Salt, v.Iter)
	return err == nil && subtle.ConstantTimeCompare(w.StoredKey, v.StoredKey) == 1
}

// String is v in PostgreSQL's format:
// SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey, base64.
func (v Verifier) String() string {
	b := base64.StdEncoding
	return fmt.Sprintf("SCRAM-SHA-256$%d:%s$%s:%s", v.Iter, b.EncodeToString(v.Salt),
		b.EncodeToString(v.StoredKey), b.EncodeToString(v.ServerKey))
}

// Parse reads a verifier in PostgreSQL's format; ok is false when s is not
// one (a password given in clear).
func Parse(s string) (v Verifier, ok bool) {
	rest, found := strings.CutPrefix(s, "SCRAM-SHA-256$")
	if !found {
		return v, false
	}
	params, keys, found := strings.Cut(rest, "$")
	if !found {
		return v, false
	}
	iter, salt, found1 := strings.Cut(params, ":")
	stored, server, found2 := strings.Cut(keys, ":")
	if !found1 || !found2 {
		return v, false
	}
	var err error
	if v.Iter, err = strconv.Atoi(iter); err != nil || v.Iter < 1 {
		return v, false
	}
	b := base64.StdEncoding
	var e1, e2, e3 error
	v.Salt, e1 = b.DecodeString(salt)
	v.StoredKey, e2 = b.DecodeString(stored)
	v.ServerKey, e3 = b.DecodeString(server)
	if e1 != nil || e2 != nil || e3 != nil || len(v.StoredKey) != sha256.Size || len(v.ServerKey) != sha256.Size || len(v.Salt) == 0 {
		return Verifier{}, false
	}
	return v, true
}

func mac(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}

// Mechanism is the SASL mechanism name.
const Mechanism = "SCRAM-SHA-256"

// ErrFailed is a proof that does not match: a wrong password.
var ErrFailed = errors.New("password authentication failed")

// Server is one exchange: ClientFirst answers the client's first message,
// ClientFinal checks its proof and returns the server's final message.
type Server struct {
	v               Verifier
	nonce           string // the client's nonce followed by the server's
	clientFirstBare string
	serverFirst     string
	gs2Header       string
}

// NewServer starts an exchange against v. For a user that does not exist,
// pass a verifier of a random password: the exchange then runs as for any
// wrong password, so that the answer does not tell which users exist.
func NewServer(v Verifier) *Server { return &Server{v: v} }

// ClientFirst reads client-first-message and returns server-first-message.
func (s *Server) ClientFirst(msg []byte) ([]byte, error) {
	m := string(msg)
	// gs2-header: "n,," or "y,," (no channel binding); "p=…" asks for
	// channel binding, which the server does not offer.
	var cbind string
	switch {
	case strings.HasPrefix(m, "n,"), strings.HasPrefix(m, "y,"):
		cbind = m[:1]
	case strings.HasPrefix(m, "p="):
		return nil, errors.New("channel binding is not supported")
	default:
		return nil, errors.New("malformed SCRAM message")
	}
	rest := m[2:]
	authzid, bare, found := strings.Cut(rest, ",")
	if !found || (authzid != "" && !strings.HasPrefix(authzid, "a=")) {
		return nil, errors.New("malformed SCRAM message")
	}
	s.gs2Header = cbind + "," + authzid + ","
	s.clientFirstBare = bare
	var clientNonce string
	for _, attr := range strings.Split(bare, ",") {
		if strings.HasPrefix(attr, "m=") {
			return nil, errors.New("SCRAM extensions are not supported")
		}
		if n, ok := strings.CutPrefix(attr, "r="); ok {
			clientNonce = n
		}
	}
	if clientNonce == "" || strings.ContainsAny(clientNonce, ",") {
		return nil, errors.New("malformed SCRAM message: no nonce")
	}
	raw := make([]byte, 18)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	s.nonce = clientNonce + base64.StdEncoding.EncodeToString(raw)
	s.serverFirst = fmt.Sprintf("r=%s,s=%s,i=%d", s.nonce, base64.StdEncoding.EncodeToString(s.v.Salt), s.v.Iter)
	return []byte(s.serverFirst), nil
}

// ClientFinal reads client-final-message, checks the client's proof, and
// returns server-final-message; ErrFailed when the proof is wrong.
func (s *Server) ClientFinal(msg []byte) ([]byte, error) {
	m := string(msg)
	i := strings.LastIndex(m, ",p=")
	if i < 0 {
		return nil, errors.New("malformed SCRAM message: no proof")
	}
	withoutProof, proofB64 := m[:i], m[i+3:]
	var cbind, nonce string
	for _, attr := range strings.Split(withoutProof, ",") {
		if v, ok := strings.CutPrefix(attr, "c="); ok {
			cbind = v
		} else if v, ok := strings.CutPrefix(attr, "r="); ok {
			nonce = v
		}
	}
	if cbind != base64.StdEncoding.EncodeToString([]byte(s.gs2Header)) {
		return nil, errors.New("SCRAM channel binding does not match")
	}
	if nonce != s.nonce {
		return nil, errors.New("SCRAM nonce does not match")
	}
	proof, err := base64.StdEncoding.DecodeString(proofB64)
	if err != nil || len(proof) != sha256.Size {
		return nil, errors.New("malformed SCRAM proof")
	}
	authMessage := s.clientFirstBare + "," + s.serverFirst + "," + withoutProof
	sig := mac(s.v.StoredKey, authMessage)
	clientKey := make([]byte, sha256.Size)
	for i := range clientKey {
		clientKey[i] = proof[i] ^ sig[i]
	}
	stored := sha256.Sum256(clientKey)
	if subtle.ConstantTimeCompare(stored[:], s.v.StoredKey) != 1 {
		return nil, ErrFailed
	}
	return []byte("v=" + base64.StdEncoding.EncodeToString(mac(s.v.ServerKey, authMessage))), nil
}
