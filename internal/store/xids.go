package store

import (
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// The transaction ids given out are kept in deltaview_meta under two
// keys: next_xid, the id up to which the engine may have given ids (a
// reserve, or the exact next id once the engine closed the file), and
// aborted_xids, the ids of the transactions rolled back, as their
// numbers separated by commas. A file without them (written before they
// were kept) starts the ids again at 3; a deltaview that does not know
// them reads the file as before, so the format's version is unchanged.

var _ engine.XidStore = (*File)(nil)

// SaveXids implements engine.XidStore.
func (f *File) SaveXids(next int64, aborted []int64) error {
	list := make([]string, len(aborted))
	for i, id := range aborted {
		list[i] = strconv.FormatInt(id, 10)
	}
	return f.inTransaction(func() error {
		if _, err := f.conn.ExecContext(ctx, "INSERT OR REPLACE INTO deltaview_meta VALUES ('next_xid', ?)", next); err != nil {
			return err
		}
		_, err := f.conn.ExecContext(ctx, "INSERT OR REPLACE INTO deltaview_meta VALUES ('aborted_xids', ?)", strings.Join(list, ","))
		return err
	})
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
	var list string
	err = f.conn.QueryRowContext(ctx, "SELECT value FROM deltaview_meta WHERE key = 'aborted_xids'").Scan(&list)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, nil, f.mapErr("read", err)
	}
	var aborted []int64
	for _, s := range strings.Split(list, ",") {
		if s == "" {
			continue
		}
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, nil, pgerr.New(codeDataCorrupted, "database file %q: aborted transaction id %q is not a number", f.path, s)
		}
		aborted = append(aborted, id)
	}
	return next, aborted, nil
}
