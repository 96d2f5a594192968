// Package store is deltaview's store of record: one SQLite file, in WAL
// mode, that holds the catalog (every table and view with the statement
// that created it), every table's rows with their PostgreSQL types kept
// exactly, and the logical time of the last commit. It implements the
// engine's Store interface: one SQLite transaction per deltaview commit,
// durable before the commit is acknowledged.
//
// Each deltaview table is a SQLite table of the same name (another when
// SQLite or the store reserve it, or SQLite, blind to letter case, would
// confuse it with another table's: see tableName and columnNames), with
// the engine's row id as its INTEGER PRIMARY KEY deltaview_row_id, one
// column per column, and the time of the commit that wrote the row
// (deltaview_ts, see tsColumn). Booleans, integers, dates (days since
// 2000-01-01) and timestamps (microseconds since 2000-01-01 UTC,
// infinities as the extreme int64 values) are INTEGER; every other type
// is TEXT in PostgreSQL's output format, which its input format reads
// back exactly (numeric scale, float NaN, infinities and -0, intervals,
// char padding).
//
// The file is opened with synchronous=FULL: a commit returns after the
// WAL is synced, so an acknowledged commit survives a crash of the
// process and of the machine. NORMAL would sync only at checkpoints,
// about twice the commit rate, but a power loss could take the last
// acknowledged commits; see docs/durability.md.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// FormatVersion is the file format this package writes, kept in SQLite's
// user_version. A file of a later version is refused; an earlier one is
// brought to this version when it is opened writable: version 1 kept no
// roles (it gains their tables), versions 1 and 2 kept no commit time in
// a table's rows (each table gains the column deltaview_ts, NULL in the
// rows it holds) and no subscriptions (the file gains their table),
// versions 1 to 3 no servers and foreign tables (the file gains their
// tables), versions 1 to 4 no sequences (the file gains their table),
// versions 1 to 5 no FOREIGN KEY constraints (a table's statement in the
// catalog may now hold them: the upgrade changes nothing else, and a
// deltaview that reads up to version 5 refuses the file rather than fail
// on a constraint it does not know), versions 1 to 6 no comments (the file
// gains their table; a table's statement may now name an identity
// column's sequence, which a deltaview that reads up to version 6 does not
// know), versions 1 to 7 no domains nor user-defined types (the file gains
// their tables) and no SQL functions (the catalog may now hold CREATE
// FUNCTION statements, of kind function under their signatures),
// versions 1 to 8 no composite types (deltaview_types gains the column
// sql, their CREATE TYPE statements) nor range types (deltaview_types may
// now hold rows of kind range, which a deltaview that reads up to version
// 8 does not know), versions 1 to 9 no schemas (the file gains their
// table; a relation of schema s is in the catalog as "s.name", its
// statement maybe after a SET of the search path it was created under),
// versions 1 to 10 no column attributes (a table's statement may now be
// CREATE UNLOGGED TABLE, give a column STORAGE, and be followed by an
// ALTER TABLE ONLY that sets statistics targets, column options and the
// replica identity, which a deltaview that reads up to version 10 would
// refuse), versions 1 to 11 a table's REFERENCES and TRIGGER only within
// ALL (grants_reftrig.go: the upgrade spells them), versions 1 to 12 an
// enum's labels without their sort positions (deltaview_types gains the
// column sorts; the labels of a type kept before read 1, 2, … in their
// order, as they were read then).
const FormatVersion = 13

// tsColumn is the column of every stored table that holds the logical
// time of the commit that wrote the row. A commit that leaves a row it
// inserted records its time there, in the page it writes anyway, rather
// than in a second page (deltaview_meta): a single-row commit then
// writes one page of the write-ahead log, as SQLite's own insert does.
// The last commit's time is the greatest of deltaview_meta's and every
// row's, read at open.
const tsColumn = "deltaview_ts"

// SQLSTATEs of the store's errors that pgerr does not name.
const (
	codeDiskFull       = "53100"
	codeDataCorrupted  = "XX001"
	codeReadOnly       = "25006"
	codeNotPrerequsite = "55000"
)

