package engine

import (
	"github.com/deltaview/deltaview/internal/sql"
	"github.com/deltaview/deltaview/internal/value"
)

// generated is a table's stored generated columns (GENERATED ALWAYS AS
// (…) STORED), worked out once per definition of the table: a table
// without one pays a pointer comparison per row written.
type generated struct {
	of   *sql.CreateTable // the definition cols was worked out for
	cols []int
}

// generate computes row's stored generated columns in place from its
// other values. Every write of a row goes through checkRow, which calls
// it first: after BEFORE ROW triggers and before the constraints, as
// PostgreSQL computes them, so that a value a statement or a trigger put
// there is replaced.
func (t *table) generate(row value.Row) error {
	g := &t.gen
	if g.of != t.def {
		g.of, g.cols = t.def, g.cols[:0]
		for i := range t.def.Cols {
			if t.def.Cols[i].Generated != nil {
				g.cols = append(g.cols, i)
			}
		}
	}
	for _, i := range g.cols {
		v, err := t.def.Cols[i].Generated.Eval(row)
		if err != nil {
			return err
		}
		row[i] = v
	}
	return nil
}

// hasGenerated reports whether t has a stored generated column.
func (t *table) hasGenerated() bool {
	for i := range t.def.Cols {
		if t.def.Cols[i].Generated != nil {
			return true
		}
	}
	return false
}

// genFlag is pg_attribute.attgenerated: 's' for a stored generated
// column, empty for another.
func genFlag(gen bool) string {
	if gen {
		return "s"
	}
	return ""
}

// rowOf is row for a row of t: row-level security's checks of a new
// row see its generated columns computed, as PostgreSQL computes them
// before it checks the policies.
func (rc *rowChecker) rowOf(t *table, r value.Row) error {
	if !rc.c.Empty() {
		if err := t.generate(r); err != nil {
			return err
		}
	}
	return rc.row(r)
}

// identityFlag is pg_attribute.attidentity for an identity column's kind.
func identityFlag(kind byte) string {
	if kind == 0 {
		return ""
	}
	return string(kind)
}
