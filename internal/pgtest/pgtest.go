// Package pgtest runs a throwaway PostgreSQL server for tests.
//
// One server (cluster) is started lazily per test binary, on the first call
// to Start, and shared by every test of the package. Each call to Conn
// creates a fresh database, so tests stay isolated; the database is dropped
// when the test ends. The server listens only on a unix socket in a private
// temporary directory and runs with durability switched off.
//
// A package that uses the server stops it when its tests end from TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
//	func TestSomething(t *testing.T) {
//		conn := pgtest.Start(t).Conn(t)
//		rows, err := pgtest.Query(t, conn, "SELECT 1.50::numeric")
//		...
//	}
//
// Without Main the server still dies with the test binary (on Linux the
// postmaster is the binary's direct child and is signalled when its parent
// exits), and the next Start removes temporary directories left behind by
// binaries that are gone.
//
// When no PostgreSQL installation is found, Start skips the test, unless the
// environment has CI=true, where it fails it instead.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// PreferredVersion is the PostgreSQL major version used when several are
// installed.
const PreferredVersion = "15"

// dirPrefix names the temporary directories this package creates; the pid
// of the owning test binary follows it.
const dirPrefix = "deltaview-pgtest-"

// Server is a running PostgreSQL cluster owned by the test binary.
type Server struct {
	binDir    string
	args      []string            // the postmaster's arguments
	cred      *syscall.Credential // whom it runs as; nil for the binary's user
	dir       string              // temporary directory holding data and socket
	dataDir   string
	socketDir string
	port      int
	cmd       *exec.Cmd
	exited    chan struct{} // closed when the postmaster exits

	mu    sync.Mutex // guards admin and stopped
	admin *pgx.Conn  // connection to the postgres database, for CREATE/DROP DATABASE

	stopped bool
	dbSeq   atomic.Int64
}

var (
	startOnce sync.Once
	server    *Server
	startErr  error
	skipMsg   string // non-empty when no installation was found
)

// Start returns the package's shared server, starting it on first use.
// It skips tb when PostgreSQL is not installed (fails it when CI=true) and
// fails tb when the server cannot be started.
func Start(tb testing.TB) *Server {
	tb.Helper()
	startOnce.Do(func() {
		binDir, err := FindBinDir()
		if err != nil {
			skipMsg = err.Error()
			return
		}
		server, startErr = start(binDir)
	})
	if skipMsg != "" {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("pgtest: %s (CI=true: PostgreSQL is required)", skipMsg)
		}
		tb.Skipf("pgtest: %s; install PostgreSQL %s to run this test", skipMsg, PreferredVersion)
	}
	if startErr != nil {
		tb.Fatalf("pgtest: %v", startErr)
	}
	return server
}

// Main runs the tests and then stops the shared server, if one was
// started, and exits with the tests' status. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the shared server, if one was started, and removes its
// files. Start must not be called afterwards.
func Stop() {
	if server != nil {
		server.stop()
	}
}

