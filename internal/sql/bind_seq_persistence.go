package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// SeqPersistence is ALTER SEQUENCE [IF EXISTS] name SET LOGGED | UNLOGGED
// (and ALTER TABLE of a sequence, as PostgreSQL allows): the sequence's
// pg_class.relpersistence. The engine writes a sequence's numbers to the
// file either way, as it writes an unlogged table's rows.
type SeqPersistence struct {
	Name string
	// Unlogged is each subcommand's: SET UNLOGGED true, SET LOGGED
	// false, in order.
	Unlogged  []bool
	MissingOk bool
	// Table: the statement is ALTER TABLE (which takes a sequence too).
	Table bool
}

func (*SeqPersistence) bound() {}

// bindSeqPersistence binds an ALTER SEQUENCE, or an ALTER TABLE of a
// sequence, whose subcommands are all SET LOGGED or SET UNLOGGED; ok is
// false for any other.
func (b *binder) bindSeqPersistence(as *pg_query.AlterTableStmt) (_ Bound, ok bool) {
	if as.Relation == nil || len(as.Cmds) == 0 {
		return nil, false
	}
	switch as.Objtype {
	case pg_query.ObjectType_OBJECT_SEQUENCE:
	case pg_query.ObjectType_OBJECT_TABLE:
		if k, exists := b.relationKind(as.Relation.Relname); !exists || k != KindSequence {
			return nil, false
		}
	default:
		return nil, false
	}
	out := &SeqPersistence{Name: as.Relation.Relname, MissingOk: as.MissingOk, Table: as.Objtype == pg_query.ObjectType_OBJECT_TABLE}
	for _, n := range as.Cmds {
		switch c := n.GetAlterTableCmd(); {
		case c == nil:
			return nil, false
		case c.Subtype == pg_query.AlterTableType_AT_SetLogged:
			out.Unlogged = append(out.Unlogged, false)
		case c.Subtype == pg_query.AlterTableType_AT_SetUnLogged:
			out.Unlogged = append(out.Unlogged, true)
		default:
			return nil, false
		}
	}
	return out, true
}
