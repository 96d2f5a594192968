package engine

import (
	"slices"

	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/sql"
)

// FOREIGN KEY constraints and temporary tables, as in PostgreSQL: a
// session's temporary table may reference its temporary tables only, and
// a permanent table permanent ones only (42830 otherwise); the checks and
// actions are those of any table's.

// tempForeignKeys returns ct, the session's temporary table to be named
// name, with its references to itself naming it so (a copy when it has
// any: the bound statement may run again); 42830 for a reference to a
// permanent table.
func tempForeignKeys(ct *sql.CreateTable, name string) (*sql.CreateTable, error) {
	if len(ct.ForeignKeys) == 0 {
		return ct, nil
	}
	out := *ct
	out.ForeignKeys = slices.Clone(ct.ForeignKeys)
	for i := range out.ForeignKeys {
		fk := &out.ForeignKeys[i]
		switch {
		case fk.RefTable == ct.Name:
			fk.RefTable = name
		case !isTemp(fk.RefTable):
			return nil, pgerr.New(pgerr.InvalidTableDef, "constraints on temporary tables may reference only temporary tables")
		}
	}
	return &out, nil
}

// permanentForeignKeys refuses (42830) a permanent table referencing a
// session's temporary table.
func permanentForeignKeys(ct *sql.CreateTable) error {
	for _, fk := range ct.ForeignKeys {
		if isTemp(fk.RefTable) {
			return pgerr.New(pgerr.InvalidTableDef, "constraints on permanent tables may reference only permanent tables")
		}
	}
	return nil
}

// relinkTempKeys links the foreign keys again once temporary tables are
// dropped: none may name them.
func (e *Engine) relinkTempKeys() {
	if e.fkeys == nil {
		return
	}
	e.linkForeignKeys()
}

// alterForeignKeysPersistence refuses (42P16, as PostgreSQL's ALTER
// TABLE does) a foreign key that ALTER TABLE a adds from a temporary
// table to a permanent one, or from a permanent table to a temporary
// one; the table's own keys are kept as they are.
func (e *Engine) alterForeignKeysPersistence(a *sql.AlterTable) error {
	t := e.tables[a.Table]
	if t == nil || a.New == nil {
		return nil
	}
	for _, fk := range a.New.ForeignKeys {
		if slices.ContainsFunc(t.def.ForeignKeys, func(o sql.ForeignKey) bool { return o.Name == fk.Name }) {
			continue
		}
		self := fk.RefTable == a.Table || fk.RefTable == a.New.Name
		switch {
		case t.temp && !self && !isTemp(fk.RefTable):
			return pgerr.New(pgerr.InvalidTableDef, "constraints on temporary tables may reference only temporary tables")
		case !t.temp && isTemp(fk.RefTable):
			return pgerr.New(pgerr.InvalidTableDef, "constraints on permanent tables may reference only permanent tables")
		}
	}
	return nil
}
