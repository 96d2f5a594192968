package engine

import (
	"cmp"
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// A partition's column numbers (attnum.go) are its own: a partition that
// exists when its root drops a column keeps the numbers of its other
// columns and a pg_attribute row of the dropped one, as PostgreSQL's
// recursion of DROP COLUMN leaves it, while one made after the drop
// numbers its columns from 1; ADD COLUMN gives each partition the number
// after its own greatest. Its statement in the store is followed by the
// ALTER TABLE ONLY … SET (attnums = …) that records them.

// keepPartitionNumbers numbers the columns of def, a partition's new
// definition bound again from old by an ALTER of its parent that renamed
// column from to to and dropped the columns dropped.
func keepPartitionNumbers(old, def *sql.CreateTable, from, to string, dropped []string) {
	def.Dropped = slices.Clone(old.Dropped)
	for i, c := range old.Cols {
		if slices.Contains(dropped, c.Name) {
			cd := c
			def.Dropped = append(def.Dropped, sql.DroppedColumn{Num: partAttnum(old, i), Def: &cd})
		}
	}
	if len(def.Dropped) == 0 {
		for i := range def.Cols {
			def.Cols[i].Attnum = 0 // by position; its root's are not its own
		}
		return
	}
	slices.SortFunc(def.Dropped, func(a, b sql.DroppedColumn) int { return cmp.Compare(a.Num, b.Num) })
	next := int16(len(old.Cols))
	for i := range old.Cols {
		next = max(next, partAttnum(old, i))
	}
	for _, d := range old.Dropped {
		next = max(next, d.Num)
	}
	for i := range def.Cols {
		name := def.Cols[i].Name
		if name == to && from != "" {
			name = from
		}
		if j := slices.IndexFunc(old.Cols, func(c sql.ColumnDef) bool { return c.Name == name }); j >= 0 {
			def.Cols[i].Attnum = partAttnum(old, j)
			continue
		}
		next++
		def.Cols[i].Attnum = next
	}
	fillDropped(def)
}

// partAttnum is the number of partition def's i-th column: its position
// while none was dropped (a partition bound from its parent's columns
// carries their numbers, which are not its own).
func partAttnum(def *sql.CreateTable, i int) int16 {
	if len(def.Dropped) == 0 {
		return int16(i + 1)
	}
	return def.Attnum(i)
}

// partitionText is a partition's statement as the store keeps it: text,
// then the command that records its columns' numbers.
func partitionText(text string, def *sql.CreateTable) string {
	if n := def.NumberingStmt(); n != "" {
		return text + "\n;\n" + n
	}
	return text
}

// numberPartition gives partition p the column numbers ap records, in a
// session restoring a database file; elsewhere the parameters are
// unknown, as PostgreSQL's.
func (e *Engine) numberPartition(p *partition, ap *sql.AlterPartition, restoring bool) (Result, error) {
	if !restoring {
		return Result{}, pgerr.New(pgerr.InvalidParameter, "unrecognized parameter %q", ap.Numbering)
	}
	p.def = ap.New
	p.text = partitionText(p.text, p.def)
	return Result{Tag: "ALTER TABLE"}, nil
}
