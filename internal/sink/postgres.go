package sink

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/deltaview/deltaview/internal/delta"
	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

var _ engine.Sink = (*Postgres)(nil)

// Postgres keeps a view in a PostgreSQL table. A step's statements go to
// the server in one batch (one round trip) inside one transaction, left
// open until Commit. Values travel in PostgreSQL's text form and are cast
// to the column's type, so the table holds exactly the view's values.
// It keeps nothing but the open transaction and its statements' text.
type Postgres struct {
	d      *PostgresDB
	conn   *pgx.Conn
	table  string
	g      *gen
	schema *delta.Schema
	// epoch, when set, makes every transaction record (epoch, step) in
	// the target's progress table (progress.go).
	epoch string
	defs  []string // column definitions
	keys  []string // quoted key columns
}

// DefaultTimeout bounds each call to a target PostgreSQL (connecting, a
// step's statements, a commit, the statements that create and load its
// table) unless a server's timeout option or SetTimeout says otherwise.
const DefaultTimeout = 30 * time.Second

// PostgresDB is a PostgreSQL connection whose tables hold views. Its sinks
// share one transaction per step, as SQLiteDB's do.
//
// Each call to the server waits at most its timeout for the answer; then
// the connection is closed (the server rolls the open transaction back)
// and the call fails with 08006. A cancelled base context (a foreign
// table dropped or closing) ends a call at once, the same way.
type PostgresDB struct {
	conn    *pgx.Conn
	tx      pgx.Tx
	timeout time.Duration   // 0: none
	base    context.Context // the calls' parent
}

// NewPostgresDB returns the database reached through conn.
func NewPostgresDB(conn *pgx.Conn) *PostgresDB {
	return &PostgresDB{conn: conn, timeout: DefaultTimeout, base: context.Background()}
}

// SetTimeout bounds each call to the server by d (0: no bound).
func (d *PostgresDB) SetTimeout(t time.Duration) { d.timeout = t }

// call returns the context of one call to the server.
func (d *PostgresDB) call() (context.Context, context.CancelFunc) {
	if d.timeout <= 0 {
		return context.WithCancel(d.base)
	}
	return context.WithTimeout(d.base, d.timeout)
}

// loadChunk is how many rows of a load go to the server in one round
// trip, each under its own timeout: the timeout bounds a wait for the
// server, not the size of the view.
const loadChunk = 10000

// Table returns a sink into table; Open creates the table if it does not
// exist.
func (d *PostgresDB) Table(table string) *Postgres {
	return &Postgres{d: d, conn: d.conn, table: table}
}

// NewPostgres returns a sink into table over conn, with a connection of
// its own.
func NewPostgres(conn *pgx.Conn, table string) *Postgres { return NewPostgresDB(conn).Table(table) }

// setup makes p's statements for v, without I/O.
func (p *Postgres) setup(v engine.SinkView) error {
	types := make([]string, len(v.Columns))
	names := make([]string, len(v.Columns))
	p.defs = make([]string, len(v.Columns))
	for i, c := range v.Columns {
		types[i], names[i] = c.Type.String(), c.Name
		p.defs[i] = quote(c.Name) + " " + types[i]
	}
	p.g = newGen(v, p.table, func(n, col int) string { return "$" + itoa(n) + "::text::" + types[col] })
	var err error
	if p.schema, err = delta.NewSchema(v.Name, names, v.Key); err != nil {
		return err
	}
	p.keys = make([]string, len(v.Key))
	for i, k := range v.Key {
		p.keys[i] = quote(v.Columns[k].Name)
	}
	return nil
}

// Open implements engine.Sink.
func (p *Postgres) Open(v engine.SinkView, rows []value.Row) error {
	if err := p.setup(v); err != nil {
		return err
	}
	// CREATE TABLE IF NOT EXISTS is not safe against itself: two
	// sessions creating one table (the progress table, which every
	// foreign table of a database shares) may both find it missing, and
	// the later fails with 23505, 42P07 or 42710 (its row type exists)
	// once the earlier commits. Then the table exists, and loading again
	// succeeds.
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = p.load(v, rows); err == nil {
			return nil
		}
		if c := pgerrCode(err); c != pgerr.UniqueViolation && c != pgerr.DuplicateTable && c != pgerr.DuplicateObject {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 20 * time.Millisecond)
	}
	return err
}

