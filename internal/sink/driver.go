package sink

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	dsql "github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

func init() {
	engine.RegisterForeign(func(e *engine.Engine) engine.Foreign {
		return &driver{e: e, servers: map[string]*server{}, tables: map[string]*follower{}}
	})
}

// driver holds an engine's servers and foreign tables. A durable engine
// records both in its store, which creates them again at open (Resume).
type driver struct {
	e       *engine.Engine
	mu      sync.Mutex // guards the maps and closed
	servers map[string]*server
	tables  map[string]*follower
	closed  bool
}

// server is a target database: a PostgreSQL connection string, or a
// SQLite file.
type server struct {
	name, wrapper string
	conninfo      string
	file          string
	// timeout bounds each call to the target: connecting, and each
	// statement, round trip or commit (OPTIONS (timeout '5s')); 0 for
	// none.
	timeout time.Duration
}

// libpqOptions are the connection parameters a postgres server takes.
var libpqOptions = map[string]bool{
	"host": true, "hostaddr": true, "port": true, "dbname": true, "user": true, "password": true,
	"passfile": true, "connect_timeout": true, "sslmode": true, "sslcert": true, "sslkey": true,
	"sslrootcert": true, "sslpassword": true, "application_name": true, "target_session_attrs": true,
	"options": true, "service": true,
}

// newServer checks a server's options.
func newServer(cs *dsql.CreateServer) (*server, error) {
	s := &server{name: cs.Name, wrapper: cs.Wrapper, timeout: DefaultTimeout}
	var parts []string
	for _, o := range cs.Options {
		switch {
		case o.Name == "timeout":
			d, err := engine.ParseTimeout(o.Value)
			if err != nil {
				return nil, pgerr.New(pgerr.InvalidParameter, "invalid value for option timeout of server %s: %q", cs.Name, o.Value).
					WithHint("a duration such as '5s', '500ms' or 5000 (milliseconds); 0 for no bound")
			}
			s.timeout = d
		case s.wrapper == "postgres" && libpqOptions[o.Name]:
			parts = append(parts, o.Name+"='"+strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(o.Value)+"'")
		case s.wrapper == "sqlite" && (o.Name == "file" || o.Name == "database"):
			s.file = o.Value
		default:
			hint := "a postgres server takes libpq's connection parameters (host, port, dbname, user, password, sslmode, …) and timeout"
			if s.wrapper == "sqlite" {
				hint = "a sqlite server takes OPTIONS (file 'path' [, timeout '…'])"
			}
			return nil, pgerr.New(pgerr.InvalidParameter, "invalid option %q of server %s", o.Name, cs.Name).WithHint("%s", hint)
		}
	}
	switch s.wrapper {
	case "postgres":
		s.conninfo = strings.Join(parts, " ")
		if _, err := pgconn.ParseConfig(s.conninfo); err != nil {
			return nil, pgerr.New(pgerr.InvalidParameter, "server %s: %v", cs.Name, err)
		}
	case "sqlite":
		if s.file == "" {
			return nil, pgerr.New(pgerr.InvalidParameter, "server %s needs OPTIONS (file 'path'): the SQLite database", cs.Name)
		}
	}
	return s, nil
}

// connect returns a connection to table in s's database, whose calls
// end when ctx does.
func (s *server) connect(ctx context.Context, table, epoch string) (conn, error) {
	base := ctx
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	if s.wrapper == "sqlite" {
		// Other writers of the file (and other foreign tables' connections
		// to it) hold its lock for a while: wait for it rather than fail.
		dsn := s.file
		if !strings.Contains(dsn, "?") {
			dsn += "?_pragma=busy_timeout(10000)"
		}
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			return nil, pgerr.New(pgerr.FeatureNotSupported, "server %s: %v", s.name, err).
				WithHint(`import _ "github.com/deltaview/deltaview/sink/sqlite", which links SQLite`)
		}
		db.SetMaxOpenConns(1)
		if err := db.PingContext(ctx); err != nil {
			db.Close()
			return nil, pgerr.New("08001", "server %s: cannot open SQLite database %s: %v", s.name, s.file, err)
		}
		t := NewSQLite(db, table)
		t.epoch = epoch
		t.d.base = base
		return sqliteConn{t}, nil
	}
	c, err := pgx.Connect(ctx, s.conninfo)
	if err != nil {
		if base.Err() == nil && ctx.Err() != nil {
			return nil, pgerr.New("08001", "server %s: no answer within %v", s.name, s.timeout).
				WithHint("the server's timeout option bounds each call to the target")
		}
		return nil, pgerr.New("08001", "server %s: cannot connect: %v", s.name, err)
	}
	t := NewPostgres(c, table)
	t.epoch = epoch
	t.d.timeout, t.d.base = s.timeout, base
	return pgConn{t}, nil
}