// Options configure a store.
type Options struct {
	// BusyTimeout is how long a commit waits for a lock another process
	// holds on the file (a backup, sqlite3) before it is refused with
	// 55P03; 0 means 5 seconds.
	BusyTimeout time.Duration
}

// File is an open store. Its methods are called under the engine's write
// lock (the engine.Store contract), or before the engine exists.
type File struct {
	path     string
	db       *sql.DB
	conn     *sql.Conn
	lock     *os.File // holds an exclusive flock while the store is open
	readOnly bool
	version  int // the file's format
	inTx     bool
	// blk is the transaction block's open SQLite transaction (block.go);
	// nil when none.
	blk     *block
	tables  map[string]*tableStmts
	ts      uint64 // the time of the last commit stored
	pending uint64 // the time of the commit staged
	// args are the values of the rows gathered for one INSERT: pendingN
	// rows of pendingT.
	args     []any
	pendingT *tableStmts
	pendingN int
}

// tableStmts are one table's prepared statements.
type tableStmts struct {
	sqlName string
	cols    []plan.Column
	ins     *sql.Stmt
	del     *sql.Stmt
	// insChunk inserts insertChunk rows, prepared at its first use.
	insChunk *sql.Stmt
}

var _ engine.Store = (*File)(nil)

// Entry is one relation of the catalog, in creation order.
type Entry struct {
	Name    string
	Kind    engine.RelKind
	SQL     string
	sqlName string
}

var ctx = context.Background()

// Open opens (or creates) the store at path. It takes an exclusive lock
// on the file for as long as it is open: a second deltaview process that
// opens it fails with 55P03. A file on a read-only file system is opened
// read-only: everything loads, every change fails with 25006.
func Open(path string, o Options) (*File, error) {
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 5 * time.Second
	}
	f := &File{path: path, tables: map[string]*tableStmts{}}
	lock, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil && (errors.Is(err, syscall.EROFS) || errors.Is(err, os.ErrPermission)) {
		lock, err = os.Open(path)
		f.readOnly = true
	}
	if err != nil {
		return nil, ioError(path, "open", err)
	}
	f.lock = lock
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, pgerr.New(pgerr.LockNotAvailable, "database file %q is in use by another deltaview process", path).
				WithHint("one process at a time opens a deltaview file; stop the other, or open a copy")
		}
		return nil, ioError(path, "lock", err)
	}
	if err := f.open(o); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (f *File) open(o Options) error {
	dsn := "file:" + f.path + fmt.Sprintf("?_pragma=busy_timeout(%d)", o.BusyTimeout.Milliseconds())
	if f.readOnly {
		// A read-only file system can hold no shared-memory index, so
		// the file is read as immutable: a write-ahead log left by a crash
		// would go unread, and is refused rather than ignored.
		if st, err := os.Stat(f.path + "-wal"); err == nil && st.Size() > 0 {
			return pgerr.New(pgerr.IOError, "database file %q is on a read-only file system with a write-ahead log to replay", f.path).
				WithHint("open it once where it is writable, or copy it with its -wal file to a writable place")
		}
		dsn = "file:" + f.path + "?mode=ro&immutable=1"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return f.mapErr("open", err)
	}
	f.db = db
	db.SetMaxOpenConns(1)
	if f.conn, err = db.Conn(ctx); err != nil {
		return f.mapErr("open", err)
	}
	var version int
	if err := f.conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return f.mapErr("open", err)
	}
	if version > FormatVersion {
		return pgerr.New(codeNotPrerequsite, "database file %q has format version %d; this deltaview reads versions up to %d", f.path, version, FormatVersion).
			WithHint("open it with the deltaview that wrote it, or a later one")
	}
	if !f.readOnly {
		for _, p := range []string{"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL"} {
			if _, err := f.conn.ExecContext(ctx, p); err != nil {
				return f.mapErr("open", err)
			}
		}
	}
	if version == 0 {
		if f.readOnly {
			return pgerr.New(codeReadOnly, "database file %q is read-only and holds no deltaview database", f.path)
		}
		if err := f.initialise(); err != nil {
			return err
		}
		version = FormatVersion
	}
	if version < FormatVersion && !f.readOnly {
		if err := f.inTransaction(func() error { return f.upgrade(version) }); err != nil {
			return err
		}
		version = FormatVersion
	}
	f.version = version
	// Reading the whole catalog and the time finds a corrupted file now
	// rather than at the first commit.
	if err := f.conn.QueryRowContext(ctx, "SELECT value FROM deltaview_meta WHERE key = 'last_ts'").Scan(&f.ts); err != nil {
		return f.mapErr("read", err)
	}
	return nil
}

