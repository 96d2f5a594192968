package store

import (
	"strconv"
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
)

// Domains (CREATE DOMAIN) keep the statements that create them in the
// table deltaview_domains (format 8), one row per domain in creation
// order, replaced by each change, each a SQLite transaction of its own.
// They load first: a table's column, a view's cast and a domain over
// another name them. Renaming a domain writes again, in the same
// transaction, the statements of the tables whose columns name it. A
// domain's pg_type.typdefault text, when it differs from its default's
// (StoredDomain.TypDefault), follows the statements as a last comment
// line (typDefaultMark), which a deltaview that does not know it runs
// as a comment.

// createDomainTable creates the table of domains, new in format 8.
func (f *File) createDomainTable() error {
	_, err := f.conn.ExecContext(ctx, `CREATE TABLE deltaview_domains (seq INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, sql TEXT NOT NULL) STRICT`)
	return err
}

var _ engine.DomainStore = (*File)(nil)

// SaveDomain implements engine.DomainStore.
func (f *File) SaveDomain(old string, d engine.StoredDomain, tables map[string]string) error {
	return f.inTransaction(func() error {
		q, args := "INSERT INTO deltaview_domains (name, sql) VALUES (?, ?)", []any{d.Name, withTypDefault(d)}
		if old != "" {
			q, args = "UPDATE deltaview_domains SET name = ?, sql = ? WHERE name = ?", append(args, old)
		}
		if _, err := f.conn.ExecContext(ctx, q, args...); err != nil {
			return err
		}
		for name, text := range tables {
			if _, err := f.conn.ExecContext(ctx, "UPDATE deltaview_catalog SET sql = ? WHERE name = ?", text, name); err != nil {
				return err
			}
		}
		return nil
	})
}

// DropDomains implements engine.DomainStore.
func (f *File) DropDomains(names []string) error {
	return f.inTransaction(func() error {
		for _, n := range names {
			if _, err := f.conn.ExecContext(ctx, "DELETE FROM deltaview_domains WHERE name = ?", n); err != nil {
				return err
			}
		}
		return nil
	})
}

// Domains returns the stored domains in creation order; none in a file
// of a format before 8, opened read-only.
func (f *File) Domains() ([]engine.StoredDomain, error) {
	if f.version < 8 {
		return nil, nil
	}
	rows, err := f.conn.QueryContext(ctx, "SELECT name, sql FROM deltaview_domains ORDER BY seq")
	if err != nil {
		return nil, f.mapErr("read", err)
	}
	defer rows.Close()
	var out []engine.StoredDomain
	for rows.Next() {
		var d engine.StoredDomain
		if err := rows.Scan(&d.Name, &d.SQL); err != nil {
			return nil, f.mapErr("read", err)
		}
		d.SQL, d.TypDefault = splitTypDefault(d.SQL)
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, f.mapErr("read", err)
	}
	return out, nil
}

// typDefaultMark opens the comment line that keeps a domain's
// typdefault text, quoted as a Go string so that it stays on one line.
const typDefaultMark = "\n-- typdefault "

// withTypDefault is the text stored for d: its statements, then its
// typdefault text when it has one of its own.
func withTypDefault(d engine.StoredDomain) string {
	if d.TypDefault == "" {
		return d.SQL
	}
	return d.SQL + typDefaultMark + strconv.Quote(d.TypDefault)
}

// splitTypDefault undoes withTypDefault.
func splitTypDefault(text string) (stmts, typDefault string) {
	i := strings.LastIndex(text, typDefaultMark)
	if i < 0 {
		return text, ""
	}
	t, err := strconv.Unquote(text[i+len(typDefaultMark):])
	if err != nil {
		return text, "" // not a line this package wrote: the statements are the whole text
	}
	return text[:i], t
}
