package store

import (
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// The transaction ids given out are kept in deltaview_meta under these
// keys: next_xid, the id up to which the engine may have given ids (a
// reserve, or the exact next id once the engine closed the file), and
// aborted_xids, the ids of the transactions rolled back, as their
// numbers separated by commas. While ids are given from a reserve,
// open_xids is the first id whose end the file may not know and
// committed_xids lists the ids committed since; a clean close removes
// both. When open_xids is there at open (a crash), every id from it up to
// next_xid that committed_xids does not list is aborted, as PostgreSQL
// reports the transactions a crash cut short. A file without these keys
// (written before they were kept) starts the ids again at 3; a deltaview
// that does not know them reads the file as before, so the format's
// version is unchanged.

var _ engine.XidStore = (*File)(nil)

// SaveXids implements engine.XidStore.
func (f *File) SaveXids(next int64, aborted []int64, from int64) error {
	return f.inTransaction(func() error {
		if _, err := f.conn.ExecContext(ctx, "INSERT OR REPLACE INTO deltaview_meta VALUES ('next_xid', ?)", next); err != nil {
			return err
		}
		if _, err := f.conn.ExecContext(ctx, "INSERT OR REPLACE INTO deltaview_meta VALUES ('aborted_xids', ?)", idList(aborted)); err != nil {
			return err
		}
		if from == 0 {
			_, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_meta WHERE key IN ('open_xids', 'committed_xids')")
			return err
		}
		_, err := f.conn.ExecContext(ctx, `INSERT INTO deltaview_meta VALUES ('open_xids', ?)
			ON CONFLICT (key) DO UPDATE SET value = min(CAST(value AS INTEGER), excluded.value)`, from)
		return err
	})
}

// CommitXid implements engine.XidStore.
func (f *File) CommitXid(id int64) error {
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, `INSERT INTO deltaview_meta VALUES ('committed_xids', ?)
			ON CONFLICT (key) DO UPDATE SET value = value || ',' || excluded.value`, strconv.FormatInt(id, 10))
		return err
	})
}

// idList is ids as their numbers separated by commas.
func idList(ids []int64) string {
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(list, ",")
}

// Xids returns the next transaction id and the ids rolled back that the
// file holds: 0 and none when it holds none.
func (f *File) Xids() (int64, []int64, error) {
	var next int64
	err := f.conn.QueryRowContext(ctx, "SELECT value FROM deltaview_meta WHERE key = 'next_xid'").Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, f.mapErr("read", err)
	}
	aborted, err := f.xidList("aborted_xids")
	if err != nil {
		return 0, nil, err
	}
	var from int64
	err = f.conn.QueryRowContext(ctx, "SELECT value FROM deltaview_meta WHERE key = 'open_xids'").Scan(&from)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return next, aborted, nil
	case err != nil:
		return 0, nil, f.mapErr("read", err)
	}
	// A crash: the ids given since from that did not commit are aborted
	// (those never given too, which no transaction holds).
	committed, err := f.xidList("committed_xids")
	if err != nil {
		return 0, nil, err
	}
	done := make(map[int64]bool, len(committed)+len(aborted))
	for _, id := range committed {
		done[id] = true
	}
	for _, id := range aborted {
		done[id] = true
	}
	for id := from; id < next; id++ {
		if !done[id] {
			aborted = append(aborted, id)
		}
	}
	return next, aborted, nil
}

// xidList reads the ids deltaview_meta holds under key.
func (f *File) xidList(key string) ([]int64, error) {
	var list string
	err := f.conn.QueryRowContext(ctx, "SELECT value FROM deltaview_meta WHERE key = ?", key).Scan(&list)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, f.mapErr("read", err)
	}
	var ids []int64
	for _, s := range strings.Split(list, ",") {
		if s == "" {
			continue
		}
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, pgerr.New(codeDataCorrupted, "database file %q: transaction id %q is not a number", f.path, s)
		}
		ids = append(ids, id)
	}
	return ids, nil
}
