package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/deltaview/deltaview"
	"github.com/deltaview/deltaview/httpapi"
	"github.com/deltaview/deltaview/pgwire"
	_ "github.com/deltaview/deltaview/sink/postgres"   // CREATE SERVER … FOREIGN DATA WRAPPER postgres
	_ "github.com/deltaview/deltaview/sink/sqlite"     // … FOREIGN DATA WRAPPER sqlite
	_ "github.com/deltaview/deltaview/source/postgres" // CREATE SUBSCRIPTION
	_ "github.com/deltaview/deltaview/store"           // deltaview.OpenFile keeps data in SQLite files
)

func serveCmd() *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve a database over PostgreSQL's wire protocol (psql, pgx, …) and HTTP",
		Long: `Serve listens for PostgreSQL clients: psql and drivers connect to it as to a
PostgreSQL 15 server, each connection a session with its own transaction.
With --http it also serves the same database over HTTP: SQL statements in
and JSON out (POST /v1/sql), a view's rows (GET /v1/views/NAME), its changes
as server-sent events (GET /v1/views/NAME/changes), /metrics and /healthz,
and a web console at / (the views and tables, a view's rows live, its
plan, a SQL box). With --data DIR the database is kept in DIR/deltaview.db
(a SQLite file), loaded before the server listens; without it, in memory.

Until a role exists, the only role is the superuser deltaview (database
deltaview), without a password, and the server listens on loopback
addresses only. --init runs a SQL script before the server listens (with
--data, only when the database file is new): one
that creates roles (CREATE ROLE admin LOGIN SUPERUSER PASSWORD '…') lets
the server listen on any address, and clients then log in as those roles
with SCRAM-SHA-256 (HTTP clients with basic auth or a bearer token).
--tls-cert and --tls-key let clients encrypt their connections
(sslmode=require). SIGINT or SIGTERM stops the server: statements running
finish, open transactions roll back, clients get SQLSTATE 57P01.

  deltaview serve --data ./data --listen 127.0.0.1:5433 --http 127.0.0.1:8080
  psql -h 127.0.0.1 -p 5433 -U deltaview deltaview
  curl -N http://127.0.0.1:8080/v1/views/NAME/changes`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return serve(ctx, o, cmd.ErrOrStderr(), nil)
		},
	}
	cmd.Flags().StringVar(&o.listen, "listen", "127.0.0.1:5433", "address of the PostgreSQL wire protocol (a loopback address unless roles exist)")
	cmd.Flags().StringVar(&o.http, "http", "", "address of the HTTP API (a loopback address unless roles exist); none when empty")
	cmd.Flags().StringVar(&o.data, "data", "", "directory of the database file deltaview.db (in memory when empty)")
	cmd.Flags().StringVar(&o.init, "init", "", "SQL script run before serving (CREATE ROLE, CREATE TABLE, …); with --data only when the database file is new")
	cmd.Flags().StringVar(&o.tlsCert, "tls-cert", "", "PEM certificate file: clients may use TLS (with --tls-key)")
	cmd.Flags().StringVar(&o.tlsKey, "tls-key", "", "PEM private key file of --tls-cert")
	cmd.Flags().IntVar(&o.maxConns, "max-connections", pgwire.DefaultMaxConnections, "PostgreSQL connections served at once; more get SQLSTATE 53300")
	cmd.Flags().DurationVar(&o.stmtTimeout, "statement-timeout", 0, "initial statement_timeout of each session (0 for none)")
	cmd.Flags().DurationVar(&o.idleTimeout, "idle-session-timeout", 0, "initial idle_session_timeout of each session (0 for none)")
	cmd.Flags().Int64Var(&o.maxBody, "max-body", 1<<20, "largest HTTP request body in bytes; a larger one gets 413")
	return cmd
}

// serveOptions are the addresses serve listens on (http is empty for no
// HTTP listener), the directory of the database file (empty for a
// database in memory), the script run first, the TLS files, and the
// limits.
type serveOptions struct {
	listen, http    string
	data            string
	init            string
	tlsCert, tlsKey string
	maxConns        int
	stmtTimeout     time.Duration
	idleTimeout     time.Duration
	maxBody         int64
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
	db := deltaview.OpenWith(deltaview.Options{OpenFile: openFile, CreateFile: createFile})
	initScript := o.init
	if o.data != "" {
		if err := os.MkdirAll(o.data, 0o755); err != nil {
			return err
		}
		var err error
		path := filepath.Join(o.data, "deltaview.db")
		if _, err := os.Stat(path); err == nil && initScript != "" {
			// As initdb: the script made the database once; running it
			// again would create its roles and tables a second time.
			fmt.Fprintf(logw, "deltaview: --init %s not run: %s exists\n", initScript, path)
			initScript = ""
		}
		// The views' rebuild is logged as it goes: the server listens
		// once the database is open.
		fmt.Fprintf(logw, "deltaview: opening %s\n", path)
		if db, err = deltaview.OpenFileWith(path, deltaview.Options{OpenFile: openFile, CreateFile: createFile, Progress: (&progressLog{w: logw}).report}); err != nil {
			return fmt.Errorf("%s", strings.TrimSpace(deltaview.FormatError(err)))
		}
		fmt.Fprintf(logw, "deltaview keeps its data in %s\n", path)
	}
	defer db.Close()
	if initScript != "" {
		script, err := os.ReadFile(initScript)
		if err != nil {
			return fmt.Errorf("--init: %v", err)
		}
		if err := db.Exec(string(script)); err != nil {
			return fmt.Errorf("--init %s: %s", initScript, strings.TrimSpace(deltaview.FormatError(err)))
		}
	}
	var tlsConfig *tls.Config
	if o.tlsCert != "" || o.tlsKey != "" {
		cert, err := tls.LoadX509KeyPair(o.tlsCert, o.tlsKey)
		if err != nil {
			return fmt.Errorf("--tls-cert/--tls-key: %v", err)
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	roles := db.HasRoles()
	if !roles {
		if err := loopback("--listen", o.listen); err != nil {
			return err
		}
		if o.http != "" {
			if err := loopback("--http", o.http); err != nil {
				return err
			}
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
	if roles {
		lg.Printf("roles configured: clients log in as a role with its password (SCRAM-SHA-256 on the wire, basic auth or a bearer token over HTTP)")
	} else {
		lg.Printf("no roles configured: the superuser %q (database %q) connects without a password, from this machine only", "deltaview", "deltaview")
	}
	if tlsConfig != nil {
		lg.Printf("TLS offered to PostgreSQL clients (sslmode=require)")
	}
	if ready != nil {
		ready <- ln.Addr()
		if hln != nil {
			ready <- hln.Addr()
		}
	}
	// Either server failing stops the other.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	httpDone := make(chan error, 1)
	if hln != nil {
		go func() {
			err := httpapi.Serve(ctx, db, hln, httpapi.Options{Logf: lg.Printf, MaxBody: o.maxBody, TLS: tlsConfig})
			cancel()
			httpDone <- err
		}()
	} else {
		httpDone <- nil
	}
	err = pgwire.Serve(ctx, db, ln, pgwire.Options{Logf: lg.Printf, TLS: tlsConfig, MaxConnections: o.maxConns,
		StatementTimeout: o.stmtTimeout, IdleSessionTimeout: o.idleTimeout})
	cancel()
	if herr := <-httpDone; err == nil {
		err = herr
	}
	lg.Printf("deltaview stopped")
	return err
}
