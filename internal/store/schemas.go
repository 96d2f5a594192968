package store

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/sql"
)

// Schemas (CREATE SCHEMA) are kept in the table deltaview_schemas
// (format 10), one row per schema with its owner and the privileges
// granted on it ("role=bits,…", the role empty for PUBLIC, in the order of
// their grants), each change
// a SQLite transaction of its own. They load before every relation,
// which may be in one. The relations of a schema are in
// deltaview_catalog under their keys ("schema.name").

// createSchemaTable creates the table of schemas, new in format 10.
func (f *File) createSchemaTable() error {
	_, err := f.conn.ExecContext(ctx, `CREATE TABLE deltaview_schemas (name TEXT PRIMARY KEY, owner TEXT NOT NULL, grants TEXT NOT NULL) STRICT`)
	return err
}

var _ engine.SchemaStore = (*File)(nil)

// SaveSchema implements engine.SchemaStore.
func (f *File) SaveSchema(s engine.StoredSchema) error {
	if f.readOnly {
		return f.errReadOnly()
	}
	// The grantees in the order of their grants, then any other.
	var grants []string
	seen := map[string]bool{}
	for _, role := range append(slices.Clone(s.Order), slices.Sorted(maps.Keys(s.Grants))...) {
		if p, ok := s.Grants[role]; ok && !seen[role] {
			seen[role] = true
			grants = append(grants, role+"="+strconv.Itoa(int(p)))
		}
	}
	if s.Grants != nil && len(grants) == 0 {
		// A schema whose every grant was revoked keeps an ACL (its
		// owner's item), as in PostgreSQL: PUBLIC's nothing marks it.
		grants = []string{"=0"}
	}
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, "INSERT OR REPLACE INTO deltaview_schemas VALUES (?, ?, ?)", s.Name, s.Owner, strings.Join(grants, ","))
		return err
	})
}

// DropSchema implements engine.SchemaStore.
func (f *File) DropSchema(name string) error {
	if f.readOnly {
		return f.errReadOnly()
	}
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_schemas WHERE name = ?", name)
		return err
	})
}

// RenameSchema implements engine.SchemaStore.
func (f *File) RenameSchema(old, new string) error {
	if f.readOnly {
		return f.errReadOnly()
	}
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, "UPDATE deltaview_schemas SET name = ? WHERE name = ?", new, old)
		return err
	})
}

// Schemas returns the stored schemas; none in a file of a format before
// 10, opened read-only.
func (f *File) Schemas() ([]engine.StoredSchema, error) {
	if f.version < 10 {
		return nil, nil
	}
	rows, err := f.conn.QueryContext(ctx, "SELECT name, owner, grants FROM deltaview_schemas ORDER BY name")
	if err != nil {
		return nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var out []engine.StoredSchema
	for rows.Next() {
		var s engine.StoredSchema
		var grants string
		if err := rows.Scan(&s.Name, &s.Owner, &grants); err != nil {
			return nil, f.mapErr("read", err)
		}
		for _, g := range strings.Split(grants, ",") {
			role, bits, ok := strings.Cut(g, "=")
			if !ok {
				continue
			}
			n, err := strconv.Atoi(bits)
			if err != nil {
				return nil, f.mapErr("read", err)
			}
			if s.Grants == nil {
				s.Grants = map[string]sql.Privilege{}
			}
			s.Grants[role] = sql.Privilege(n)
			s.Order = append(s.Order, role)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, f.mapErr("read", err)
	}
	return out, nil
}