// initialise creates the store's own tables in a new file.
func (f *File) initialise() error {
	return f.inTransaction(func() error {
		for _, s := range []string{
			`CREATE TABLE deltaview_meta (key TEXT PRIMARY KEY, value ANY) STRICT`,
			`CREATE TABLE deltaview_catalog (seq INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, kind TEXT NOT NULL, sql TEXT NOT NULL, sql_name TEXT) STRICT`,
			`INSERT INTO deltaview_meta VALUES ('last_ts', 0)`,
		} {
			if _, err := f.conn.ExecContext(ctx, s); err != nil {
				return err
			}
		}
		if err := f.createRoleTables(); err != nil {
			return err
		}
		if err := f.createSubscriptionTable(); err != nil {
			return err
		}
		if err := f.createForeignTables(); err != nil {
			return err
		}
		if err := f.createSequenceTable(); err != nil {
			return err
		}
		if err := f.createCommentTable(); err != nil {
			return err
		}
		if err := f.createDomainTable(); err != nil {
			return err
		}
		if err := f.createTypeTable(); err != nil {
			return err
		}
		if err := f.addTypeSQLColumn(); err != nil {
			return err
		}
		if err := f.createSchemaTable(); err != nil {
			return err
		}
		if err := f.addTypeSortsColumn(); err != nil {
			return err
		}
		return f.setVersion()
	})
}

func (f *File) setVersion() error {
	_, err := f.conn.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", FormatVersion))
	return err
}

