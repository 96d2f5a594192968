package store

import (
	"github.com/deltaview/deltaview/internal/engine"
)

// Subscriptions (CREATE SUBSCRIPTION) keep their state in the table
// deltaview_subscriptions: the statement's terms (the connection string
// as given, password included, as PostgreSQL keeps it in
// pg_subscription), whether the subscription is enabled, whether its
// initial copy is committed, and the upstream LSN of the last transaction
// applied. The position is written by the commit that applies the
// transaction, in its SQLite transaction (Write), so that a restart
// resumes the stream from exactly what the tables hold. The statements
// themselves are each a SQLite transaction of their own.

// createSubscriptionTable creates the table of subscriptions, new in
// format 3.
func (f *File) createSubscriptionTable() error {
	_, err := f.conn.ExecContext(ctx, `CREATE TABLE deltaview_subscriptions (name TEXT PRIMARY KEY, conninfo TEXT NOT NULL,
		publication TEXT NOT NULL, slot TEXT NOT NULL, change_stream INTEGER NOT NULL, enabled INTEGER NOT NULL,
		copied INTEGER NOT NULL DEFAULT 0, lsn INTEGER NOT NULL DEFAULT 0) STRICT`)
	return err
}

// SaveSubscription implements engine.Store: a new subscription has no
// position; a changed one keeps its own.
func (f *File) SaveSubscription(s engine.StoredSubscription) error {
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, `INSERT INTO deltaview_subscriptions (name, conninfo, publication, slot, change_stream, enabled)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET enabled = excluded.enabled`,
			s.Name, s.Conn, s.Publication, s.Slot, s.ChangeStream, s.Enabled)
		return err
	})
}

// DropSubscription implements engine.Store.
func (f *File) DropSubscription(name string) error {
	return f.inTransaction(func() error {
		_, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_subscriptions WHERE name = ?", name)
		return err
	})
}

// writeSource records a subscription's position within the commit's
// SQLite transaction.
func (f *File) writeSource(p *engine.SourcePosition) error {
	_, err := f.conn.ExecContext(ctx, "UPDATE deltaview_subscriptions SET copied = 1, lsn = ? WHERE name = ?", int64(p.LSN), p.Subscription)
	return err
}

// Subscriptions returns the stored subscriptions, by name.
func (f *File) Subscriptions() ([]engine.StoredSubscription, error) {
	if f.version < 3 {
		return nil, nil // a format 2 file opened read-only keeps none
	}
	rows, err := f.conn.QueryContext(ctx, "SELECT name, conninfo, publication, slot, change_stream, enabled, copied, lsn FROM deltaview_subscriptions ORDER BY name")
	if err != nil {
		return nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var out []engine.StoredSubscription
	for rows.Next() {
		var s engine.StoredSubscription
		var lsn int64
		if err := rows.Scan(&s.Name, &s.Conn, &s.Publication, &s.Slot, &s.ChangeStream, &s.Enabled, &s.Copied, &lsn); err != nil {
			return nil, f.mapErr("read", err)
		}
		s.LSN = uint64(lsn)
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, f.mapErr("read", err)
	}
	return out, nil
}
