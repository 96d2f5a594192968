package sink

import (
	"context"
	"database/sql"
	"errors"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/jackc/pgx/v5"
)

// The progress table of a target database holds, per target table, the
// logical time (step) of the last commit applied to it and the epoch of
// the foreign table that applied it. Every target transaction writes its
// row, so the row commits or rolls back with the changes: after a lost
// connection, whose last COMMIT may or may not have happened, the row
// says which steps the table holds, and the sink skips them.
const progressDDL = `CREATE TABLE IF NOT EXISTS deltaview_progress (target text PRIMARY KEY, epoch text NOT NULL, step bigint NOT NULL)`

// progressUpsert records (target, epoch, step); ph is the dialect's
// placeholder prefix ("$" or "?").
func progressUpsert(ph string) string {
	return "INSERT INTO deltaview_progress (target, epoch, step) VALUES (" + ph + "1, " + ph + "2, " + ph + "3) " +
		"ON CONFLICT (target) DO UPDATE SET epoch = excluded.epoch, step = excluded.step"
}

// progress is a target's row of the progress table; ok is false when it
// has none.
type progress struct {
	epoch string
	step  uint64
	ok    bool
}

func (p *Postgres) progress(ctx context.Context) (progress, error) {
	var out progress
	var step int64
	err := p.conn.QueryRow(ctx, "SELECT epoch, step FROM deltaview_progress WHERE target = $1", p.table).Scan(&out.epoch, &step)
	if errors.Is(err, pgx.ErrNoRows) || pgerrCode(err) == pgerr.UndefinedTable {
		return out, nil
	}
	if err != nil {
		return out, p.err(err)
	}
	out.step, out.ok = uint64(step), true
	return out, nil
}

func (s *SQLite) progress(ctx context.Context) (progress, error) {
	var out progress
	var step int64
	err := s.db.QueryRowContext(ctx, "SELECT epoch, step FROM deltaview_progress WHERE target = ?1", s.table).Scan(&out.epoch, &step)
	if errors.Is(err, sql.ErrNoRows) {
		return out, nil
	}
	if err != nil {
		var n int
		if s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'deltaview_progress'").Scan(&n) == nil && n == 0 {
			return out, nil
		}
		return out, s.err(err)
	}
	out.step, out.ok = uint64(step), true
	return out, nil
}

func (p *Postgres) mark(ctx context.Context, step uint64) error {
	_, err := p.conn.Exec(ctx, progressUpsert("$"), p.table, p.epoch, int64(step))
	return err
}

func (s *SQLite) mark(ctx context.Context, step uint64) error {
	_, err := s.db.ExecContext(ctx, progressUpsert("?"), s.table, s.epoch, int64(step))
	return err
}
