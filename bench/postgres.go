package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// PGServer is a throwaway PostgreSQL cluster started by the harness: a
// temporary data directory, durability off, listening only on a unix
// socket in a private directory. Running as root, the cluster runs as the
// postgres user (initdb through runuser; the postmaster as a direct child
// with that user's credentials, so that the kernel signals it if the
// harness dies). Stop ends it and removes its files.
type PGServer struct {
	dir, socketDir string
	port           int
	cmd            *exec.Cmd
	exited         chan struct{}
}

// FindPGBinDir returns the bin directory of PostgreSQL 15, else the newest
// installed under /usr/lib/postgresql.
func FindPGBinDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	var found []string
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		return "", errors.New("no PostgreSQL under /usr/lib/postgresql/*/bin")
	}
	ver := func(d string) int { n, _ := strconv.Atoi(filepath.Base(filepath.Dir(d))); return n }
	sort.Slice(found, func(i, j int) bool { return ver(found[i]) > ver(found[j]) })
	for _, d := range found {
		if ver(d) == 15 {
			return d, nil
		}
	}
	return found[0], nil
}

// StartPG starts a cluster with the binaries in binDir.
func StartPG(binDir string) (_ *PGServer, err error) {
	var cred *syscall.Credential
	uid, gid := -1, -1
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs a postgres user: %w", err)
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "deltaview-bench-pg-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	s := &PGServer{dir: dir, socketDir: filepath.Join(dir, "sock"), port: 54329, exited: make(chan struct{})}
	dataDir := filepath.Join(dir, "data")
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
	initdb := []string{filepath.Join(binDir, "initdb"), "-D", dataDir, "--locale=C", "-E", "UTF8",
		"-A", "trust", "-U", "postgres", "--no-sync", "--no-instructions"}
	if cred != nil {
		initdb = append([]string{"runuser", "-u", "postgres", "--"}, initdb...)
	}
	initCmd := exec.Command(initdb[0], initdb[1:]...)
	initCmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	initCmd.Env = append(os.Environ(), "LC_ALL=C")
	if out, err := initCmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	args := []string{"-D", dataDir, "-k", s.socketDir, "-p", strconv.Itoa(s.port)}
	for _, c := range []string{"listen_addresses=", "fsync=off", "full_page_writes=off", "synchronous_commit=off",
		"lc_messages=C", "shared_buffers=256MB", "work_mem=64MB", "maintenance_work_mem=256MB", "logging_collector=off"} {
		args = append(args, "-c", c)
	}
	logFile, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	s.cmd = exec.Command(filepath.Join(binDir, "postgres"), args...)
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	s.cmd.Env = append(os.Environ(), "LC_ALL=C")
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT, Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting postgres: %w", err)
	}
	go func() { s.cmd.Wait(); close(s.exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := s.Connect("postgres")
		if err == nil {
			c.Close(context.Background())
			return s, nil
		}
		select {
		case <-s.exited:
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			return nil, fmt.Errorf("postgres exited during startup\n%s", log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Stop()
			return nil, fmt.Errorf("postgres did not accept connections: %v", err)
		}
	}
}

// Connect opens a connection to database db.
func (s *PGServer) Connect(db string) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return pgx.Connect(ctx, fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", s.socketDir, s.port, db))
}

// Stop shuts the server down (fast shutdown, then immediate after 10 s)
// and removes its files.
func (s *PGServer) Stop() {
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
			<-s.exited
		}
	}
	os.RemoveAll(s.dir)
}

// Postgres runs the workload on the harness's PostgreSQL server, in a
// database of its own: re-running each view's query after every
// transaction (Refresh false), or keeping it as a materialized view and
// running REFRESH MATERIALIZED VIEW after every transaction (Refresh
// true). Both use the same indexes as the SQLite system.
type Postgres struct {
	Server  *PGServer
	Refresh bool
	conn    *pgx.Conn
	dbName  string
}

var (
	_ System         = (*Postgres)(nil)
	_ MemoryReporter = (*Postgres)(nil)
)

// Name implements System.
func (s *Postgres) Name() string {
	if s.Refresh {
		return "PostgreSQL REFRESH"
	}
	return "PostgreSQL re-query"
}

var pgSeq int

