package store

import (
	"encoding/json"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
	dsql "github.com/deltaview/deltaview/internal/sql"
)

// Servers and foreign tables (CREATE SERVER, CREATE FOREIGN TABLE) keep
// their statements' terms in the tables deltaview_servers and
// deltaview_foreign_tables (OPTIONS and declared columns as JSON; a
// postgres server's password as given, as PostgreSQL keeps it in
// pg_user_mapping), and each foreign table the epoch it writes to its
// target's progress table. Each statement is a SQLite transaction of its
// own.

// createForeignTables creates the tables of servers and foreign tables,
// new in format 4.
func (f *File) createForeignTables() error {
	for _, s := range []string{
		`CREATE TABLE deltaview_servers (name TEXT PRIMARY KEY, wrapper TEXT NOT NULL, options TEXT NOT NULL) STRICT`,
		`CREATE TABLE deltaview_foreign_tables (name TEXT PRIMARY KEY, server TEXT NOT NULL, view TEXT NOT NULL,
			target TEXT NOT NULL, columns TEXT NOT NULL, epoch TEXT NOT NULL) STRICT`,
	} {
		if _, err := f.conn.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

type storedOption struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type storedColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// SaveServer implements engine.Store.
func (f *File) SaveServer(s engine.StoredServer) error {
	opts := make([]storedOption, len(s.Options))
	for i, o := range s.Options {
		opts[i] = storedOption{o.Name, o.Value}
	}
	js, _ := json.Marshal(opts)
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, `INSERT INTO deltaview_servers (name, wrapper, options) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET wrapper = excluded.wrapper, options = excluded.options`, s.Name, s.Wrapper, string(js))
		return err
	})
}

// SaveForeignTable implements engine.Store.
func (f *File) SaveForeignTable(t engine.StoredForeignTable) error {
	cols := make([]storedColumn, len(t.Cols))
	for i, c := range t.Cols {
		cols[i] = storedColumn{c.Name, c.Type}
	}
	js, _ := json.Marshal(cols)
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, `INSERT INTO deltaview_foreign_tables (name, server, view, target, columns, epoch) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET server = excluded.server, view = excluded.view, target = excluded.target,
			columns = excluded.columns, epoch = excluded.epoch`, t.Name, t.Server, t.View, t.Table, string(js), t.Epoch)
		return err
	})
}

// DropForeign implements engine.Store.
func (f *File) DropForeign(servers, tables []string) error {
	return f.inTransaction(func() error {
		for _, n := range tables {
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_foreign_tables WHERE name = ?", n); err != nil {
				return err
			}
		}
		for _, n := range servers {
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_foreign_tables WHERE server = ?", n); err != nil {
				return err
			}
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_servers WHERE name = ?", n); err != nil {
				return err
			}
		}
		return nil
	})
}

// Foreign returns the stored servers and foreign tables, by name.
func (f *File) Foreign() ([]engine.StoredServer, []engine.StoredForeignTable, error) {
	if f.version < 4 {
		return nil, nil, nil // an earlier file opened read-only keeps none
	}
	var servers []engine.StoredServer
	rows, err := f.conn.QueryContext(ctx, "SELECT name, wrapper, options FROM deltaview_servers ORDER BY name")
	if err != nil {
		return nil, nil, f.mapErr("read", err)
	}
	for rows.Next() {
		var s engine.StoredServer
		var js string
		var opts []storedOption
		if err := rows.Scan(&s.Name, &s.Wrapper, &js); err != nil {
			rows.Close()
			return nil, nil, f.mapErr("read", err)
		}
		if err := json.Unmarshal([]byte(js), &opts); err != nil {
			rows.Close()
			return nil, nil, pgerr.New(codeDataCorrupted, "database file %q: the options of server %q: %v", f.path, s.Name, err)
		}
		for _, o := range opts {
			s.Options = append(s.Options, dsql.Option{Name: o.Name, Value: o.Value})
		}
		servers = append(servers, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, f.mapErr("read", err)
	}
	var tables []engine.StoredForeignTable
	rows, err = f.conn.QueryContext(ctx, "SELECT name, server, view, target, columns, epoch FROM deltaview_foreign_tables ORDER BY name")
	if err != nil {
		return nil, nil, f.mapErr("read", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t engine.StoredForeignTable
		var js string
		var cols []storedColumn
		if err := rows.Scan(&t.Name, &t.Server, &t.View, &t.Table, &js, &t.Epoch); err != nil {
			return nil, nil, f.mapErr("read", err)
		}
		if err := json.Unmarshal([]byte(js), &cols); err != nil {
			return nil, nil, pgerr.New(codeDataCorrupted, "database file %q: the columns of foreign table %q: %v", f.path, t.Name, err)
		}
		for _, c := range cols {
			t.Cols = append(t.Cols, engine.StoredColumn{Name: c.Name, Type: c.Type})
		}
		tables = append(tables, t)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, f.mapErr("read", err)
	}
	return servers, tables, nil
}