// createRoleTables creates the tables of roles and privileges, new in
// format 2. A role's password is kept only as its SCRAM-SHA-256
// verifier; a privilege held by PUBLIC has an empty role name.
func (f *File) createRoleTables() error {
	for _, s := range []string{
		`CREATE TABLE deltaview_roles (name TEXT PRIMARY KEY, login INTEGER NOT NULL, superuser INTEGER NOT NULL, verifier TEXT) STRICT`,
		`CREATE TABLE deltaview_grants (relation TEXT NOT NULL, role TEXT NOT NULL, privileges TEXT NOT NULL, PRIMARY KEY (relation, role)) STRICT`,
	} {
		if _, err := f.conn.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

// upgrade brings a file of an earlier format to this one, within a
// SQLite transaction.
func (f *File) upgrade(version int) error {
	if version < 2 {
		if err := f.createRoleTables(); err != nil {
			return err
		}
	}
	if version < 3 {
		if err := f.addTSColumns(); err != nil {
			return err
		}
		if err := f.createSubscriptionTable(); err != nil {
			return err
		}
	}
	if version < 4 {
		if err := f.createForeignTables(); err != nil {
			return err
		}
	}
	if version < 5 {
		if err := f.createSequenceTable(); err != nil {
			return err
		}
	}
	if version < 7 {
		if err := f.createCommentTable(); err != nil {
			return err
		}
	}
	if version < 8 {
		if err := f.createDomainTable(); err != nil {
			return err
		}
		if err := f.createTypeTable(); err != nil {
			return err
		}
	}
	if version < 9 {
		if err := f.addTypeSQLColumn(); err != nil {
			return err
		}
	}
	if version < 10 {
		if err := f.createSchemaTable(); err != nil {
			return err
		}
	}
	if version < 12 && version >= 2 {
		if err := f.spellTableAll(); err != nil {
			return err
		}
	}
	if version < 13 {
		if err := f.addTypeSortsColumn(); err != nil {
			return err
		}
	}
	return f.setVersion()
}

// addTSColumns gives every stored table the column tsColumn (format 3),
// NULL in its rows: deltaview_meta holds the time of the last commit
// before. A column of the user's that the file stores under that name is
// first renamed, as columnNames now names it.
func (f *File) addTSColumns() error {
	rows, err := f.conn.QueryContext(ctx, "SELECT sql_name, name FROM deltaview_catalog WHERE kind = ?", string(engine.KindTable))
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var sqlName sql.NullString
		var name string
		if err := rows.Scan(&sqlName, &name); err != nil {
			rows.Close()
			return err
		}
		if sqlName.Valid && sqlName.String != "" {
			name = sqlName.String
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range tables {
		var cid int
		var col string
		err := f.conn.QueryRowContext(ctx, "SELECT cid, name FROM pragma_table_info(?) WHERE lower(name) = ?", t, tsColumn).Scan(&cid, &col)
		switch {
		case err == nil:
			// cid 0 is deltaview_row_id: the user's column cid is the
			// table's column cid.
			if _, err := f.conn.ExecContext(ctx, fmt.Sprintf("ALTER TABLE %s RENAME COLUMN %s TO %s", quote(t), quote(col), quote(fmt.Sprintf("c%d_%s", cid, col)))); err != nil {
				return err
			}
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		if _, err := f.conn.ExecContext(ctx, fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s INTEGER", quote(t), tsColumn)); err != nil {
			return err
		}
	}
	return nil
}

// inTransaction runs fn in a SQLite transaction of its own.
func (f *File) inTransaction(fn func() error) error {
	if f.readOnly {
		return f.errReadOnly()
	}
	if f.blk != nil {
		return f.inBlock(fn)
	}
	if _, err := f.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return f.mapErr("begin a transaction in", err)
	}
	if err := fn(); err != nil {
		f.rollback()
		return f.mapErr("write", err)
	}
	if _, err := f.conn.ExecContext(ctx, "COMMIT"); err != nil {
		f.rollback()
		return f.mapErr("commit to", err)
	}
	return nil
}

// rollback ends the open SQLite transaction, if SQLite has not already.
func (f *File) rollback() {
	f.conn.ExecContext(ctx, "ROLLBACK") //nolint:errcheck // no transaction left is fine
}

// Close closes the file and releases its lock.
func (f *File) Close() error {
	var err error
	for _, t := range f.tables {
		t.close()
	}
	if f.conn != nil {
		f.conn.Close()
	}
	if f.db != nil {
		err = f.db.Close()
	}
	if f.lock != nil {
		f.lock.Close() // after SQLite's own descriptors: closing it drops the process's POSIX locks
	}
	return err
}

// LastTS is the logical time of the last commit stored.
func (f *File) LastTS() uint64 { return f.ts }

// ReadOnly reports whether the file was opened read-only.
func (f *File) ReadOnly() bool { return f.readOnly }

// Catalog returns the stored relations in creation order.
func (f *File) Catalog() ([]Entry, error) {
	rows, err := f.conn.QueryContext(ctx, "SELECT name, kind, sql, coalesce(sql_name, '') FROM deltaview_catalog ORDER BY seq")
	if err != nil {
		return nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var kind string
		if err := rows.Scan(&e.Name, &kind, &e.SQL, &e.sqlName); err != nil {
			return nil, f.mapErr("read", err)
		}
		e.Kind = engine.RelKind(kind)
		if e.Kind == engine.KindDefaultACL && f.version < 12 {
			e.SQL = olderDefaultACL(e.SQL) // a read-only older file
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, f.mapErr("read", err)
	}
	return out, nil
}

// Rows reads a stored table's rows, in row id order, as rows of cols.
func (f *File) Rows(e Entry, cols []plan.Column, put func(id uint64, row value.Row) error) error {
	names := columnNames(cols)
	// A file of format 2, opened read-only, holds no commit times in its
	// rows: NULL stands for them.
	ts := tsColumn
	if f.version < 3 {
		ts = "NULL"
	}
	q := "SELECT deltaview_row_id, " + ts
	if len(names) > 0 {
		q += ", " + strings.Join(names, ", ")
	}
	rows, err := f.conn.QueryContext(ctx, q+" FROM "+quote(e.sqlName)+" ORDER BY deltaview_row_id")
	if err != nil {
		return f.mapErr("read", err)
	}
	defer rows.Close()
	dest := make([]any, len(cols)+2)
	ptrs := make([]any, len(dest))
	for i := range dest {
		ptrs[i] = &dest[i]
	}
	// Rows are cut from slabs of slabRows rows: one allocation for many.
	const slabRows = 1024
	var slab []value.Value
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return f.mapErr("read", err)
		}
		id, ok := dest[0].(int64)
		if !ok || id <= 0 {
			return pgerr.New(codeDataCorrupted, "database file %q: table %q holds a row id %v", f.path, e.Name, dest[0])
		}
		switch ts := dest[1].(type) {
		case int64:
			f.ts = max(f.ts, uint64(ts))
		case nil:
		default:
			return pgerr.New(codeDataCorrupted, "database file %q: table %q, row %d holds a commit time %v", f.path, e.Name, id, ts)
		}
		if len(slab) < len(cols) {
			slab = make([]value.Value, slabRows*len(cols))
		}
		row := value.Row(slab[:len(cols):len(cols)])
		slab = slab[len(cols):]
		for i, c := range cols {
			v, err := decode(dest[i+2], c.Type)
			if err != nil {
				return pgerr.New(codeDataCorrupted, "database file %q: table %q, row %d, column %q: %v", f.path, e.Name, id, c.Name, err)
			}
			row[i] = v
		}
		if err := put(uint64(id), row); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return f.mapErr("read", err)
	}
	return f.prepare(e.Name, e.sqlName, cols)
}

// prepare readies a table's statements.
func (f *File) prepare(name, sqlName string, cols []plan.Column) error {
	if f.readOnly {
		f.tables[name] = &tableStmts{sqlName: sqlName, cols: cols}
		return nil
	}
	t := &tableStmts{sqlName: sqlName, cols: cols}
	ins, err := f.conn.PrepareContext(ctx, t.insertSQL(1))
	if err != nil {
		return f.mapErr("prepare", err)
	}
	del, err := f.conn.PrepareContext(ctx, fmt.Sprintf("DELETE FROM %s WHERE deltaview_row_id = ?", quote(sqlName)))
	if err != nil {
		ins.Close()
		return f.mapErr("prepare", err)
	}
	t.ins, t.del = ins, del
	f.tables[name] = t
	return nil
}

func (t *tableStmts) close() {
	for _, st := range []*sql.Stmt{t.ins, t.del, t.insChunk} {
		if st != nil {
			st.Close()
		}
	}
}

// Create implements engine.Store.
func (f *File) Create(r *engine.StoredRelation) error {
	sqlName := ""
	err := f.inTransaction(func() error {
		if r.Kind == engine.KindTable {
			var err error
			if sqlName, err = f.tableName(r.Name); err != nil {
				return err
			}
		}
		if _, err := f.conn.ExecContext(ctx, "INSERT INTO deltaview_catalog (name, kind, sql, sql_name) VALUES (?, ?, ?, nullif(?, ''))",
			r.Name, string(r.Kind), r.SQL, sqlName); err != nil {
			return err
		}
		if r.Kind != engine.KindTable {
			return nil
		}
		defs := []string{"deltaview_row_id INTEGER PRIMARY KEY"}
		for i, name := range columnNames(r.Cols) {
			defs = append(defs, name+" "+storageType(r.Cols[i].Type.Kind))
		}
		defs = append(defs, tsColumn+" INTEGER")
		_, err := f.conn.ExecContext(ctx, fmt.Sprintf("CREATE TABLE %s (%s)", quote(sqlName), strings.Join(defs, ", ")))
		return err
	})
	if err != nil {
		return err
	}
	if r.Kind == engine.KindTable {
		return f.prepare(r.Name, sqlName, r.Cols)
	}
	return nil
}

// Drop implements engine.Store.
func (f *File) Drop(names []string) error {
	err := f.inTransaction(func() error {
		for _, n := range names {
			if t, ok := f.tables[n]; ok {
				if _, err := f.conn.ExecContext(ctx, "DROP TABLE "+quote(t.sqlName)); err != nil {
					return err
				}
			}
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_catalog WHERE name = ?", n); err != nil {
				return err
			}
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_grants WHERE relation = ?", n); err != nil {
				return err
			}
		}
		// The rows dropped may have held the last commit's time.
		_, err := f.conn.ExecContext(ctx, "UPDATE deltaview_meta SET value = ? WHERE key = 'last_ts'", int64(f.ts))
		return err
	})
	if err != nil {
		return err
	}
	for _, n := range names {
		if t, ok := f.tables[n]; ok {
			f.closeStmts(t)
			delete(f.tables, n)
		}
	}
	return nil
}