// Load implements System: COPY into t and u, then ANALYZE.
func (s *Postgres) Load(d *Data) error {
	ctx := context.Background()
	admin, err := s.Server.Connect("postgres")
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	pgSeq++
	s.dbName = fmt.Sprintf("bench_%d", pgSeq)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+s.dbName); err != nil {
		return err
	}
	if s.conn, err = s.Server.Connect(s.dbName); err != nil {
		return err
	}
	_, err = s.conn.Exec(ctx, `
		CREATE TABLE t (id int PRIMARY KEY, grp int NOT NULL, k int NOT NULL, val int NOT NULL, pad text NOT NULL);
		CREATE TABLE u (id int PRIMARY KEY, name text NOT NULL, region text NOT NULL);`)
	if err != nil {
		return err
	}
	rows := make([][]any, 0, d.N)
	for id := 1; id <= d.N; id++ {
		rows = append(rows, []any{int32(id), int32(d.T[id].Grp), int32(d.K(id)), int32(d.T[id].Val), Pad(id)})
	}
	if _, err := s.conn.CopyFrom(ctx, pgx.Identifier{"t"}, []string{"id", "grp", "k", "val", "pad"}, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	rows = rows[:0]
	for id := 1; id <= d.U(); id++ {
		rows = append(rows, []any{int32(id), Name(id), Region(id)})
	}
	if _, err := s.conn.CopyFrom(ctx, pgx.Identifier{"u"}, []string{"id", "name", "region"}, pgx.CopyFromRows(rows)); err != nil {
		return err
	}
	_, err = s.conn.Exec(ctx, "VACUUM ANALYZE")
	return err
}

func (s *Postgres) exec(q string) error {
	_, err := s.conn.Exec(context.Background(), q)
	return err
}

// CreateView implements System: the indexes, ANALYZE, then a first run of
// the query (or CREATE MATERIALIZED VIEW).
func (s *Postgres) CreateView(v View) error {
	for _, ddl := range sqliteIndexes[v.Name] {
		if err := s.exec(ddl); err != nil {
			return err
		}
	}
	if err := s.exec("ANALYZE t"); err != nil {
		return err
	}
	if s.Refresh {
		return s.exec("CREATE MATERIALIZED VIEW " + v.Rel() + " AS " + v.SQL)
	}
	_, err := s.query(v.SQL)
	return err
}

// Apply implements System: the updates in one transaction (pipelined),
// then the query again reading every row, or REFRESH MATERIALIZED VIEW.
func (s *Postgres) Apply(v View, batch []Change) error {
	ctx := context.Background()
	b := &pgx.Batch{}
	if len(batch) > 1 {
		b.Queue("BEGIN")
	}
	for _, c := range batch {
		b.Queue("UPDATE t SET grp = $1, val = $2 WHERE id = $3", int32(c.New.Grp), int32(c.New.Val), int32(c.ID))
	}
	if len(batch) > 1 {
		b.Queue("COMMIT")
	}
	if err := s.conn.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	if s.Refresh {
		return s.exec("REFRESH MATERIALIZED VIEW " + v.Rel())
	}
	_, err := s.query(v.SQL)
	return err
}

func (s *Postgres) query(q string) (Answer, error) {
	rows, err := s.conn.Query(context.Background(), q, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out Answer
	for rows.Next() {
		raw := rows.RawValues()
		r := make([]string, len(raw))
		for i, b := range raw {
			r[i] = string(b)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Answer implements System.
func (s *Postgres) Answer(v View) (Answer, error) {
	if s.Refresh {
		return s.query("SELECT * FROM " + v.Rel() + v.ReadOrder)
	}
	return s.query(v.SQL)
}

// Memory implements MemoryReporter: the size of the view's indexes and,
// for REFRESH, of the materialized view (pg_total_relation_size).
func (s *Postgres) Memory(v View) (int64, string, error) {
	q := `SELECT coalesce(sum(pg_relation_size(indexrelid)), 0)::bigint FROM pg_index
	      WHERE indrelid = 't'::regclass AND NOT indisprimary`
	method := "size of the view's indexes"
	if s.Refresh {
		q = "SELECT (" + q + ") + pg_total_relation_size('" + v.Rel() + "')"
		method = "size of the view's indexes and materialized view"
	}
	var n int64
	err := s.conn.QueryRow(context.Background(), q).Scan(&n)
	return n, method, err
}

// DropView implements System.
func (s *Postgres) DropView(v View) error {
	if s.Refresh {
		if err := s.exec("DROP MATERIALIZED VIEW " + v.Rel()); err != nil {
			return err
		}
	}
	for _, ddl := range sqliteIndexes[v.Name] {
		var name string
		fmt.Sscanf(ddl, "CREATE INDEX %s", &name)
		if err := s.exec("DROP INDEX " + name); err != nil {
			return err
		}
	}
	return nil
}

// Close implements System: the system's database is dropped.
func (s *Postgres) Close() error {
	ctx := context.Background()
	s.conn.Close(ctx)
	admin, err := s.Server.Connect("postgres")
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	_, err = admin.Exec(ctx, "DROP DATABASE "+s.dbName+" WITH (FORCE)")
	return err
}