// FindBinDir returns the bin directory of an installed PostgreSQL,
// preferring PreferredVersion, else the newest; PGTEST_BINDIR overrides.
func FindBinDir() (string, error) {
	if d := os.Getenv("PGTEST_BINDIR"); d != "" {
		if !isFile(filepath.Join(d, "initdb")) {
			return "", fmt.Errorf("PGTEST_BINDIR=%s has no initdb", d)
		}
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	var found []string
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "postgres")) {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		return "", errors.New("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
	}
	version := func(d string) int {
		n, _ := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		return n
	}
	sort.Slice(found, func(i, j int) bool { return version(found[i]) > version(found[j]) })
	for _, d := range found {
		if filepath.Base(filepath.Dir(d)) == PreferredVersion {
			return d, nil
		}
	}
	return found[0], nil
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// serverSettings are passed to the postmaster with -c.
var serverSettings = []string{
	"listen_addresses=",
	"fsync=off",
	"full_page_writes=off",
	"synchronous_commit=off",
	"TimeZone=UTC",
	"DateStyle=ISO, MDY",
	"extra_float_digits=1",
	"lc_messages=C",
	"max_connections=200",
	"shared_buffers=16MB",
	"logging_collector=off",
}

// logical is set by UseLogicalReplication.
var logical bool

// logicalSettings let the server be a logical replication publisher.
var logicalSettings = []string{
	"wal_level=logical",
	"max_wal_senders=32",
	"max_replication_slots=32",
	"wal_sender_timeout=10s",
	"synchronous_commit=on", // a walsender reads only flushed WAL: no wait for the WAL writer
}

// UseLogicalReplication makes the server start with wal_level = logical
// and room for replication connections and slots, for tests of logical
// replication. Call it before the first Start (from TestMain).
func UseLogicalReplication() { logical = true }

func start(binDir string) (_ *Server, err error) {
	removeStaleDirs()
	var cred *syscall.Credential
	var uid, gid int = -1, -1
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs a postgres user: %w", err)
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}

	dir, err := os.MkdirTemp("", dirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	s := &Server{
		binDir:    binDir,
		dir:       dir,
		dataDir:   filepath.Join(dir, "data"),
		socketDir: filepath.Join(dir, "sock"),
		exited:    make(chan struct{}),
	}
	if err := os.Mkdir(s.socketDir, 0o700); err != nil {
		return nil, err
	}
	if cred != nil {
		for _, p := range []string{dir, s.socketDir} {
			if err := os.Chown(p, uid, gid); err != nil {
				return nil, err
			}
		}
	}

	initdb := []string{filepath.Join(binDir, "initdb"), "-D", s.dataDir,
		"--locale=C", "-E", "UTF8", "-A", "trust", "-U", "postgres", "--no-sync", "--no-instructions"}
	if cred != nil {
		initdb = append([]string{"runuser", "-u", "postgres", "--"}, initdb...)
	}
	initCmd := exec.Command(initdb[0], initdb[1:]...)
	if _, lerr := exec.LookPath("runuser"); cred != nil && lerr != nil {
		initCmd = exec.Command(initdb[4], initdb[5:]...)
		initCmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	if initCmd.SysProcAttr == nil {
		initCmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	initCmd.SysProcAttr.Pdeathsig = syscall.SIGTERM // runuser passes it on
	initCmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := initCmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}

	s.port, err = freePort()
	if err != nil {
		return nil, err
	}
	s.args = []string{"-D", s.dataDir, "-k", s.socketDir, "-p", strconv.Itoa(s.port)}
	settings := serverSettings
	if logical {
		settings = append(slices.Clone(settings), logicalSettings...)
	}
	for _, c := range settings {
		s.args = append(s.args, "-c", c)
	}
	s.cred = cred
	if err := s.launch(); err != nil {
		return nil, err
	}
	return s, nil
}

// launch starts the postmaster and waits until it accepts connections.
func (s *Server) launch() (err error) {
	s.exited = make(chan struct{})
	logFile, err := os.OpenFile(filepath.Join(s.dir, "server.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logFile.Close()
	// The postmaster runs as a direct child (not through runuser or pg_ctl)
	// so that the kernel signals it if the test binary dies: SIGQUIT is
	// PostgreSQL's immediate shutdown.
	s.cmd = exec.Command(filepath.Join(s.binDir, "postgres"), s.args...)
	s.cmd.Stdout = logFile
	s.cmd.Stderr = logFile
	s.cmd.Env = append(os.Environ(), "LC_ALL=C")
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("starting postgres: %w", err)
	}
	exited := s.exited
	cmd := s.cmd
	go func() {
		cmd.Wait()
		close(exited)
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		s.admin, err = pgx.Connect(ctx, s.ConnString("postgres"))
		if err == nil {
			return nil
		}
		select {
		case <-s.exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
			return fmt.Errorf("postgres exited during startup: %v\n%s", s.cmd.ProcessState, log)
		case <-ctx.Done():
			s.kill()
			log, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
			return fmt.Errorf("postgres did not accept connections: %v\n%s", err, log)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// Restart stops the server (a fast shutdown: clients are disconnected)
// and starts it again on the same data and socket, as an upstream
// restart does. Every connection is lost; the databases stay.
func (s *Server) Restart(tb testing.TB) {
	tb.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		tb.Fatal("pgtest: Restart of a stopped server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	s.admin.Close(ctx)
	cancel()
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		s.kill()
	}
	if err := s.launch(); err != nil {
		tb.Fatalf("pgtest: restarting: %v", err)
	}
}

// freePort returns a TCP port number that is free now. The server listens
// only on its unix socket, whose name includes the port, so a clash would
// be harmless; a free number just keeps the socket name unsurprising.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 54329, nil // no TCP available: any number will do
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// removeStaleDirs removes the temporary directories of test binaries that
// no longer run.
func removeStaleDirs() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), dirPrefix+"*"))
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), dirPrefix)
		pid, err := strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
		if err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(m)
		}
	}
}

