package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

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
	go func() { done <- serve(ctx, "127.0.0.1:0", &logb, ready) }()
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
	err := serve(context.Background(), "0.0.0.0:0", &bytes.Buffer{}, nil)
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("serve on 0.0.0.0: %v", err)
	}
}
