package store

import (
	"github.com/deltaview/deltaview/internal/engine"
)

// Comments (COMMENT ON) keep their text in the table deltaview_comments
// (format 7), one row per object and column ("" for the object itself),
// an object's rows replaced whole by each change, each a SQLite
// transaction of its own. They load after the relations they describe.

// createCommentTable creates the table of comments, new in format 7.
func (f *File) createCommentTable() error {
	_, err := f.conn.ExecContext(ctx, `CREATE TABLE deltaview_comments (object TEXT NOT NULL, col TEXT NOT NULL, comment TEXT NOT NULL,
		PRIMARY KEY (object, col)) STRICT`)
	return err
}

var _ engine.CommentStore = (*File)(nil)

// SaveComments implements engine.CommentStore.
func (f *File) SaveComments(object string, comments map[string]string) error {
	return f.inTransaction(func() error {
		if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_comments WHERE object = ?", object); err != nil {
			return err
		}
		for col, text := range comments {
			if _, err := f.conn.ExecContext(ctx, "INSERT INTO deltaview_comments VALUES (?, ?, ?)", object, col, text); err != nil {
				return err
			}
		}
		return nil
	})
}

// Comments returns the stored comments; none in a file of a format
// before 7, opened read-only.
func (f *File) Comments() ([]engine.StoredComment, error) {
	if f.version < 7 {
		return nil, nil
	}
	rows, err := f.conn.QueryContext(ctx, "SELECT object, col, comment FROM deltaview_comments ORDER BY object, col")
	if err != nil {
		return nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var out []engine.StoredComment
	for rows.Next() {
		var c engine.StoredComment
		if err := rows.Scan(&c.Object, &c.Column, &c.Text); err != nil {
			return nil, f.mapErr("read", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, f.mapErr("read", err)
	}
	return out, nil
}
