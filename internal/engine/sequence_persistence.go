package engine

import (
	"fmt"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// Unlogged sequences: CREATE UNLOGGED SEQUENCE, ALTER SEQUENCE … SET
// LOGGED | UNLOGGED, and the sequences a table's serial and identity
// columns own, which take the table's persistence when it is made and
// when ALTER TABLE … SET LOGGED | UNLOGGED changes it, as in PostgreSQL
// 15. Only pg_class.relpersistence (and so psql's "Unlogged sequence")
// shows it: the numbers are kept in the file either way. A store keeps an
// unlogged sequence's persistence as the statement that sets it
// (KindSeqPersistence), run again at open once the sequences are back;
// it follows the sequence's renames and goes with it.

// KindSeqPersistence is the kind of an unlogged sequence's persistence in
// the store: an ALTER SEQUENCE … SET UNLOGGED statement.
const KindSeqPersistence RelKind = "sequence persistence"

func seqPersistenceName(key string) string { return "persistence of " + key }

// seqPersistence runs ALTER SEQUENCE … SET LOGGED | UNLOGGED.
func (s *Session) seqPersistence(a *sql.SeqPersistence) (Result, error) {
	e := s.e
	tag := map[bool]string{false: "ALTER SEQUENCE", true: "ALTER TABLE"}[a.Table]
	q := e.seqs[a.Name]
	if q == nil {
		switch {
		case e.relationExists(a.Name):
			return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a sequence", e.bareName(a.Name))
		case a.MissingOk:
			return Result{Tag: tag, Notices: []string{fmt.Sprintf("relation %q does not exist, skipping", a.Name)}}, nil
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "relation %q does not exist", a.Name)
	}
	if isTemp(q.name) {
		return Result{}, pgerr.New(pgerr.InvalidTableDef, "cannot change logged status of table %q because it is temporary", q.label())
	}
	// A subcommand that changes nothing is skipped; one after a change
	// is refused, as PostgreSQL's ATPrepCmd does.
	to, changed := q.unlogged, false
	for _, u := range a.Unlogged {
		switch {
		case u == to:
		case changed:
			return Result{}, pgerr.New(pgerr.FeatureNotSupported, "cannot change persistence setting twice")
		default:
			to, changed = u, true
		}
	}
	if err := e.setSeqPersistence(q, to); err != nil {
		return Result{}, err
	}
	return Result{Tag: tag}, nil
}

// setSeqPersistence makes q unlogged or logged, in memory and in the
// store.
func (e *Engine) setSeqPersistence(q *sequence, unlogged bool) error {
	if q.unlogged == unlogged {
		return nil
	}
	q.unlogged = unlogged
	return e.saveSeqPersistence(q.name, q)
}

// saveSeqPersistence records the persistence of the sequence keyed key
// (q, or none when nil): the statement of an unlogged one, nothing for a
// logged one.
func (e *Engine) saveSeqPersistence(key string, q *sequence) error {
	if e.store == nil || isTemp(key) {
		return nil
	}
	if err := e.store.Drop([]string{seqPersistenceName(key)}); err != nil {
		return err
	}
	if q == nil || !q.unlogged {
		return nil
	}
	text := "ALTER SEQUENCE " + sql.QuoteIdent(key) + " SET UNLOGGED"
	return e.store.Create(&StoredRelation{Name: seqPersistenceName(key), Kind: KindSeqPersistence, SQL: text})
}

// ownedSeqsPersistence gives the sequences table's columns own the
// table's new persistence, as PostgreSQL's ALTER TABLE … SET LOGGED |
// UNLOGGED does.
func (e *Engine) ownedSeqsPersistence(table string, unlogged bool) error {
	for _, k := range sortedKeys(e.seqs) {
		if q := e.seqs[k]; q.owner[0] == table {
			if err := e.setSeqPersistence(q, unlogged); err != nil {
				return err
			}
		}
	}
	return nil
}
