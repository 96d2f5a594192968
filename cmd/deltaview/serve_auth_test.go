package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// writeCert writes a self-signed certificate for 127.0.0.1 and its key as
// PEM files in dir.
func writeCert(t *testing.T, dir string) (certFile, keyFile string) {
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
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// TestServeWithRoles starts the server with an --init script that creates
// a superuser role and with a certificate: it may then listen on every
// address, says so at start, lets the role in over TLS with its password
// (pgx, sslmode=require), and HTTPS asks for the role's credentials.
func TestServeWithRoles(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := writeCert(t, dir)
	initFile := filepath.Join(dir, "init.sql")
	if err := os.WriteFile(initFile, []byte(`CREATE ROLE admin LOGIN SUPERUSER PASSWORD 'admin pw';
CREATE TABLE t (id int PRIMARY KEY);`), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 2)
	done := make(chan error, 1)
	var logb bytes.Buffer
	o := serveOptions{listen: "0.0.0.0:0", http: "0.0.0.0:0", init: initFile, tlsCert: certFile, tlsKey: keyFile}
	go func() { done <- serve(ctx, o, &logb, ready) }()
	var pgAddr, httpAddr net.Addr
	for _, a := range []*net.Addr{&pgAddr, &httpAddr} {
		select {
		case *a = <-ready:
		case err := <-done:
			t.Fatal(err)
		}
	}
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Error("serve did not stop")
		}
		if !strings.Contains(logb.String(), "roles configured: clients log in as a role") {
			t.Errorf("the start does not say who may connect:\n%s", logb.String())
		}
	}()
	_, pgPort, _ := net.SplitHostPort(pgAddr.String())
	_, httpPort, _ := net.SplitHostPort(httpAddr.String())
	conn, err := pgx.Connect(context.Background(), "postgres://admin:admin%20pw@127.0.0.1:"+pgPort+"/deltaview?sslmode=require")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, ok := conn.PgConn().Conn().(*tls.Conn); !ok {
		t.Errorf("the connection is a %T, not TLS", conn.PgConn().Conn())
	}
	if _, err := conn.Exec(context.Background(), "INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	post := func(user, pw string) (int, string) {
		req, _ := http.NewRequest("POST", "https://127.0.0.1:"+httpPort+"/v1/sql", strings.NewReader("SELECT count(*) FROM t"))
		if user != "" {
			req.SetBasicAuth(user, pw)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if st, body := post("", ""); st != 401 {
		t.Errorf("without credentials: %d %s", st, body)
	}
	if st, body := post("admin", "admin pw"); st != 200 || !strings.Contains(body, "[[1]]") {
		t.Errorf("as admin: %d %s", st, body)
	}
}

// TestServeInitFails checks that a failing --init script stops the server
// before it listens, with the statement's error.
func TestServeInitFails(t *testing.T) {
	initFile := filepath.Join(t.TempDir(), "init.sql")
	os.WriteFile(initFile, []byte("CREATE ROLE a CREATEDB;"), 0o600)
	err := serve(context.Background(), serveOptions{listen: "127.0.0.1:0", init: initFile}, &bytes.Buffer{}, nil)
	if err == nil || !strings.Contains(err.Error(), "CREATEDB is not supported") {
		t.Errorf("serve: %v", err)
	}
}
