package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
	"github.com/deltaview/deltaview/pgwire"
	_ "github.com/deltaview/deltaview/source/postgres" // CREATE SUBSCRIPTION
)

func serveCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve an in-memory database over PostgreSQL's wire protocol (psql, pgx, …) and HTTP",
		Long: `Serve listens for PostgreSQL clients: psql and drivers connect to it as to a
PostgreSQL 15 server, each connection a session with its own transaction.
With --http it also serves the same database over HTTP: SQL statements in
and JSON out (POST /v1/sql), a view's rows (GET /v1/views/NAME), its changes
as server-sent events (GET /v1/views/NAME/changes), /metrics and /healthz.
No roles exist yet: the only role is the superuser deltaview (database
deltaview), without a password, and the server listens on loopback
addresses only. SIGINT or SIGTERM stops it: statements running finish,
open transactions roll back, clients get SQLSTATE 57P01.

  deltaview serve --listen 127.0.0.1:5433 --http 127.0.0.1:8080
  psql -h 127.0.0.1 -p 5433 -U deltaview deltaview
  curl -N http://127.0.0.1:8080/v1/views/NAME/changes`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serve(ctx, o, cmd.ErrOrStderr(), nil)
		},
	}
	cmd.Flags().StringVar(&o.listen, "listen", "127.0.0.1:5433", "address of the PostgreSQL wire protocol (a loopback address)")
	cmd.Flags().StringVar(&o.http, "http", "", "address of the HTTP API (a loopback address); none when empty")
	return cmd
}

// serveOptions are the addresses serve listens on; http is empty for no
// HTTP listener.
type serveOptions struct {
	listen, http string
}

// loopback refuses an address that is not a loopback one.
func loopback(flag, addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s: %v", flag, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("%s %s: with no roles configured, the server listens on a loopback address only", flag, addr)
	}
	return nil
}

// serve listens on the addresses of o and serves a new database on both
// until ctx is done; ready, when not nil, receives the addresses listened
// on: the wire protocol's, then the HTTP API's when there is one.
func serve(ctx context.Context, o serveOptions, logw io.Writer, ready chan<- net.Addr) error {
	if err := loopback("--listen", o.listen); err != nil {
		return err
	}
	if o.http != "" {
		if err := loopback("--http", o.http); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return err
	}
	var hln net.Listener
	if o.http != "" {
		if hln, err = net.Listen("tcp", o.http); err != nil {
			ln.Close()
			return err
		}
	}
	lg := log.New(logw, "", log.LstdFlags)
	lg.Printf("deltaview serving PostgreSQL clients on %s", ln.Addr())
	if hln != nil {
		lg.Printf("deltaview serving HTTP on http://%s", hln.Addr())
	}
	lg.Printf("no roles configured: the superuser %q (database %q) connects without a password, from this machine only", "deltaview", "deltaview")
	if ready != nil {
		ready <- ln.Addr()
		if hln != nil {
			ready <- hln.Addr()
		}
	}
	db := deltaview.OpenWith(deltaview.Options{OpenFile: openFile})
	defer db.Close()
	// Either server failing stops the other.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	httpDone := make(chan error, 1)
	if hln != nil {
		go func() {
			err := httpapi.Serve(ctx, db, hln, httpapi.Options{Logf: lg.Printf})
			cancel()
			httpDone <- err
		}()
	} else {
		httpDone <- nil
	}
	err = pgwire.Serve(ctx, db, ln, pgwire.Options{Logf: lg.Printf})
	cancel()
	if herr := <-httpDone; err == nil {
		err = herr
	}
	lg.Printf("deltaview stopped")
	return err
}
