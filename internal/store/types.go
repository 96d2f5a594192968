package store

import (
	"database/sql"
	"encoding/json"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// User-defined types (CREATE TYPE) keep their definition in the table
// deltaview_types (format 8), one row per type: its name, its kind, its
// object numbers and an enum's labels in their order (a JSON array) with
// their sort positions (the column sorts, format 13), a
// range type's definition (kind range, format 9: a JSON object, its
// multirange type's with it) or a composite type's CREATE TYPE statement
// (the column sql, format 9), replaced whole by each change, each a
// SQLite transaction of its own. Enums and range types load before the
// sequences and the tables, whose statements name them; composite types
// with the domains, which their attributes may be of and which may be
// over them (runTypeStatements).

// createTypeTable creates the table of user-defined types, new in
// format 8.
func (f *File) createTypeTable() error {
	_, err := f.conn.ExecContext(ctx, `CREATE TABLE deltaview_types (name TEXT PRIMARY KEY, kind TEXT NOT NULL,
		oid INTEGER NOT NULL, array_oid INTEGER NOT NULL, labels TEXT NOT NULL) STRICT`)
	return err
}

// addTypeSQLColumn gives deltaview_types the column sql, a composite
// type's statement (format 9); NULL for an enum.
func (f *File) addTypeSQLColumn() error {
	_, err := f.conn.ExecContext(ctx, `ALTER TABLE deltaview_types ADD COLUMN sql TEXT`)
	return err
}

// addTypeSortsColumn gives deltaview_types the column sorts, an enum's
// labels' sort positions in their order (format 13: a JSON array); NULL
// for another type, and in an enum's row of an earlier format, whose
// labels were kept without them (read as 1, 2, …).
func (f *File) addTypeSortsColumn() error {
	_, err := f.conn.ExecContext(ctx, `ALTER TABLE deltaview_types ADD COLUMN sorts TEXT`)
	return err
}

var _ engine.TypeStore = (*File)(nil)

// SaveType implements engine.TypeStore.
func (f *File) SaveType(old string, t engine.StoredType) error {
	kind, def, stmt := "enum", any(t.Labels), any(nil)
	switch {
	case t.Range != nil:
		kind, def = "range", t.Range
	case t.Kind == engine.StoredTypeComposite:
		kind, stmt = t.Kind, t.SQL
	}
	labels, err := json.Marshal(def)
	if err != nil {
		return err
	}
	var sorts any
	if kind == "enum" {
		b, err := json.Marshal(t.Sorts)
		if err != nil {
			return err
		}
		sorts = string(b)
	}
	return f.inTransaction(func() error {
		if old != "" {
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_types WHERE name = ?", old); err != nil {
				return err
			}
		}
		_, err := f.conn.ExecContext(ctx, "INSERT OR REPLACE INTO deltaview_types (name, kind, oid, array_oid, labels, sql, sorts) VALUES (?, ?, ?, ?, ?, ?, ?)",
			t.Name, kind, t.OID, t.ArrayOID, string(labels), stmt, sorts)
		return err
	})
}

// DropTypes implements engine.TypeStore.
func (f *File) DropTypes(names []string) error {
	return f.inTransaction(func() error {
		for _, n := range names {
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_types WHERE name = ?", n); err != nil {
				return err
			}
		}
		return nil
	})
}

// Types returns the stored user-defined types, in the order of their
// object numbers; none in a file of a format before 8, opened read-only.
func (f *File) Types() ([]engine.StoredType, error) {
	if f.version < 8 {
		return nil, nil
	}
	cols := "name, oid, array_oid, labels, NULL, NULL, NULL"
	switch {
	case f.version >= 13:
		cols = "name, oid, array_oid, labels, kind, sql, sorts"
	case f.version >= 9:
		cols = "name, oid, array_oid, labels, kind, sql, NULL"
	}
	rows, err := f.conn.QueryContext(ctx, "SELECT "+cols+" FROM deltaview_types ORDER BY oid")
	if err != nil {
		return nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var out []engine.StoredType
	for rows.Next() {
		var t engine.StoredType
		var labels string
		var kind, stmt, sorts sql.NullString
		if err := rows.Scan(&t.Name, &t.OID, &t.ArrayOID, &labels, &kind, &stmt, &sorts); err != nil {
			return nil, f.mapErr("read", err)
		}
		var def any = &t.Labels
		switch kind.String {
		case engine.StoredTypeComposite:
			t.Kind, t.SQL = kind.String, stmt.String
		case "range":
			t.Range = &engine.StoredRange{}
			def = t.Range
		}
		if err := json.Unmarshal([]byte(labels), def); err != nil {
			return nil, f.mapErr("read", err)
		}
		if sorts.Valid && kind.String == "enum" {
			if err := json.Unmarshal([]byte(sorts.String), &t.Sorts); err != nil {
				return nil, f.mapErr("read", err)
			}
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, f.mapErr("read", err)
	}
	return out, nil
}

// runTypeStatements runs the statements of domains and composite types
// again, each once the types it names are back: a domain over a
// composite type, or a composite type altered to hold a type made after
// it, comes after that type.
func runTypeStatements(pending []Entry, run func(Entry) error) error {
	for len(pending) > 0 {
		var later []Entry
		var lastErr error
		for _, en := range pending {
			err := run(en)
			switch {
			case err == nil:
			case pgerr.Code(err) == pgerr.UndefinedObject:
				later, lastErr = append(later, en), err
			default:
				return err
			}
		}
		if len(later) == len(pending) {
			return lastErr
		}
		pending = later
	}
	return nil
}
