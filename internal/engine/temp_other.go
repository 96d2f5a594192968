// Another session's temporary relations: a DROP reaches them by their
// schema's name (DROP TABLE pg_temp_N.t), as PostgreSQL lets a superuser
// or their owner drop them; every other statement is refused them (0A000
// "cannot access temporary tables of other sessions"). Their session
// forgets them at its next statement (tempNames, forgetTemps).
package engine

import (
	"strconv"
	"strings"
	"sync/atomic"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/sql"
)

// dropsOther reports whether st is a DROP that may name another
// session's temporary relations: DROP TABLE, VIEW, SEQUENCE or INDEX.
func dropsOther(st *sql.Stmt) bool {
	d := st.Node.GetDropStmt()
	if d == nil {
		return false
	}
	switch d.RemoveType {
	case pg_query.ObjectType_OBJECT_TABLE, pg_query.ObjectType_OBJECT_VIEW,
		pg_query.ObjectType_OBJECT_SEQUENCE, pg_query.ObjectType_OBJECT_INDEX:
		return true
	}
	return false
}

// tempSchemaExists reports whether schema is pg_temp_N of a session that
// made a temporary object (pg_namespace lists it).
func (e *Engine) tempSchemaExists(schema string) bool {
	n, err := strconv.ParseUint(strings.TrimPrefix(schema, tempPrefix), 10, 64)
	return err == nil && n > 0 && n <= atomic.LoadUint64(&e.tempSessions)
}

// tempExists reports whether a session's temporary relation keyed key
// is still there: another session's DROP may have taken it.
func (e *Engine) tempExists(key string) bool {
	_, ok := e.kindOf(key)
	return ok || e.seqs[key] != nil || e.indexes[key] != nil
}
