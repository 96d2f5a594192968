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
	"github.com/deltaview/deltaview/pgwire"
)

func serveCmd() *cobra.Command {
	var listen string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve an in-memory database over PostgreSQL's wire protocol (psql, pgx, …)",
		Long: `Serve listens for PostgreSQL clients: psql and drivers connect to it as to a
PostgreSQL 15 server, each connection a session with its own transaction.
No roles exist yet: the only role is the superuser deltaview (database
deltaview), without a password, and the server listens on loopback
addresses only. SIGINT or SIGTERM stops it: statements running finish,
open transactions roll back, clients get SQLSTATE 57P01.

  deltaview serve --listen 127.0.0.1:5433
  psql -h 127.0.0.1 -p 5433 -U deltaview deltaview`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serve(ctx, listen, cmd.ErrOrStderr(), nil)
		},
	}
	cmd.Flags().StringVar(&listen, "listen", "127.0.0.1:5433", "address of the PostgreSQL wire protocol (a loopback address)")
	return cmd
}

// serve listens on addr and serves a new database until ctx is done;
// ready, when not nil, receives the address listened on.
func serve(ctx context.Context, addr string, logw io.Writer, ready chan<- net.Addr) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen: %v", err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--listen %s: with no roles configured, the server listens on a loopback address only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	lg := log.New(logw, "", log.LstdFlags)
	lg.Printf("deltaview serving PostgreSQL clients on %s", ln.Addr())
	lg.Printf("no roles configured: the superuser %q (database %q) connects without a password, from this machine only", "deltaview", "deltaview")
	if ready != nil {
		ready <- ln.Addr()
	}
	db := deltaview.OpenWith(deltaview.Options{OpenFile: openFile})
	err = pgwire.Serve(ctx, db, ln, pgwire.Options{Logf: lg.Printf})
	lg.Printf("deltaview stopped")
	return err
}
