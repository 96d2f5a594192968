package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// COPY … FROM … (FREEZE). PostgreSQL writes the rows frozen, which no
// client sees, and allows it only into a table created or truncated in
// the current subtransaction. The session keeps, for its open
// transaction block, the tables (by the name COPY gives: a partition's
// own, following a rename) that it created or truncated, each with the savepoints open then
// (their numbers, outermost first). A table is fresh when the savepoints
// open now are those, or a prefix of those: a savepoint released hands
// what it did to the one around it, as PostgreSQL hands a committed
// subtransaction's to its parent. ROLLBACK TO a savepoint forgets what
// was done after it was set (undone), and PostgreSQL's new subtransaction
// after it is fresh to nothing done before.

// noteFresh records the tables b, which succeeded, created or truncated.
func (s *Session) noteFresh(b sql.Bound) {
	if !s.block {
		return // the statement was its own transaction
	}
	var names []string
	switch b := b.(type) {
	case *sql.AlterTable:
		// A table renamed keeps its mark, as PostgreSQL's follows the
		// relation, not its name.
		if path, ok := s.fresh[b.Table]; ok && b.New != nil && b.New.Name != b.Table {
			delete(s.fresh, b.Table)
			s.fresh[b.New.Name] = path
		}
		return
	case *sql.CreateTable:
		names = []string{b.Name}
	case *sql.CreateTableAs:
		names = []string{b.Table.Name}
	case *sql.Truncate:
		for i, name := range b.Tables {
			if i < len(b.Partitions) && b.Partitions[i] != nil {
				name = b.Partitions[i].Name
			}
			names = append(names, name)
		}
	default:
		return
	}
	if s.fresh == nil {
		s.fresh = map[string][]uint64{}
	}
	path := s.savepointPath()
	for _, n := range names {
		s.fresh[n] = path
	}
}

// savepointPath is the numbers of the savepoints open, outermost first.
func (s *Session) savepointPath() []uint64 {
	path := make([]uint64, len(s.savepoints))
	for i, sp := range s.savepoints {
		path[i] = sp.seq
	}
	return path
}

// forgetFresh forgets what was created or truncated after savepoint i
// was set, which ROLLBACK TO it undoes.
func (s *Session) forgetFresh(i int) {
	seq := s.savepoints[i].seq
	for name, path := range s.fresh {
		if len(path) > i && path[i] == seq {
			delete(s.fresh, name)
		}
	}
}

// checkFreeze refuses COPY … FREEZE as PostgreSQL does: into a
// partitioned table (0A000), or a table not created or truncated in the
// current subtransaction (55000).
func (s *Session) checkFreeze(c *sql.Copy) error {
	if t, ok := s.e.tables[c.Table]; ok && c.Partition == nil && t.def.PartitionBy != nil {
		return pgerr.New(pgerr.FeatureNotSupported, "cannot perform COPY FREEZE on a partitioned table")
	}
	name := c.Table
	if c.Partition != nil {
		name = c.Partition.Name
	}
	path, ok := s.fresh[name]
	if cur := s.savepointPath(); !ok || !s.block || len(cur) > len(path) || !slices.Equal(cur, path[:len(cur)]) {
		return pgerr.New(pgerr.ObjectNotInPrereqState,
			"cannot perform COPY FREEZE because the table was not created or truncated in the current subtransaction")
	}
	return nil
}