// Write implements engine.Store: it begins a SQLite transaction and writes
// the commit's rows, each inserted one with the commit's time, and the
// renumbering of compacted tables. When no row it inserts is left at its
// end, the time goes to deltaview_meta instead.
func (f *File) Write(c *engine.Commit) error {
	if f.readOnly {
		return f.errReadOnly()
	}
	begin := "BEGIN IMMEDIATE"
	if f.blk != nil {
		begin = "SAVEPOINT dv_write"
	}
	if _, err := f.conn.ExecContext(ctx, begin); err != nil {
		return f.mapErr("begin a transaction in", err)
	}
	f.inTx = true
	ts := int64(c.TS)
	// last is the last row inserted, until a later change deletes it: a
	// row that holds the commit's time at its end.
	var last struct {
		t  *tableStmts
		id uint64
	}
	err := c.Each(func(table string, id uint64, row value.Row, insert bool) error {
		t := f.tables[table]
		if t == nil {
			return pgerr.New(pgerr.Internal, "table %q is not in the store", table)
		}
		if t != f.pendingT || !insert {
			if err := f.flush(); err != nil {
				return err
			}
		}
		if !insert {
			if last.t == t && last.id == id {
				last.t = nil
			}
			_, err := t.del.ExecContext(ctx, int64(id))
			return err
		}
		last.t, last.id = t, id
		f.pendingT = t
		f.args = append(f.args, int64(id))
		for _, v := range row {
			f.args = append(f.args, encode(v))
		}
		f.args = append(f.args, ts)
		if f.pendingN++; f.pendingN == insertChunk {
			return f.flush()
		}
		return nil
	})
	if err == nil {
		err = f.flush()
	}
	clear(f.args)
	f.args, f.pendingT, f.pendingN = f.args[:0], nil, 0
	for _, name := range c.Renumber {
		if err != nil {
			break
		}
		err = f.renumber(f.tables[name].sqlName)
	}
	if err == nil && c.Source != nil {
		err = f.writeSource(c.Source)
	}
	if err == nil && last.t == nil {
		_, err = f.conn.ExecContext(ctx, "UPDATE deltaview_meta SET value = ? WHERE key = 'last_ts'", ts)
	}
	if err != nil {
		return f.mapErr("write", err)
	}
	f.pending = c.TS
	return nil
}

