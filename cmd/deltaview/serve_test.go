package main

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/internal/pgtest"
)

// TestServeQuickstartThroughPsql runs the bundled example through psql
// against `deltaview serve` and compares its output with `deltaview
// run`'s: the result sets, and the deltas of the subscribed views after
// each commit.
func TestServeQuickstartThroughPsql(t *testing.T) {
	psql := pgtest.Psql(t)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	var logb bytes.Buffer
	go func() { done <- serve(ctx, serveOptions{listen: "127.0.0.1:0"}, &logb, ready) }()
	var addr net.Addr
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
		if !strings.Contains(logb.String(), `no roles configured: the superuser "deltaview"`) {
			t.Errorf("the start does not say who may connect:\n%s", logb.String())
		}
	}()
	const example = "../../examples/quickstart.sql"
	script, err := os.ReadFile(example)
	if err != nil {
		t.Fatal(err)
	}
	want, errs, failed := runScript(t, string(script), deltaview.PrintOptions{Format: "table"})
	if failed || errs != "" {
		t.Fatalf("run failed: %s", errs)
	}
	host, port, _ := net.SplitHostPort(addr.String())
	pctx, pcancel := context.WithTimeout(context.Background(), time.Minute)
	defer pcancel()
	cmd := exec.CommandContext(pctx, psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", port, "-U", "deltaview", "-d", "deltaview", "-f", example)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("psql: %v\n%s", err, stderr.String())
	}
	if string(got) != want {
		t.Errorf("psql prints:\n%s\ndeltaview run prints:\n%s", got, want)
	}
}

// TestServeRefusesNonLoopback checks that without roles the server
// listens on loopback addresses only.
func TestServeRefusesNonLoopback(t *testing.T) {
	err := serve(context.Background(), serveOptions{listen: "0.0.0.0:0"}, &bytes.Buffer{}, nil)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("serve on 0.0.0.0: %v", err)
	}
	err = serve(context.Background(), serveOptions{listen: "127.0.0.1:0", http: "0.0.0.0:0"}, &bytes.Buffer{}, nil)
	if err == nil || !strings.Contains(err.Error(), "--http 0.0.0.0:0") {
		t.Errorf("serve HTTP on 0.0.0.0: %v", err)
	}
}

// TestServeHTTP serves the wire protocol and HTTP on one database: a view
// made over HTTP streams a commit made through pgx within a second, and
// the stream ends with 57P01 when the server stops.
func TestServeHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan net.Addr, 2)
	done := make(chan error, 1)
	var logb bytes.Buffer
	go func() { done <- serve(ctx, serveOptions{listen: "127.0.0.1:0", http: "127.0.0.1:0"}, &logb, ready) }()
	var pgAddr, httpAddr net.Addr
	for _, a := range []*net.Addr{&pgAddr, &httpAddr} {
		select {
		case *a = <-ready:
		case err := <-done:
			t.Fatal(err)
		}
	}
	base := "http://" + httpAddr.String()
	resp, err := http.Post(base+"/v1/sql", "text/plain",
		strings.NewReader(`CREATE TABLE t (id int PRIMARY KEY); CREATE MATERIALIZED VIEW v AS SELECT count(*) AS n FROM t`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("POST /v1/sql: %s", resp.Status)
	}
	sse, err := http.Get(base + "/v1/views/v/changes")
	if err != nil {
		t.Fatal(err)
	}
	defer sse.Body.Close()
	lines := make(chan string, 100)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(sse.Body)
		for sc.Scan() {
			if l, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines <- l
			}
		}
	}()
	read := func() string {
		select {
		case l := <-lines:
			return l
		case <-time.After(time.Second):
			t.Fatal("no event within a second")
		}
		return ""
	}
	if l := read(); !strings.Contains(l, `"changes":[{"diff":1,"row":[0]}]`) {
		t.Errorf("snapshot %s", l)
	}
	conn, err := pgx.Connect(context.Background(), "postgres://deltaview@"+pgAddr.String()+"/deltaview?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `INSERT INTO t VALUES (1), (2)`); err != nil {
		t.Fatal(err)
	}
	if l := read(); !strings.Contains(l, `{"diff":1,"row":[2]}`) || !strings.Contains(l, `{"diff":-1,"row":[0]}`) {
		t.Errorf("delta %s", l)
	}
	cancel()
	if l := read(); !strings.Contains(l, `"code":"57P01"`) {
		t.Errorf("at shutdown %s", l)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	if !strings.Contains(logb.String(), "serving HTTP on http://"+httpAddr.String()) {
		t.Errorf("the start does not say where HTTP is served:\n%s", logb.String())
	}
}

// TestServeData serves a database kept in a directory, stops, serves it
// again: a pgx client finds what it committed the first time, and a role
// created the first time is the one that logs in after a restart.
func TestServeData(t *testing.T) {
	dir := t.TempDir()
	user := "deltaview"
	session := func(sqlText string) [][]any {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan net.Addr, 1)
		done := make(chan error, 1)
		go func() { done <- serve(ctx, serveOptions{listen: "127.0.0.1:0", data: dir}, &bytes.Buffer{}, ready) }()
		var addr net.Addr
		select {
		case addr = <-ready:
		case err := <-done:
			t.Fatal(err)
		}
		defer func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		}()
		conn, err := pgx.Connect(context.Background(), "postgres://"+user+"@"+addr.String()+"/deltaview?sslmode=disable")
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		rows, err := conn.Query(context.Background(), sqlText)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out [][]any
		for rows.Next() {
			v, err := rows.Values()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", sqlText, err)
		}
		return out
	}
	session("CREATE TABLE t (id int PRIMARY KEY)")
	session("INSERT INTO t VALUES (1), (2)")
	if got := session("SELECT count(*) FROM t"); len(got) != 1 || got[0][0] != int64(2) {
		t.Fatalf("rows after a restart of the server: %v", got)
	}
	session("CREATE ROLE admin LOGIN SUPERUSER PASSWORD 'a secret'")
	user = "admin:a%20secret"
	if got := session("SELECT count(*) FROM t"); len(got) != 1 || got[0][0] != int64(2) {
		t.Fatalf("rows read by the stored role after a restart: %v", got)
	}
}

// TestServeInitOnce: with --data, --init runs when the database file is
// new and not at a restart, whose file already holds what it made.
func TestServeInitOnce(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(t.TempDir(), "init.sql")
	if err := os.WriteFile(script, []byte("CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1);"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan net.Addr, 1)
		done := make(chan error, 1)
		var log bytes.Buffer
		go func() {
			done <- serve(ctx, serveOptions{listen: "127.0.0.1:0", data: dir, init: script}, &log, ready)
		}()
		select {
		case <-ready:
		case err := <-done:
			t.Fatalf("start %d: %v", i+1, err)
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("start %d: serve: %v", i+1, err)
		}
		if skipped := strings.Contains(log.String(), "not run"); skipped != (i == 1) {
			t.Errorf("start %d: --init skipped %v; log:\n%s", i+1, skipped, log.String())
		}
	}
}