type pgConn struct{ *Postgres }

func (c pgConn) lost(err error) bool             { return c.conn.IsClosed() || lostCode(pgerrCode(err)) }
func (c pgConn) bind(ctx context.Context)        { c.d.base = ctx }
func (c pgConn) call() (context.Context, func()) { return c.d.call() }

// close says goodbye to the server, waiting at most the timeout (a
// server that does not read would otherwise hold it), not at all once
// the foreign table stops.
func (c pgConn) close() {
	ctx, cancel := c.d.call()
	defer cancel()
	c.conn.Close(ctx)
}

type sqliteConn struct{ *SQLite }

func (c sqliteConn) lost(error) bool                 { return false }
func (c sqliteConn) bind(ctx context.Context)        { c.d.base = ctx }
func (c sqliteConn) call() (context.Context, func()) { return context.WithCancel(c.d.base) }
func (c sqliteConn) close()                          { c.db.Close() }

// CreateForeignTable implements engine.Foreign: it reaches the target
// once, so that a wrong server is an error of the statement, then
// attaches to the view and starts the foreign table's goroutine, which
// loads the view's rows into the target and follows its commits.
func (d *driver) CreateForeignTable(cf *dsql.CreateForeignTable) error {
	d.mu.Lock()
	s := d.servers[cf.Server]
	_, dup := d.tables[cf.Name]
	closed := d.closed
	for _, o := range d.tables {
		if o.server == cf.Server && o.target == cf.Table {
			d.mu.Unlock()
			return pgerr.New(pgerr.DuplicateObject, "foreign table %s keeps a view in table %s of server %s already", o.name, cf.Table, cf.Server)
		}
	}
	d.mu.Unlock()
	switch {
	case closed:
		return pgerr.New(pgerr.ObjectNotInPrereqState, "the database is closed")
	case s == nil:
		return pgerr.New(pgerr.UndefinedObject, "server %q does not exist", cf.Server)
	case dup && cf.IfNotExists:
		return nil
	case dup:
		return pgerr.New(pgerr.DuplicateTable, "foreign table %q already exists", cf.Name)
	}
	var b [8]byte
	rand.Read(b[:])
	st := engine.StoredForeignTable{Name: cf.Name, Server: cf.Server, View: cf.View, Table: cf.Table, Epoch: hex.EncodeToString(b[:])}
	for _, c := range cf.Cols {
		st.Cols = append(st.Cols, engine.StoredColumn{Name: c.Name, Type: c.Type.String()})
	}
	f := d.newFollower(st, s)
	c, err := f.connect(context.Background())
	if err != nil {
		return err
	}
	d.mu.Lock()
	if d.tables[cf.Name] != nil || d.closed {
		d.mu.Unlock()
		c.close()
		return pgerr.New(pgerr.DuplicateTable, "foreign table %q already exists", cf.Name)
	}
	d.tables[cf.Name] = f
	d.mu.Unlock()
	detach, err := d.e.AttachSink(cf.View, f)
	if err == nil {
		if err = d.e.SaveForeignTable(st); err != nil {
			detach()
		}
	}
	if err != nil {
		d.mu.Lock()
		delete(d.tables, cf.Name)
		d.mu.Unlock()
		c.close()
		return err
	}
	f.start(detach, c)
	return nil
}

// newFollower makes the follower of a foreign table st of server s.
func (d *driver) newFollower(st engine.StoredForeignTable, s *server) *follower {
	f := &follower{name: st.Name, server: st.Server, view: st.View, target: st.Table, declared: st.Cols,
		epoch: st.Epoch, wake: make(chan struct{}, 1), state: "loading", step: d.e.Step}
	f.connect = func(ctx context.Context) (conn, error) { return s.connect(ctx, f.target, f.epoch) }
	return f
}

// start starts f's goroutine, with c its first connection (nil: it
// connects itself).
func (f *follower) start(detach func(), c conn) {
	ctx, cancel := context.WithCancel(context.Background())
	f.detach, f.cancel, f.done = detach, cancel, make(chan struct{})
	if c != nil {
		c.bind(ctx)
	}
	go f.run(ctx, c)
}