// insertChunk is how many rows one INSERT statement of a commit stores:
// a statement per row would cost a statement's overhead per row.
const insertChunk = 64

// flush inserts the rows of consecutive inserts into one table gathered
// so far: chunks of insertChunk rows by one statement, the rest one by
// one.
func (f *File) flush() error {
	t, n := f.pendingT, f.pendingN
	if n == 0 {
		return nil
	}
	f.pendingT, f.pendingN = nil, 0
	var err error
	if n == insertChunk {
		if t.insChunk == nil {
			if t.insChunk, err = f.conn.PrepareContext(ctx, t.insertSQL(insertChunk)); err != nil {
				return err
			}
		}
		_, err = t.insChunk.ExecContext(ctx, f.args...)
	} else {
		w := len(t.cols) + 2
		for i := 0; i < n && err == nil; i++ {
			_, err = t.ins.ExecContext(ctx, f.args[i*w:(i+1)*w]...)
		}
	}
	clear(f.args)
	f.args = f.args[:0]
	return err
}

// insertSQL is the statement that inserts n rows into the table.
func (t *tableStmts) insertSQL(n int) string {
	names := append([]string{"deltaview_row_id"}, columnNames(t.cols)...)
	names = append(names, tsColumn)
	row := "(" + strings.Repeat("?, ", len(t.cols)+1) + "?)"
	rows := strings.Repeat(row+", ", n-1) + row
	return fmt.Sprintf("INSERT OR REPLACE INTO %s (%s) VALUES %s", quote(t.sqlName), strings.Join(names, ", "), rows)
}

