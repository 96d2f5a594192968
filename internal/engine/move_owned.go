package engine

import (
	"fmt"
	"strings"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// ALTER TABLE … SET SCHEMA moves the sequences that the table's serial and
// identity columns own with it, as PostgreSQL does: each keeps its name
// and state, and takes the key of the new schema. PostgreSQL's defaults
// follow their sequence by its oid; here a default names its sequence's
// key, so the table's new definition is given defaults that name the new
// keys before it is recorded, and its statement in the database file
// (written from that definition) names them too.

// ownedMove is the re-keying of the sequences a moved table owns.
type ownedMove struct {
	seqs     []*sequence
	from, to []string // each sequence's key before and after
}

// moveOwned re-keys, in memory, the sequences the table a moves to
// another schema owns, and points the defaults of a.New at their new
// keys. A sequence whose new key is taken is 42P07, as in PostgreSQL; a
// sequence another table's default calls is refused (0A000): that
// default names it by its key. The caller ends with done once the table
// is altered, or undo when it is not; nil (nothing to move) takes both.
func (e *Engine) moveOwned(a *sql.AlterTable) (*ownedMove, error) {
	if a.Table == a.New.Name {
		return nil, nil
	}
	from, _ := e.splitKey(a.Table)
	to := "public"
	if i := strings.IndexByte(a.New.Name, '.'); i > 0 && (e.schemas[a.New.Name[:i]] != nil || isTemp(a.New.Name)) {
		to = a.New.Name[:i]
	}
	if from == to {
		return nil, nil
	}
	m := &ownedMove{}
	for _, k := range sortedKeys(e.seqs) {
		q := e.seqs[k]
		if q.owner[0] != a.Table {
			continue
		}
		bare := e.bareName(k)
		nk := schemaKey(to, bare)
		if e.relationExists(nk) {
			return nil, pgerr.New(pgerr.DuplicateTable, "relation %q already exists in schema %q", bare, to)
		}
		for _, u := range e.seqUsers(k) {
			if !strings.HasSuffix(u, " of table "+a.Table) {
				return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE %s SET SCHEMA is not supported: the default of %s calls its sequence %s", a.Table, u, k).
					WithHint("that default names the sequence where it is: set it to call the sequence's new name after the move, or drop it first")
			}
		}
		m.seqs, m.from, m.to = append(m.seqs, q), append(m.from, k), append(m.to, nk)
	}
	if len(m.seqs) == 0 {
		return nil, nil
	}
	for i, q := range m.seqs {
		delete(e.seqs, m.from[i])
		q.name = m.to[i]
		e.seqs[m.to[i]] = q
	}
	for i := range a.New.Cols {
		c := &a.New.Cols[i]
		for j, k := range m.from {
			if c.Default == nil || !callsSequence(c.Default, k) {
				continue
			}
			if c.DefaultSQL != "" && c.DefaultSQL != sql.SerialDefault(k) {
				m.undo(e)
				return nil, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE %s SET SCHEMA is not supported: the default of its column %s calls sequence %s in an expression", a.Table, c.Name, k).
					WithHint("set the column's default to nextval('%s') alone before the move", k)
			}
			c.Default = retargetSeq(c.Default, m.to[j])
			if c.DefaultSQL != "" {
				c.DefaultSQL = sql.SerialDefault(m.to[j])
			}
		}
	}
	for _, cs := range a.New.Sequences {
		if j := indexOf(m.from, cs.Name); j >= 0 {
			cs.Name = m.to[j]
		}
	}
	return m, nil
}

// undo gives the sequences their keys back.
func (m *ownedMove) undo(e *Engine) {
	if m == nil {
		return
	}
	for i, q := range m.seqs {
		delete(e.seqs, m.to[i])
		q.name = m.from[i]
		e.seqs[m.from[i]] = q
	}
}

// done records the sequences under their new keys (their owners are
// recorded by the ALTER's ownedAlter) and forgets the old ones.
func (m *ownedMove) done(e *Engine) error {
	if m == nil {
		return nil
	}
	for i, q := range m.seqs {
		if err := e.saveSequence(q); err != nil {
			return err
		}
		if q.unlogged { // its persistence follows it
			if err := e.saveSeqPersistence(m.from[i], nil); err != nil {
				return err
			}
			if err := e.saveSeqPersistence(q.name, q); err != nil {
				return err
			}
		}
	}
	return e.forgetStoredSequences(m.from)
}

// forgetStoredSequences drops the sequences named from the store only:
// their keys, which the catalog no longer holds.
func (e *Engine) forgetStoredSequences(names []string) error {
	ss := e.seqStore()
	if ss == nil {
		return nil
	}
	e.seqStoreMu.Lock()
	defer e.seqStoreMu.Unlock()
	return ss.DropSequences(names)
}

// retargetSeq is a serial or identity column's default d calling the
// sequence keyed key instead: nextval(key), cast to the column's type
// as before.
func retargetSeq(d expr.Expr, key string) expr.Expr {
	switch n := d.(type) {
	case *expr.Cast:
		c := *n
		c.E = retargetSeq(n.E, key)
		return &c
	case *expr.SeqCall:
		c := *n
		c.Args = append([]expr.Expr{&expr.Const{V: value.NewText(value.Text, sql.SeqText(key)), T: value.TextType}}, n.Args[1:]...)
		return &c
	}
	panic(fmt.Sprintf("deltaview: a serial column's default is %T", d))
}

func indexOf(s []string, v string) int {
	if v == "" {
		return -1
	}
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// routineMoved is stmts, the statements kept for a routine, rewritten to
// make it in its new schema directly when ALTER … SET SCHEMA moves it
// from sig to newSig (sql.MovedRoutineText): replayed when a database
// file opens, statements that made it in its old schema would need that
// schema, which may be gone by then. ok is false for another ALTER, or
// statements that cannot be rewritten (they are kept as they are).
func (e *Engine) routineMoved(sig, newSig, stmts string) (string, bool) {
	schemaOf := func(sig string) string {
		name, _, _ := strings.Cut(sig, "(")
		s, _ := e.splitKey(name)
		return s
	}
	to := schemaOf(newSig)
	if schemaOf(sig) == to {
		return "", false
	}
	return sql.MovedRoutineText(stmts, to)
}