// load creates the target table when missing and loads it with rows, in
// one target transaction.
func (p *Postgres) load(v engine.SinkView, rows []value.Row) error {
	ctx, cancel := p.d.call()
	tx, err := p.conn.Begin(ctx)
	cancel()
	if err != nil {
		return p.err(err)
	}
	defer p.rollback(tx)
	qs := []string{
		"CREATE TABLE IF NOT EXISTS " + quote(p.table) + " (" + strings.Join(p.defs, ", ") + ", PRIMARY KEY (" + strings.Join(p.keys, ", ") + "))",
		"DELETE FROM " + quote(p.table),
	}
	if p.epoch != "" {
		qs = append(qs, progressDDL)
	}
	for _, q := range qs {
		ctx, cancel := p.d.call()
		_, err := tx.Exec(ctx, q)
		cancel()
		if err != nil {
			return p.err(err)
		}
	}
	ins := p.g.insert(false)
	for i := 0; i == 0 || i < len(rows); i += loadChunk {
		b := &pgx.Batch{}
		for _, r := range rows[i:min(i+loadChunk, len(rows))] {
			b.Queue(ins, texts(r)...)
		}
		if p.epoch != "" && i+loadChunk >= len(rows) {
			b.Queue(progressUpsert("$"), p.table, p.epoch, int64(v.Step))
		}
		ctx, cancel := p.d.call()
		err := tx.SendBatch(ctx, b).Close()
		cancel()
		if err != nil {
			return p.err(err)
		}
	}
	ctx, cancel = p.d.call()
	defer cancel()
	return p.err(tx.Commit(ctx))
}

// rollback rolls tx back, waiting for the server at most the timeout.
func (p *Postgres) rollback(tx pgx.Tx) {
	ctx, cancel := p.d.call()
	defer cancel()
	tx.Rollback(ctx)
}

func texts(vals []value.Value) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = text(v)
	}
	return out
}

// Prepare implements engine.Sink: the step's statements in one batch, in
// one transaction left open.
func (p *Postgres) Prepare(step uint64, changes delta.Batch) error {
	ctx, cancel := p.d.call()
	defer cancel()
	if p.d.tx == nil {
		tx, err := p.conn.Begin(ctx)
		if err != nil {
			return p.err(err)
		}
		p.d.tx = tx
	}
	tx := p.d.tx
	sts := make([]statement, len(changes))
	b := &pgx.Batch{}
	for i, c := range changes {
		sts[i] = p.g.statement(p.schema, c)
		b.Queue(sts[i].sql, texts(sts[i].args)...)
	}
	if p.epoch != "" {
		b.Queue(progressUpsert("$"), p.table, p.epoch, int64(step))
	}
	br := tx.SendBatch(ctx, b)
	fail := func(err error) error {
		br.Close()
		p.Abort()
		return err
	}
	for _, st := range sts {
		tag, err := br.Exec()
		if err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) {
				return fail(p.g.failed(st, &pgerr.Error{Code: pe.Code, Message: pe.Message, Detail: pe.Detail}))
			}
			return fail(p.g.failed(st, p.err(err)))
		}
		if st.must && tag.RowsAffected() != 1 {
			return fail(p.g.noRow(st))
		}
	}
	if p.epoch != "" {
		if _, err := br.Exec(); err != nil {
			return fail(p.err(err))
		}
	}
	if err := br.Close(); err != nil {
		p.Abort()
		return p.err(err)
	}
	return nil
}

// Commit implements engine.Sink: it commits the connection's transaction,
// if still open.
func (p *Postgres) Commit() error {
	tx := p.d.tx
	p.d.tx = nil
	if tx == nil {
		return nil
	}
	ctx, cancel := p.d.call()
	defer cancel()
	return p.err(tx.Commit(ctx))
}

// Abort implements engine.Sink.
func (p *Postgres) Abort() {
	if p.d.tx != nil {
		p.rollback(p.d.tx)
		p.d.tx = nil
	}
}

func (p *Postgres) err(err error) error {
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return &pgerr.Error{Code: pe.Code, Message: "PostgreSQL table " + p.table + ": " + pe.Message, Detail: pe.Detail}
	}
	if p.d.base.Err() != nil {
		return pgerr.New(pgerr.QueryCanceled, "PostgreSQL table %s: the call was cancelled: the sink stops", p.table)
	}
	if errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) {
		return pgerr.New(pgerr.ConnectionFailure, "PostgreSQL table %s: no answer from the server within %v; the connection was closed", p.table, p.d.timeout).
			WithHint("the server's timeout option bounds each call to the target")
	}
	return pgerr.New("08000", "PostgreSQL table %s: %v", p.table, err)
}
