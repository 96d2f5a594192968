package store

import (
	"fmt"
	"maps"

	"github.com/deltaview/deltaview/internal/engine"
)

// block is the one SQLite transaction of a transaction block that changed
// the catalog: what the file's statements were at its start and at each of
// its marks, so that a rollback gives back the statements of the tables it
// brings back, and the statements of the tables it dropped, closed only
// when the block commits.
type block struct {
	tables map[string]*tableStmts // at BEGIN
	ts     uint64
	marks  []map[string]*tableStmts
	// closeLater are the statements of tables dropped or replaced in the
	// block: a rollback may bring them back.
	closeLater []*tableStmts
}

var _ engine.BlockStore = (*File)(nil)

// BeginBlock implements engine.BlockStore.
func (f *File) BeginBlock() error {
	if f.readOnly {
		return f.errReadOnly()
	}
	if f.blk != nil {
		return fmt.Errorf("a transaction block is open already")
	}
	if _, err := f.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return f.mapErr("begin a transaction in", err)
	}
	f.blk = &block{tables: maps.Clone(f.tables), ts: f.ts}
	return nil
}

// Mark implements engine.BlockStore.
func (f *File) Mark() (int, error) {
	n := len(f.blk.marks)
	if _, err := f.conn.ExecContext(ctx, fmt.Sprintf("SAVEPOINT dv_mark_%d", n)); err != nil {
		return 0, f.mapErr("write", err)
	}
	f.blk.marks = append(f.blk.marks, maps.Clone(f.tables))
	return n, nil
}

// RollbackTo implements engine.BlockStore.
func (f *File) RollbackTo(mark int) error {
	b := f.blk
	if b == nil || mark >= len(b.marks) {
		return fmt.Errorf("no mark %d in the transaction block", mark)
	}
	sp := fmt.Sprintf("dv_mark_%d", mark)
	if _, err := f.conn.ExecContext(ctx, "ROLLBACK TO "+sp); err != nil {
		return f.mapErr("write", err)
	}
	if _, err := f.conn.ExecContext(ctx, "RELEASE "+sp); err != nil {
		return f.mapErr("write", err)
	}
	f.restoreTables(b.marks[mark])
	clear(b.marks[mark:])
	b.marks = b.marks[:mark]
	return nil
}

// Stage implements engine.BlockStore.
func (f *File) Stage() error {
	if !f.inTx {
		return nil
	}
	f.inTx = false
	if _, err := f.conn.ExecContext(ctx, "RELEASE dv_write"); err != nil {
		return f.mapErr("write", err)
	}
	return nil
}

// EndBlock implements engine.BlockStore.
func (f *File) EndBlock(commit bool) error {
	b := f.blk
	if b == nil {
		return nil
	}
	if commit {
		return f.commitBlock()
	}
	f.blk = nil
	f.inTx = false
	f.rollback()
	f.restoreTables(b.tables)
	for _, t := range b.closeLater {
		if !held(f.tables, t) {
			t.close()
		}
	}
	f.ts = b.ts
	return nil
}

// commitBlock commits the block's SQLite transaction.
func (f *File) commitBlock() error {
	b := f.blk
	if f.inTx {
		f.inTx = false
		if _, err := f.conn.ExecContext(ctx, "RELEASE dv_write"); err != nil {
			f.EndBlock(false) //nolint:errcheck // rolls back in memory only
			return f.mapErr("write", err)
		}
	}
	if _, err := f.conn.ExecContext(ctx, "COMMIT"); err != nil {
		f.EndBlock(false) //nolint:errcheck // rolls back in memory only
		return f.mapErr("commit to", err)
	}
	f.blk = nil
	f.ts = max(f.ts, f.pending)
	for _, t := range b.closeLater {
		if !held(f.tables, t) {
			t.close()
		}
	}
	return nil
}

// inBlock runs fn inside the block's SQLite transaction, undoing what it
// wrote when it fails.
func (f *File) inBlock(fn func() error) error {
	if _, err := f.conn.ExecContext(ctx, "SAVEPOINT dv_stmt"); err != nil {
		return f.mapErr("write", err)
	}
	if err := fn(); err != nil {
		f.conn.ExecContext(ctx, "ROLLBACK TO dv_stmt") //nolint:errcheck // the block's rollback undoes it anyway
		f.conn.ExecContext(ctx, "RELEASE dv_stmt")     //nolint:errcheck
		return f.mapErr("write", err)
	}
	if _, err := f.conn.ExecContext(ctx, "RELEASE dv_stmt"); err != nil {
		return f.mapErr("write", err)
	}
	return nil
}

// undoWrite drops what the block's last Write staged.
func (f *File) undoWrite() {
	f.conn.ExecContext(ctx, "ROLLBACK TO dv_write") //nolint:errcheck // the block's rollback undoes it anyway
	f.conn.ExecContext(ctx, "RELEASE dv_write")     //nolint:errcheck
}

// closeStmts closes a table's statements, or, inside a block, keeps them
// until the block commits: its rollback brings the table back.
func (f *File) closeStmts(t *tableStmts) {
	if f.blk != nil {
		f.blk.closeLater = append(f.blk.closeLater, t)
		return
	}
	t.close()
}

// restoreTables makes m the tables' statements again, closing those of
// the tables the rollback took away.
func (f *File) restoreTables(m map[string]*tableStmts) {
	for _, t := range f.tables {
		if !held(m, t) {
			t.close()
		}
	}
	f.tables = maps.Clone(m)
}

func held(m map[string]*tableStmts, t *tableStmts) bool {
	for _, x := range m {
		if x == t {
			return true
		}
	}
	return false
}