// Resume implements engine.Foreign: servers and foreign tables a store
// kept are created again. A foreign table does not reach its target here
// (a target that is down must not keep the database from opening): its
// goroutine connects, and skips the load when the target's progress row
// shows it holds the view as it is now.
func (d *driver) Resume(servers []engine.StoredServer, tables []engine.StoredForeignTable) error {
	for _, ss := range servers {
		s, err := newServer(&dsql.CreateServer{Name: ss.Name, Wrapper: ss.Wrapper, Options: ss.Options})
		if err != nil {
			return err
		}
		d.mu.Lock()
		d.servers[ss.Name] = s
		d.mu.Unlock()
	}
	for _, st := range tables {
		d.mu.Lock()
		s := d.servers[st.Server]
		d.mu.Unlock()
		if s == nil {
			return pgerr.New("XX001", "foreign table %q names server %q, which the database file does not hold", st.Name, st.Server)
		}
		f := d.newFollower(st, s)
		f.resume = true
		d.mu.Lock()
		d.tables[st.Name] = f
		d.mu.Unlock()
		detach, err := d.e.AttachSink(st.View, f)
		if err != nil {
			// The view is gone (or changed): the foreign table stays, failed,
			// until it is dropped.
			f.set("failed", err)
			continue
		}
		f.start(detach, nil)
	}
	return nil
}

// Drop implements engine.Foreign: a foreign table stops and detaches
// from its view, leaving the target table as it is; a server goes with
// its foreign tables under CASCADE only.
func (d *driver) Drop(ds *dsql.DropSink) error {
	d.mu.Lock()
	var gone []*follower
	for _, name := range ds.Names {
		if ds.Server {
			if d.servers[name] == nil {
				if ds.IfExists {
					continue
				}
				d.mu.Unlock()
				return pgerr.New(pgerr.UndefinedObject, "server %q does not exist", name)
			}
			var users []string
			for _, f := range d.tables {
				if f.server == name {
					users = append(users, f.name)
				}
			}
			if len(users) > 0 && !ds.Cascade {
				d.mu.Unlock()
				sort.Strings(users)
				return &pgerr.Error{Code: pgerr.DependentObjects,
					Message: "cannot drop server " + name + " because other objects depend on it",
					Detail:  "foreign table " + strings.Join(users, ", ") + " depends on server " + name,
					Hint:    "Use DROP ... CASCADE to drop the dependent objects too."}
			}
			continue
		}
		if d.tables[name] == nil && !ds.IfExists {
			d.mu.Unlock()
			return pgerr.New(pgerr.UndefinedTable, "foreign table %q does not exist", name)
		}
	}
	var servers, tables []string
	for _, name := range ds.Names {
		if ds.Server {
			if d.servers[name] != nil {
				servers = append(servers, name)
			}
		} else if d.tables[name] != nil {
			tables = append(tables, name)
		}
	}
	d.mu.Unlock()
	// The store first, outside d.mu: a drop it refuses changes nothing.
	if err := d.e.DropStoredForeign(servers, tables); err != nil {
		return err
	}
	d.mu.Lock()
	for _, name := range servers {
		for n, f := range d.tables {
			if f.server == name {
				gone = append(gone, f)
				delete(d.tables, n)
			}
		}
		delete(d.servers, name)
	}
	for _, name := range tables {
		if f := d.tables[name]; f != nil {
			gone = append(gone, f)
			delete(d.tables, name)
		}
	}
	d.mu.Unlock()
	for _, f := range gone {
		if f.detach != nil {
			f.detach()
		}
		f.stop()
	}
	return nil
}

// Status implements engine.Foreign.
func (d *driver) Status() []value.Row {
	d.mu.Lock()
	fs := make([]*follower, 0, len(d.tables))
	for _, f := range d.tables {
		fs = append(fs, f)
	}
	d.mu.Unlock()
	sort.Slice(fs, func(i, j int) bool { return fs[i].name < fs[j].name })
	out := make([]value.Row, len(fs))
	for i, f := range fs {
		out[i] = f.status()
	}
	return out
}

// closeWait bounds how long Close waits for the foreign tables to apply
// the steps queued.
const closeWait = 5 * time.Second

// Close implements engine.Foreign: each foreign table applies the steps
// queued (for at most closeWait in all) and records in the target's
// progress row that it holds the view as at the engine's last commit, so
// that the database opened again skips the load; then the goroutines
// stop. A target not caught up by then is loaded anew at the next open.
func (d *driver) Close() {
	d.mu.Lock()
	d.closed = true
	fs := make([]*follower, 0, len(d.tables))
	for _, f := range d.tables {
		fs = append(fs, f)
	}
	d.mu.Unlock()
	deadline := time.After(closeWait)
	for _, f := range fs {
		f.finish(deadline)
	}
}
