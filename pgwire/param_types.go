package pgwire

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgbinary"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// declareParams gives st the parameter types the Parse message declared
// by oid, which resolve the statement as PostgreSQL's do: $1 declared
// date makes to_char($1, 'YYYY') to_char(date, text), and SELECT $1
// declared int4 returns int4. A built-in type's oid is read here; another
// (an enum, a composite, a domain, an extension's type) is named by the
// session's catalog. Oid 0, and unknown's, declare nothing: the type is
// deduced from the parameter's uses.
func (c *conn) declareParams(st *sql.Stmt, oids []uint32) error {
	for i, oid := range oids {
		if oid == 0 || oid == oidUnknown {
			continue
		}
		if oid == oidVoid {
			if st.Void == nil {
				st.Void = make([]bool, len(oids))
			}
			st.Void[i] = true
			continue
		}
		if t, ok := pgbinary.OIDType(oid); ok {
			if st.DeclaredTypes == nil {
				st.DeclaredTypes = make([]value.Type, len(oids))
			}
			st.DeclaredTypes[i] = t
			continue
		}
		name, ok := c.sess.TypeNameOf(oid)
		if !ok {
			return pgerr.New(pgerr.Internal, "cache lookup failed for type %d", oid)
		}
		n, err := sql.TypeNameNode(name)
		if err != nil {
			return err
		}
		if st.Declared == nil {
			st.Declared = make([]*pg_query.Node, len(oids))
		}
		st.Declared[i] = n
	}
	if st.DeclaredTypes == nil && st.Declared == nil && len(oids) > 0 {
		// Every parameter declared unknown: they still count, as
		// PostgreSQL counts them (SELECT 1 with one declared is 42P18).
		st.DeclaredTypes = make([]value.Type, len(oids))
	}
	return nil
}

// oidUnknown is the type unknown's oid, which declares no type.
const oidUnknown = 705

// oidVoid is the type void's oid, which declares an OUT parameter of a
// call (sql.Stmt.Void).
const oidVoid = 2278