// renumber gives a table's rows the ids 1, 2, … in their order, as the
// engine's compaction does.
func (f *File) renumber(sqlName string) error {
	t := quote(sqlName)
	if _, err := f.conn.ExecContext(ctx, fmt.Sprintf(`UPDATE %[1]s SET deltaview_row_id = -r.n
		FROM (SELECT deltaview_row_id AS old, row_number() OVER (ORDER BY deltaview_row_id) AS n FROM %[1]s) AS r
		WHERE %[1]s.deltaview_row_id = r.old`, t)); err != nil {
		return err
	}
	_, err := f.conn.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET deltaview_row_id = -deltaview_row_id", t))
	return err
}

// Commit implements engine.Store.
func (f *File) Commit() error {
	if !f.inTx {
		return nil
	}
	f.inTx = false
	if f.blk != nil {
		return f.commitBlock()
	}
	if _, err := f.conn.ExecContext(ctx, "COMMIT"); err != nil {
		f.rollback()
		return f.mapErr("commit to", err)
	}
	f.ts = f.pending
	return nil
}

// Abort implements engine.Store.
func (f *File) Abort() {
	if f.inTx {
		f.inTx = false
		if f.blk != nil {
			f.undoWrite()
			return
		}
		f.rollback()
	}
}

func (f *File) errReadOnly() error {
	return pgerr.New(codeReadOnly, "database file %q is read-only: changes are refused", f.path).
		WithHint("reads work; to change data, open a writable copy of the file")
}

// mapErr turns a SQLite error into one with a SQLSTATE. Errors that
// already carry one pass through.
func (f *File) mapErr(what string, err error) error {
	var pe *pgerr.Error
	if errors.As(err, &pe) {
		return pe
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return ioError(f.path, what, err)
	}
	msg := sqlite.ErrorCodeString[se.Code()]
	if msg == "" {
		msg = se.Error()
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_FULL:
		return pgerr.New(codeDiskFull, "could not %s database file %q: disk full", what, f.path).
			WithHint("free space on its file system; the change was refused and nothing of it was kept")
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return pgerr.New(pgerr.LockNotAvailable, "could not %s database file %q: it is locked by another process", what, f.path).
			WithHint("another process holds a lock on the file; the change was refused")
	case sqlite3.SQLITE_READONLY:
		return pgerr.New(codeReadOnly, "could not %s database file %q: it is read-only", what, f.path)
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return pgerr.New(codeDataCorrupted, "database file %q is corrupted or not a deltaview database: %s", f.path, msg).
			WithHint("restore it from a backup")
	}
	return pgerr.New(pgerr.IOError, "could not %s database file %q: %s", what, f.path, msg)
}

func ioError(path, what string, err error) error {
	return pgerr.New(pgerr.IOError, "could not %s database file %q: %v", what, path, err)
}

// quote quotes a SQLite identifier.
func quote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// tableName chooses the SQLite name of a new table: its own, unless
// SQLite or the store reserve it or, SQLite's names being case-blind,
// another table has it in other letter cases ("T" beside "t").
func (f *File) tableName(name string) (string, error) {
	taken := func(n string) (bool, error) {
		var c int
		err := f.conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE lower(name) = lower(?)", n).Scan(&c)
		return c > 0, err
	}
	if !reserved(name) {
		if t, err := taken(name); err != nil || !t {
			return name, err
		}
	}
	for i := 1; ; i++ {
		n := fmt.Sprintf("deltaview_t%d_%s", i, name)
		if t, err := taken(n); err != nil || !t {
			return n, err
		}
	}
}

// columnNames returns the quoted SQLite names of a table's columns: their
// own, but for a name that SQLite, blind to letter case, would confuse
// with the row id's, the commit time's or an earlier column's, which gets
// its position in front ("c2_A").
func columnNames(cols []plan.Column) []string {
	seen := map[string]bool{"deltaview_row_id": true, tsColumn: true}
	out := make([]string, len(cols))
	for i, c := range cols {
		n := c.Name
		if seen[strings.ToLower(n)] {
			n = fmt.Sprintf("c%d_%s", i+1, c.Name)
		}
		seen[strings.ToLower(n)] = true
		out[i] = quote(n)
	}
	return out
}

// reserved reports whether a table name is one SQLite or the store uses.
func reserved(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "sqlite_") || strings.HasPrefix(l, "deltaview_")
}
