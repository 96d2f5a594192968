package store

import (
	"encoding/json"

	"github.com/deltaview/deltaview/internal/engine"
)

// User-defined types (CREATE TYPE) keep their definition in the table
// deltaview_types (format 8), one row per type: its name, its object
// numbers and an enum's labels in their order (a JSON array), or a range
// type's definition (kind 'range', format 9: a JSON object, its
// multirange type's with it), replaced whole by each change, each a
// SQLite transaction of its own. They load before the sequences and the
// tables, whose statements name them.

// createTypeTable creates the table of user-defined types, new in
// format 8.
func (f *File) createTypeTable() error {
	_, err := f.conn.ExecContext(ctx, `CREATE TABLE deltaview_types (name TEXT PRIMARY KEY, kind TEXT NOT NULL,
		oid INTEGER NOT NULL, array_oid INTEGER NOT NULL, labels TEXT NOT NULL) STRICT`)
	return err
}

var _ engine.TypeStore = (*File)(nil)

// SaveType implements engine.TypeStore.
func (f *File) SaveType(old string, t engine.StoredType) error {
	kind, def := "enum", any(t.Labels)
	if t.Range != nil {
		kind, def = "range", t.Range
	}
	labels, err := json.Marshal(def)
	if err != nil {
		return err
	}
	return f.inTransaction(func() error {
		if old != "" {
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_types WHERE name = ?", old); err != nil {
				return err
			}
		}
		_, err := f.conn.ExecContext(ctx, "INSERT OR REPLACE INTO deltaview_types VALUES (?, ?, ?, ?, ?)",
			t.Name, kind, t.OID, t.ArrayOID, string(labels))
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
	rows, err := f.conn.QueryContext(ctx, "SELECT name, kind, oid, array_oid, labels FROM deltaview_types ORDER BY oid")
	if err != nil {
		return nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var out []engine.StoredType
	for rows.Next() {
		var t engine.StoredType
		var kind, labels string
		if err := rows.Scan(&t.Name, &kind, &t.OID, &t.ArrayOID, &labels); err != nil {
			return nil, f.mapErr("read", err)
		}
		var def any = &t.Labels
		if kind == "range" {
			t.Range = &engine.StoredRange{}
			def = t.Range
		}
		if err := json.Unmarshal([]byte(labels), def); err != nil {
			return nil, f.mapErr("read", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, f.mapErr("read", err)
	}
	return out, nil
}
