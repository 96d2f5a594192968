package scram

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// client runs the client's side of the exchange as RFC 5802 describes it,
// independently of Server: it returns the client-final-message and the
// server signature the client expects.
func client(t *testing.T, s *Server, password, clientNonce string) (final []byte, wantSig string) {
	t.Helper()
	bare := "n=,r=" + clientNonce
	sf, err := s.ClientFirst([]byte("n,," + bare))
	if err != nil {
		t.Fatal(err)
	}
	attrs := map[string]string{}
	for _, a := range strings.Split(string(sf), ",") {
		attrs[a[:1]] = a[2:]
	}
	if !strings.HasPrefix(attrs["r"], clientNonce) || attrs["i"] != "4096" {
		t.Fatalf("server-first-message %q", sf)
	}
	salt, _ := base64.StdEncoding.DecodeString(attrs["s"])
	salted, _ := pbkdf2.Key(sha256.New, password, salt, 4096, 32)
	h := func(key []byte, msg string) []byte {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(msg))
		return m.Sum(nil)
	}
	clientKey := h(salted, "Client Key")
	stored := sha256.Sum256(clientKey)
	without := "c=" + base64.StdEncoding.EncodeToString([]byte("n,,")) + ",r=" + attrs["r"]
	auth := bare + "," + string(sf) + "," + without
	sig := h(stored[:], auth)
	proof := make([]byte, 32)
	for i := range proof {
		proof[i] = clientKey[i] ^ sig[i]
	}
	return []byte(without + ",p=" + base64.StdEncoding.EncodeToString(proof)),
		"v=" + base64.StdEncoding.EncodeToString(h(h(salted, "Server Key"), auth))
}

func TestExchange(t *testing.T) {
	v, err := NewVerifier("pencil")
	if err != nil {
		t.Fatal(err)
	}
	w, ok := Parse(v.String())
	if !ok || w.String() != v.String() || !w.Check("pencil") || w.Check("Pencil") {
		t.Fatalf("verifier %q does not round-trip", v.String())
	}
	s := NewServer(v)
	final, wantSig := client(t, s, "pencil", "fyko+d2lbbFgONRv9qkxdawL")
	got, err := s.ClientFinal(final)
	if err != nil || string(got) != wantSig {
		t.Fatalf("right password: %q %v, want %q", got, err, wantSig)
	}
	s = NewServer(v)
	final, _ = client(t, s, "wrong", "fyko+d2lbbFgONRv9qkxdawL")
	if _, err := s.ClientFinal(final); !errors.Is(err, ErrFailed) {
		t.Fatalf("wrong password: %v", err)
	}
}

// TestMalformed feeds the exchange messages that are not SCRAM: each is an
// error, never a panic.
func TestMalformed(t *testing.T) {
	v, _ := NewVerifier("x")
	for _, m := range []string{"", "n", "n,", "n,,", "p=tls-server-end-point,,n=,r=a", "x,,n=,r=a", "n,,n=,r=", "n,,m=ext,r=a", "n,b,n=,r=a"} {
		if _, err := NewServer(v).ClientFirst([]byte(m)); err == nil {
			t.Errorf("client-first %q accepted", m)
		}
	}
	for _, m := range []string{"", "p=", "c=biws,r=x,p=AAAA", "c=biws,p=!!"} {
		s := NewServer(v)
		if _, err := s.ClientFirst([]byte("n,,n=,r=abc")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ClientFinal([]byte(m)); err == nil {
			t.Errorf("client-final %q accepted", m)
		}
	}
	for _, s := range []string{"", "SCRAM-SHA-256$", "SCRAM-SHA-256$4096:abc$def", "SCRAM-SHA-256$x:c2FsdA==$AA==:AA==", "md5abc"} {
		if _, ok := Parse(s); ok {
			t.Errorf("Parse(%q) accepted", s)
		}
	}
}