func (s *Server) kill() {
	s.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
}

func (s *Server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.stopped = true
	if s.admin != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		s.admin.Close(ctx)
		cancel()
	}
	// Fast shutdown: disconnect clients, then a (cheap, fsync=off) checkpoint.
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.kill()
	}
	os.RemoveAll(s.dir)
}

// SocketDir returns the directory holding the server's unix socket.
func (s *Server) SocketDir() string { return s.socketDir }

// Port returns the port number that names the server's unix socket.
func (s *Server) Port() int { return s.port }

// ConnString returns a connection string for database db as user postgres.
func (s *Server) ConnString(db string) string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", s.socketDir, s.port, db)
}

var nonIdent = regexp.MustCompile(`[^a-z0-9_]+`)

// Conn creates a fresh, empty database and returns a connection to it.
// The connection is closed and the database dropped when tb ends.
func (s *Server) Conn(tb testing.TB) *pgx.Conn {
	tb.Helper()
	name := fmt.Sprintf("t%d_%s", s.dbSeq.Add(1), nonIdent.ReplaceAllString(strings.ToLower(tb.Name()), "_"))
	if len(name) > 63 {
		name = name[:63]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.adminExec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE template0"); err != nil {
		tb.Fatalf("pgtest: creating database %s: %v", name, err)
	}
	conn, err := pgx.Connect(ctx, s.ConnString(name))
	if err != nil {
		tb.Fatalf("pgtest: connecting to %s: %v", name, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn.Close(ctx)
		if err := s.adminExec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: dropping database %s: %v", name, err)
		}
	})
	return conn
}

func (s *Server) adminExec(ctx context.Context, sql string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return errors.New("server stopped")
	}
	_, err := s.admin.Exec(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	return err
}

// Query runs sql, which may hold several statements, with the simple query
// protocol and returns the rows of the last statement in PostgreSQL's text
// output format, one *string per column, nil for NULL. A statement that
// returns no rows yields no rows. Server errors are returned (as
// *pgconn.PgError); tb is used only to mark the caller as a helper.
func (s *Server) Query(tb testing.TB, conn *pgx.Conn, sql string) ([][]*string, error) {
	tb.Helper()
	return Query(tb, conn, sql)
}

// Query is Server.Query for a connection obtained elsewhere.
func Query(tb testing.TB, conn *pgx.Conn, sql string) ([][]*string, error) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	results, err := conn.PgConn().Exec(ctx, sql).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(results) == 0 {
		return nil, nil
	}
	last := results[len(results)-1]
	rows := make([][]*string, len(last.Rows))
	for i, r := range last.Rows {
		row := make([]*string, len(r))
		for j, v := range r {
			if v != nil {
				s := string(v)
				row[j] = &s
			}
		}
		rows[i] = row
	}
	return rows, nil
}

// MustQuery is Query that fails tb on error.
func MustQuery(tb testing.TB, conn *pgx.Conn, sql string) [][]*string {
	tb.Helper()
	rows, err := Query(tb, conn, sql)
	if err != nil {
		tb.Fatalf("pgtest: %s: %v", sql, err)
	}
	return rows
}

// SortedLines runs a query and returns its rows as sorted text lines,
// the columns joined by "|", NULL as "NULL"; an error fails tb.
func SortedLines(tb testing.TB, conn *pgx.Conn, sql string) []string {
	tb.Helper()
	var out []string
	for _, r := range MustQuery(tb, conn, sql) {
		f := make([]string, len(r))
		for i, v := range r {
			if v == nil {
				f[i] = "NULL"
			} else {
				f[i] = *v
			}
		}
		out = append(out, strings.Join(f, "|"))
	}
	slices.Sort(out)
	return out
}

// Psql returns the path of the psql of the installed PostgreSQL (see
// FindBinDir). It skips tb when there is none, or fails it when CI=true.
func Psql(tb testing.TB) string {
	tb.Helper()
	dir, err := FindBinDir()
	if err == nil && !isFile(filepath.Join(dir, "psql")) {
		err = fmt.Errorf("no psql in %s", dir)
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("pgtest: %v (CI=true: psql is required)", err)
		}
		tb.Skipf("pgtest: %v", err)
	}
	return filepath.Join(dir, "psql")
}
