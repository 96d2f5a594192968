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

// PostgresDB is a PostgreSQL connection whose tables hold views. Its sinks
// share one transaction per step, as SQLiteDB's do.
type PostgresDB struct {
	conn *pgx.Conn
	tx   pgx.Tx
}

// NewPostgresDB returns the database reached through conn.
func NewPostgresDB(conn *pgx.Conn) *PostgresDB { return &PostgresDB{conn: conn} }

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
	// the later fails with 23505 or 42P07 once the earlier commits. Then
	// the table exists, and loading again succeeds.
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = p.load(v, rows); err == nil {
			return nil
		}
		if c := pgerrCode(err); c != pgerr.UniqueViolation && c != pgerr.DuplicateTable {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 20 * time.Millisecond)
	}
	return err
}

// load creates the target table when missing and loads it with rows, in
// one target transaction.
func (p *Postgres) load(v engine.SinkView, rows []value.Row) error {
	ctx := context.Background()
	tx, err := p.conn.Begin(ctx)
	if err != nil {
		return p.err(err)
	}
	defer tx.Rollback(ctx)
	qs := []string{
		"CREATE TABLE IF NOT EXISTS " + quote(p.table) + " (" + strings.Join(p.defs, ", ") + ", PRIMARY KEY (" + strings.Join(p.keys, ", ") + "))",
		"DELETE FROM " + quote(p.table),
	}
	if p.epoch != "" {
		qs = append(qs, progressDDL)
	}
	for _, q := range qs {
		if _, err := tx.Exec(ctx, q); err != nil {
			return p.err(err)
		}
	}
	ins := p.g.insert(false)
	b := &pgx.Batch{}
	for _, r := range rows {
		b.Queue(ins, texts(r)...)
	}
	if p.epoch != "" {
		b.Queue(progressUpsert("$"), p.table, p.epoch, int64(v.Step))
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return p.err(err)
	}
	return p.err(tx.Commit(ctx))
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
	ctx := context.Background()
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
	return p.err(tx.Commit(context.Background()))
}

// Abort implements engine.Sink.
func (p *Postgres) Abort() {
	if p.d.tx != nil {
		p.d.tx.Rollback(context.Background())
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
	return pgerr.New("08000", "PostgreSQL table %s: %v", p.table, err)
}
