package bench

import (
	"database/sql"
	"fmt"
	"strconv"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// SQLite re-runs each view's query after every transaction, in an
// in-memory SQLite database (modernc.org/sqlite, pure Go, in this
// process), with the indexes that serve each query best.
type SQLite struct {
	db     *sql.DB
	update *sql.Stmt
	pages0 int64
}

var (
	_ System         = (*SQLite)(nil)
	_ MemoryReporter = (*SQLite)(nil)
)

// sqliteIndexes are the indexes created for each view: covering where it
// helps; the join reads u by its integer primary key (the rowid).
var sqliteIndexes = map[string][]string{
	"filter":     {"CREATE INDEX t_filter ON t (val, id, grp)"},
	"groupby":    {"CREATE INDEX t_groupby ON t (grp, val)"},
	"groupcount": {"CREATE INDEX t_groupcount ON t (grp)"},
	"join":       nil,
	"topk":       {"CREATE INDEX t_topk ON t (val DESC, id, grp) WHERE grp < 500"},
}

// Name implements System.
func (s *SQLite) Name() string { return "SQLite re-query" }

// Load implements System.
func (s *SQLite) Load(d *Data) error {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1) // one connection: one in-memory database
	s.db = db
	_, err = db.Exec(`
		CREATE TABLE t (id INTEGER PRIMARY KEY, grp INTEGER NOT NULL, k INTEGER NOT NULL, val INTEGER NOT NULL, pad TEXT NOT NULL);
		CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL);`)
	if err != nil {
		return err
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := tx.Prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	for id := 1; id <= d.N; id++ {
		if _, err := ins.Exec(id, d.T[id].Grp, d.K(id), d.T[id].Val, Pad(id)); err != nil {
			return err
		}
	}
	insU, err := tx.Prepare("INSERT INTO u VALUES (?, ?, ?)")
	if err != nil {
		return err
	}
	for id := 1; id <= d.U(); id++ {
		if _, err := insU.Exec(id, Name(id), Region(id)); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.update, err = db.Prepare("UPDATE t SET grp = ?, val = ? WHERE id = ?")
	return err
}

// pages returns the database pages in use (a dropped index's pages go to
// the free list, and the next index reuses them).
func (s *SQLite) pages() (int64, error) {
	var n, free int64
	if err := s.db.QueryRow("PRAGMA page_count").Scan(&n); err != nil {
		return 0, err
	}
	err := s.db.QueryRow("PRAGMA freelist_count").Scan(&free)
	return n - free, err
}

// CreateView implements System: the view's indexes, ANALYZE, and a first
// run of the query.
func (s *SQLite) CreateView(v View) error {
	var err error
	if s.pages0, err = s.pages(); err != nil {
		return err
	}
	for _, ddl := range sqliteIndexes[v.Name] {
		if _, err := s.db.Exec(ddl); err != nil {
			return err
		}
	}
	if _, err := s.db.Exec("ANALYZE"); err != nil {
		return err
	}
	_, err = queryAll(s.db, v.SQL)
	return err
}

// Memory implements MemoryReporter: the database pages the view's indexes
// added.
func (s *SQLite) Memory(View) (int64, string, error) {
	p, err := s.pages()
	if err != nil {
		return 0, "", err
	}
	var size int64
	if err := s.db.QueryRow("PRAGMA page_size").Scan(&size); err != nil {
		return 0, "", err
	}
	return (p - s.pages0) * size, "database pages of the view's indexes", nil
}

// Apply implements System: the updates in one transaction, then the query
// again, reading every row.
func (s *SQLite) Apply(v View, batch []Change) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	up := tx.Stmt(s.update)
	for _, c := range batch {
		if _, err := up.Exec(c.New.Grp, c.New.Val, c.ID); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = queryAll(s.db, v.SQL)
	return err
}

// Answer implements System.
func (s *SQLite) Answer(v View) (Answer, error) { return queryAll(s.db, v.SQL) }

// DropView implements System.
func (s *SQLite) DropView(v View) error {
	for _, ddl := range sqliteIndexes[v.Name] {
		var name string
		fmt.Sscanf(ddl, "CREATE INDEX %s", &name)
		if _, err := s.db.Exec("DROP INDEX " + name); err != nil {
			return err
		}
	}
	return nil
}

// Close implements System.
func (s *SQLite) Close() error { return s.db.Close() }

// queryAll runs q and returns every row as text.
func queryAll(db *sql.DB, q string) (Answer, error) {
	rows, err := db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out Answer
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		r := make([]string, len(cols))
		for i, v := range vals {
			switch v := v.(type) {
			case int64:
				r[i] = strconv.FormatInt(v, 10)
			case string:
				r[i] = v
			case []byte:
				r[i] = string(v)
			default:
				r[i] = fmt.Sprint(v)
			}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
