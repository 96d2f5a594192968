package store

import (
	"strings"

	"github.com/deltaview/deltaview/internal/engine"
	isql "github.com/deltaview/deltaview/internal/sql"
)

// Files of format 11 and earlier kept a table's REFERENCES and TRIGGER
// only within ALL: a grant of SELECT, INSERT, UPDATE, DELETE and TRUNCATE
// held them too (arwdDxt), with their grant options when those five had
// theirs, and a default privilege on TABLES spelt so was ALL. Format 12
// spells them wherever they are held; an older file is read as it meant.

// oldTableAll is the five privileges an older file's ALL on a table held.
const oldTableAll = isql.PrivAll

// olderTableGrant is p, read from a file of format 11 or earlier, with the
// REFERENCES and TRIGGER that ALL held there.
func olderTableGrant(p isql.Privilege) isql.Privilege {
	if p.Plain()&oldTableAll != oldTableAll || p&isql.PrivUsage != 0 {
		return p // not ALL, or a sequence's privileges
	}
	p |= isql.PrivReferences | isql.PrivTrigger
	if p.Options()&oldTableAll == oldTableAll {
		p |= (isql.PrivReferences | isql.PrivTrigger).WithOption()
	}
	return p
}

// olderDefaultACL is an older file's default privileges statements with
// their ALL on TABLES spelt as ALL.
func olderDefaultACL(stmts string) string {
	return strings.ReplaceAll(stmts, " GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON TABLES ", " GRANT ALL ON TABLES ")
}

// spellTableAll brings the grants and default privileges of a file of
// format 11 or earlier to format 12 (see above).
func (f *File) spellTableAll() error {
	rows, err := f.conn.QueryContext(ctx, "SELECT rowid, privileges FROM deltaview_grants WHERE privileges <> ''")
	if err != nil {
		return err
	}
	type row struct {
		id    int64
		privs string
	}
	var changed []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.privs); err != nil {
			rows.Close()
			return err
		}
		p, err := parsePrivileges(r.privs)
		if err != nil {
			rows.Close()
			return err
		}
		if q := olderTableGrant(p); q != p {
			changed = append(changed, row{r.id, formatPrivileges(q)})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range changed {
		if _, err := f.conn.ExecContext(ctx, "UPDATE deltaview_grants SET privileges = ? WHERE rowid = ?", r.privs, r.id); err != nil {
			return err
		}
	}
	rows, err = f.conn.QueryContext(ctx, "SELECT rowid, sql FROM deltaview_catalog WHERE kind = ?", string(engine.KindDefaultACL))
	if err != nil {
		return err
	}
	changed = changed[:0]
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.privs); err != nil {
			rows.Close()
			return err
		}
		if s := olderDefaultACL(r.privs); s != r.privs {
			changed = append(changed, row{r.id, s})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range changed {
		if _, err := f.conn.ExecContext(ctx, "UPDATE deltaview_catalog SET sql = ? WHERE rowid = ?", r.privs, r.id); err != nil {
			return err
		}
	}
	return nil
}
