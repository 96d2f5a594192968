package store

import (
	"github.com/deltaview/deltaview/internal/engine"
)

// Sequences keep their definition and state in the table
// deltaview_sequences (format 5), one row per sequence, replaced whole by
// each change: CREATE and ALTER SEQUENCE, setval, and each reserve of
// numbers nextval takes (the engine writes a sequence ahead of the numbers
// it hands out: see engine/sequence.go), each a SQLite transaction of its
// own. The sequences load before the tables, whose defaults call them;
// a serial column's statement, run again, keeps the sequence it owns.

// createSequenceTable creates the table of sequences, new in format 5.
func (f *File) createSequenceTable() error {
	_, err := f.conn.ExecContext(ctx, `CREATE TABLE deltaview_sequences (name TEXT PRIMARY KEY, type TEXT NOT NULL,
		increment INTEGER NOT NULL, min INTEGER NOT NULL, max INTEGER NOT NULL, start INTEGER NOT NULL, cache INTEGER NOT NULL,
		cycle INTEGER NOT NULL, last_value INTEGER NOT NULL, is_called INTEGER NOT NULL,
		owner_table TEXT NOT NULL, owner_column TEXT NOT NULL, identity INTEGER NOT NULL) STRICT`)
	return err
}

var _ engine.SequenceStore = (*File)(nil)

// SaveSequence implements engine.SequenceStore.
func (f *File) SaveSequence(s engine.StoredSequence) error {
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, `INSERT OR REPLACE INTO deltaview_sequences VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			s.Name, s.Type, s.Increment, s.Min, s.Max, s.Start, s.Cache, s.Cycle, s.Last, s.Called, s.OwnerTable, s.OwnerColumn, s.Identity)
		return err
	})
}

// DropSequences implements engine.SequenceStore.
func (f *File) DropSequences(names []string) error {
	return f.inTransaction(func() error {
		for _, n := range names {
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_sequences WHERE name = ?", n); err != nil {
				return err
			}
		}
		return nil
	})
}

// Sequences returns the stored sequences; none in a file of a format
// before 5, opened read-only.
func (f *File) Sequences() ([]engine.StoredSequence, error) {
	if f.version < 5 {
		return nil, nil
	}
	rows, err := f.conn.QueryContext(ctx, `SELECT name, type, increment, min, max, start, cache, cycle, last_value, is_called,
		owner_table, owner_column, identity FROM deltaview_sequences ORDER BY name`)
	if err != nil {
		return nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var out []engine.StoredSequence
	for rows.Next() {
		var s engine.StoredSequence
		if err := rows.Scan(&s.Name, &s.Type, &s.Increment, &s.Min, &s.Max, &s.Start, &s.Cache, &s.Cycle, &s.Last, &s.Called,
			&s.OwnerTable, &s.OwnerColumn, &s.Identity); err != nil {
			return nil, f.mapErr("read", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, f.mapErr("read", err)
	}
	return out, nil
}
