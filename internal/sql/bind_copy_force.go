package sql

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// forceColumns reads COPY … FROM's FORCE_NOT_NULL (columns) or FORCE_NULL
// (columns) into c, checked as PostgreSQL's BeginCopyFrom checks them:
// each a column of the table, not generated, named once, and one the
// data holds.
func (b *binder) forceColumns(d *pg_query.DefElem, rel *Relation, c *Copy) error {
	flags := make([]bool, len(rel.Cols))
	option := strings.ToUpper(d.Defname)
	for _, n := range d.Arg.GetList().GetItems() {
		name := n.GetString_().GetSval()
		idx := colIndex(rel.Cols, name)
		switch {
		case idx < 0:
			return pgerr.New(pgerr.UndefinedColumn, "column %q of relation %q does not exist", name, rel.Name)
		case genCol(rel, idx):
			return genCopyError(name)
		case flags[idx]:
			return pgerr.New(pgerr.DuplicateColumn, "column %q specified more than once", name)
		}
		flags[idx] = true
	}
	for i, f := range flags {
		if f && !slices.Contains(c.Cols, i) {
			return pgerr.New(pgerr.InvalidColumnRef, "%s column %q not referenced by COPY", option, rel.Cols[i].Name)
		}
	}
	if option == "FORCE_NULL" {
		c.ForceNull = flags
	} else {
		c.ForceNotNull = flags
	}
	return nil
}
