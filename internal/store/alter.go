package store

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/value"
)

// Alter implements engine.Store: in one SQLite transaction, the table
// old is replaced by r (its new name, statement and columns) holding the
// rows given, each under its row id; its privileges follow a new name.
func (f *File) Alter(old string, r *engine.StoredRelation, rows func(put func(id uint64, row value.Row) error) error) error {
	prev, ok := f.tables[old]
	if !ok {
		return fmt.Errorf("table %q is not in the store", old)
	}
	var next *tableStmts
	err := f.inTransaction(func() error {
		if _, err := f.conn.ExecContext(ctx, "DROP TABLE "+quote(prev.sqlName)); err != nil {
			return err
		}
		sqlName, err := f.tableName(r.Name)
		if err != nil {
			return err
		}
		if _, err := f.conn.ExecContext(ctx, "UPDATE deltaview_catalog SET name = ?, sql = ?, sql_name = ? WHERE name = ?", r.Name, r.SQL, sqlName, old); err != nil {
			return err
		}
		if _, err := f.conn.ExecContext(ctx, "UPDATE deltaview_grants SET relation = ? WHERE relation = ?", r.Name, old); err != nil {
			return err
		}
		defs := []string{"deltaview_row_id INTEGER PRIMARY KEY"}
		for i, name := range columnNames(r.Cols) {
			defs = append(defs, name+" "+storageType(r.Cols[i].Type.Kind))
		}
		defs = append(defs, tsColumn+" INTEGER")
		if _, err := f.conn.ExecContext(ctx, fmt.Sprintf("CREATE TABLE %s (%s)", quote(sqlName), strings.Join(defs, ", "))); err != nil {
			return err
		}
		next = &tableStmts{sqlName: sqlName, cols: r.Cols}
		ins, err := f.conn.PrepareContext(ctx, next.insertSQL(1))
		if err != nil {
			return err
		}
		defer ins.Close()
		ts := int64(f.ts)
		args := make([]any, len(r.Cols)+2)
		return rows(func(id uint64, row value.Row) error {
			args[0] = int64(id)
			for i, v := range row {
				args[i+1] = encode(v)
			}
			args[len(args)-1] = ts
			_, err := ins.ExecContext(ctx, args...)
			return err
		})
	})
	if err != nil {
		return err
	}
	f.closeStmts(prev)
	delete(f.tables, old)
	return f.prepare(r.Name, next.sqlName, r.Cols)
}

var _ engine.StatementStore = (*File)(nil)

// SetStatement implements engine.StatementStore: the relation keeps its
// place in the catalog's order, with the statement text run at open.
func (f *File) SetStatement(name, text string) error {
	if f.readOnly {
		return f.errReadOnly()
	}
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, "UPDATE deltaview_catalog SET sql = ? WHERE name = ?", text, name)
		return err
	})
}

var _ engine.OrderStore = (*File)(nil)

// MoveLast implements engine.OrderStore: the named catalog entries move
// after every other, keeping their order among themselves, so that at
// open each is created after what it reads.
func (f *File) MoveLast(names []string) error {
	if f.readOnly {
		return f.errReadOnly()
	}
	return f.inTransaction(func() error {
		type entry struct {
			name string
			seq  int64
		}
		var entries []entry
		for _, n := range names {
			var seq int64
			err := f.conn.QueryRowContext(ctx, "SELECT seq FROM deltaview_catalog WHERE name = ?", n).Scan(&seq)
			if errors.Is(err, sql.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			entries = append(entries, entry{n, seq})
		}
		slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.seq, b.seq) })
		for _, en := range entries {
			if _, err := f.conn.ExecContext(ctx, "UPDATE deltaview_catalog SET seq = (SELECT max(seq) FROM deltaview_catalog) + 1 WHERE name = ?", en.name); err != nil {
				return err
			}
		}
		return nil
	})
}
